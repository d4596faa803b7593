import { Body, Controller, Delete, Param, Put } from '@nestjs/common';
import { ORDER_MESSAGES, type OrderJson } from '@shop/contracts';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiErrors, ApiObjectIdParam, Auth, MessageBody, OrderBody } from '@shop/nest-common';
import { UpdateOrderStatusDto } from './dto/update-order-status.dto';
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
      "Change an order's status, kept in its statusHistory and announced (Delivered sets deliveredAt; Cancelled releases stock, once, and is final)",
  })
  @ApiObjectIdParam('order')
  @ApiOkResponse({ type: OrderBody, description: 'The updated order, bare' })
  @ApiErrors(
    { 400: 'Invalid order id, Invalid status, or A cancelled order cannot change status' },
    { 404: 'Order not found' },
  )
  updateStatus(@Param('id', orderId) id: string, @Body() dto: UpdateOrderStatusDto): Promise<OrderJson> {
    return this.orders.updateStatus(id, dto.status);
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
