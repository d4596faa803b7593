import { Body, Controller, Delete, Param, Put } from '@nestjs/common';
import { ORDER_MESSAGES, type OrderJson } from '@shop/contracts';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import {
  ApiErrors,
  ApiObjectIdParam,
  Auth,
  CurrentUser,
  MessageBody,
  OrderBody,
  type AuthUser,
} from '@shop/nest-common';
import { UpdateOrderStatusDto } from './dto/update-order-status.dto';
import { trackingOfChange } from './order-tracking';
import { orderId } from './orders.controller';
import { OrdersService } from './orders.service';

/** Order management for admins: an order's status, its removal (the reads: admin-orders/). */
@ApiTags('admin')
@Controller('api/admin/orders')
@Auth('admin')
export class AdminOrdersController {
  constructor(private readonly orders: OrdersService) {}

  /** Answers the updated order itself (clients read it bare). */
  @Put(':id')
  @ApiOperation({
    summary:
      "Change an order's status, kept in its statusHistory with the admin who changed it, and announced (Delivered sets deliveredAt; Cancelled refunds a paid order's PayPal payment once, releases its stock once, and is final)",
    description:
      'Cancelling a paid order refunds its PayPal capture first (once, however often or concurrently asked), then ' +
      'marks it Cancelled with the refund on its history entry (`refund {id, amount}`) and in the status-changed ' +
      'event (the email says so). If PayPal refuses the refund the order stays as it was, paid, with a `note` entry ' +
      '"Refund refused by PayPal: …" on its history, and the answer is 502 with that message. Marking it Shipped ' +
      'may carry the parcel’s `carrier` and `trackingNumber` (checked against the carrier’s format): the order then ' +
      'shows `tracking {carrier, number, url}` and the shipping email links to the carrier’s tracking page; Shipped ' +
      'again with another number corrects it.',
  })
  @ApiObjectIdParam('order')
  @ApiOkResponse({ type: OrderBody, description: 'The updated order, bare' })
  @ApiErrors(
    {
      400: 'Invalid order id, Invalid status, A cancelled order cannot change status, A delivered order cannot be cancelled, or a tracking message (no carrier, no number, not that carrier’s format, only with Shipped)',
    },
    { 404: 'Order not found' },
    {
      409: 'No PayPal payment of this order is on record (nothing refunded, nothing changed), or A refund of this order is not confirmed yet (another status while a cancel is unsettled)',
    },
    { 502: 'Refund refused by PayPal: <PayPal’s reason> (the order stays paid; the refusal is on its history)' },
    {
      503: 'The refund is not confirmed yet (checkout or PayPal did not answer in time): the order stays paid; if the refund is made it is cancelled shortly, by the retry or by itself, never refunded twice',
    },
  )
  updateStatus(
    @Param('id', orderId) id: string,
    @Body() dto: UpdateOrderStatusDto,
    @CurrentUser() admin: AuthUser,
  ): Promise<OrderJson> {
    const tracking = trackingOfChange(dto.status, dto.carrier, dto.trackingNumber);
    return this.orders.updateStatus(id, dto.status, { _id: admin.id, name: admin.name }, tracking);
  }

  @Delete(':id')
  @ApiOperation({ summary: 'Remove an order' })
  @ApiObjectIdParam('order')
  @ApiOkResponse({ type: MessageBody, description: '`{message: "Order removed"}`' })
  @ApiErrors({ 400: 'Invalid order id', 404: 'Order not found' })
  async remove(@Param('id', orderId) id: string): Promise<{ message: string }> {
    await this.orders.remove(id);
    return { message: ORDER_MESSAGES.removed };
  }
}
