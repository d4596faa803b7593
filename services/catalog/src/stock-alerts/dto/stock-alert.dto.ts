import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsEmail, IsNotEmpty, IsOptional, IsString, Matches, MaxLength } from 'class-validator';
import { STOCK_ALERT_MESSAGES } from '@shop/contracts';

const trimmed = Transform(({ value }) => (typeof value === 'string' ? value.trim() : value));

/** POST /api/stock-alerts. */
export class CreateStockAlertDto {
  @ApiProperty({ pattern: '^[0-9a-f]{24}$' })
  @Transform(({ value }) => (typeof value === 'string' ? value.trim().toLowerCase() : value))
  @IsNotEmpty({ message: 'productId is required' })
  @IsString({ message: 'Invalid product id' })
  @Matches(/^[0-9a-f]{24}$/, { message: 'Invalid product id' })
  productId!: string;

  @ApiPropertyOptional({ maxLength: 50, description: "'' or absent when the product has no sizes" })
  @trimmed
  @IsOptional()
  @IsString({ message: 'Size must be text' })
  @MaxLength(50, { message: 'Size must be at most 50 characters' })
  size?: string;

  @ApiPropertyOptional({ maxLength: 50, description: "'' or absent when the product has no colours" })
  @trimmed
  @IsOptional()
  @IsString({ message: 'Color must be text' })
  @MaxLength(50, { message: 'Color must be at most 50 characters' })
  color?: string;

  @ApiPropertyOptional({ description: "A guest's address (required without a token; ignored with one)" })
  @Transform(({ value }) => (typeof value === 'string' ? value.trim().toLowerCase() : value))
  @IsOptional()
  @IsString({ message: STOCK_ALERT_MESSAGES.invalidEmail })
  @MaxLength(254, { message: STOCK_ALERT_MESSAGES.invalidEmail })
  @IsEmail({}, { message: STOCK_ALERT_MESSAGES.invalidEmail })
  email?: string;
}

/** POST /api/stock-alerts/unsubscribe: the token of an email's link. */
export class UnsubscribeDto {
  @ApiProperty()
  @IsNotEmpty({ message: STOCK_ALERT_MESSAGES.invalidToken })
  @IsString({ message: STOCK_ALERT_MESSAGES.invalidToken })
  @MaxLength(1024, { message: STOCK_ALERT_MESSAGES.invalidToken })
  token!: string;
}

export class StockAlertAnswer {
  @ApiProperty({ example: STOCK_ALERT_MESSAGES.accepted }) message!: string;
}
