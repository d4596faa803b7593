import { ApiProperty } from '@nestjs/swagger';
import { IsIn } from 'class-validator';
import { ORDER_MESSAGES, ORDER_STATUSES, type OrderStatus } from '@shop/contracts';

/** PUT /api/admin/orders/:id: anything but one of the four statuses (missing, null, a number, an object…) is 400. */
export class UpdateOrderStatusDto {
  @ApiProperty({ enum: ORDER_STATUSES, enumName: 'OrderStatus' })
  @IsIn(ORDER_STATUSES, { message: ORDER_MESSAGES.invalidStatus })
  status!: OrderStatus;
}
