import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, MaxLength } from 'class-validator';
import {
  CARRIERS,
  ORDER_MESSAGES,
  ORDER_STATUSES,
  TRACKING_MESSAGES,
  type Carrier,
  type OrderStatus,
} from '@shop/contracts';

/** PUT /api/admin/orders/:id: anything but one of the four statuses (missing, null, a number, an object…) is 400. */
export class UpdateOrderStatusDto {
  @ApiProperty({ enum: ORDER_STATUSES, enumName: 'OrderStatus' })
  @IsIn(ORDER_STATUSES, { message: ORDER_MESSAGES.invalidStatus })
  status!: OrderStatus;

  /** With `trackingNumber`, only when marking the order Shipped (order-tracking.ts checks the pair). */
  @ApiPropertyOptional({ enum: CARRIERS, enumName: 'Carrier', description: 'The parcel’s carrier (with Shipped)' })
  @IsOptional()
  @IsIn(CARRIERS, { message: TRACKING_MESSAGES.carrierRequired })
  carrier?: Carrier;

  @ApiPropertyOptional({
    maxLength: 60,
    example: 'AB123456785GB',
    description:
      "The carrier's tracking number (with Shipped): spaces and hyphens ignored; Royal Mail two letters, 9 digits and " +
      'GB (check digit checked), DPD 14 digits, Evri 16 letters and digits, DHL 10 digits, UPS 1Z and 16 letters and ' +
      'digits (check digit checked)',
  })
  @IsOptional()
  @IsString({ message: TRACKING_MESSAGES.numberRequired })
  @MaxLength(60, { message: TRACKING_MESSAGES.numberRequired })
  trackingNumber?: string;
}
