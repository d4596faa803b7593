import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsIn,
  IsInt,
  IsString,
  Max,
  MaxLength,
  Min,
  ValidateNested,
  IsObject,
} from 'class-validator';
import {
  RETURN_COMMENT_MAX,
  RETURN_MESSAGES,
  RETURN_REASONS,
  type CreateReturnBody,
  type ReturnReason,
} from '@shop/contracts';
import { IsAbsentOr } from '@shop/nest-common';

/** Most lines one return can name (an order has at most as many lines as its checkout allowed). */
export const MAX_RETURN_LINES = 100;

export class ReturnLineDto {
  @ApiProperty({ description: "The line's place in the order's orderItems (0 is the first)", minimum: 0 })
  @IsInt({ message: (args) => RETURN_MESSAGES.badLine(Number(args.value)) })
  @Min(0, { message: (args) => RETURN_MESSAGES.badLine(Number(args.value)) })
  @Max(999, { message: (args) => RETURN_MESSAGES.badLine(Number(args.value)) })
  line!: number;

  @ApiProperty({ minimum: 1 })
  @IsInt({ message: RETURN_MESSAGES.badQuantity })
  @Min(1, { message: RETURN_MESSAGES.badQuantity })
  @Max(999, { message: RETURN_MESSAGES.badQuantity })
  quantity!: number;
}

/** POST /api/orders/:id/returns. */
export class CreateReturnDto implements CreateReturnBody {
  @ApiProperty({ type: [ReturnLineDto] })
  @IsArray({ message: RETURN_MESSAGES.noLines })
  @ArrayMinSize(1, { message: RETURN_MESSAGES.noLines })
  @ArrayMaxSize(MAX_RETURN_LINES, { message: RETURN_MESSAGES.tooManyLines })
  @IsObject({ each: true, message: RETURN_MESSAGES.noLines })
  @ValidateNested({ each: true })
  @Type(() => ReturnLineDto)
  lines!: ReturnLineDto[];

  @ApiProperty({ enum: RETURN_REASONS, enumName: 'ReturnReason' })
  @IsIn(RETURN_REASONS, { message: RETURN_MESSAGES.badReason })
  reason!: ReturnReason;

  @ApiPropertyOptional({ maxLength: RETURN_COMMENT_MAX })
  @IsAbsentOr()
  @IsString({ message: RETURN_MESSAGES.badComment })
  @MaxLength(RETURN_COMMENT_MAX, { message: RETURN_MESSAGES.badComment })
  comment?: string;
}
