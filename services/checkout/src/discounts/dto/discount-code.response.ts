import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { DISCOUNT_TYPES, type DiscountCodeJson, type DiscountStatus, type DiscountType } from '@shop/contracts';

const STATUSES: DiscountStatus[] = ['active', 'inactive', 'scheduled', 'expired', 'used up'];

/** A discount code as the admin sees it. */
export class DiscountCodeResponse implements DiscountCodeJson {
  @ApiProperty() _id!: string;
  @ApiProperty({ example: 'KICKOFF10', description: 'Upper-case' }) code!: string;
  @ApiProperty({ enum: DISCOUNT_TYPES }) type!: DiscountType;
  @ApiProperty({ description: 'percent: a whole number 1–100; fixed: pounds', example: 10 }) value!: number;
  @ApiProperty({ type: Number, nullable: true, description: 'Pounds' }) minSubtotal!: number | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) startsAt!: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: 'Exclusive' }) endsAt!: string | null;
  @ApiProperty({ type: 'integer', nullable: true }) usageLimit!: number | null;
  @ApiProperty({ type: 'integer', nullable: true }) perCustomerLimit!: number | null;
  @ApiProperty() firstOrderOnly!: boolean;
  @ApiProperty() active!: boolean;
  @ApiProperty({ type: 'integer', description: 'Orders placed with it' }) uses!: number;
  @ApiProperty({ type: 'integer', description: 'Unpaid checkouts holding one of its uses now' }) held!: number;
  @ApiProperty({ enum: STATUSES }) status!: DiscountStatus;
  @ApiPropertyOptional({ description: 'A personal code (the newsletter’s): the only address it is for' })
  email?: string;
  @ApiProperty({ format: 'date-time' }) createdAt!: string;
  @ApiProperty({ format: 'date-time' }) updatedAt!: string;
}
