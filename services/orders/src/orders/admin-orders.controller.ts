import { Body, Controller, Delete, Get, Param, Put } from '@nestjs/common';
import { ORDER_MESSAGES, type OrderJson } from '@shop/contracts';
import { Auth } from '@shop/nest-common';
import { UpdateOrderStatusDto } from './dto/update-order-status.dto';
import { orderId } from './orders.controller';
import { OrdersService } from './orders.service';

/** Order management for admins: every order, its status, its removal. */
@Controller('api/admin/orders')
@Auth('admin')
export class AdminOrdersController {
  constructor(private readonly orders: OrdersService) {}

  @Get()
  list(): Promise<OrderJson[]> {
    return this.orders.listAll();
  }

  /** Answers the updated order itself (clients read it bare). */
  @Put(':id')
  updateStatus(@Param('id', orderId) id: string, @Body() dto: UpdateOrderStatusDto): Promise<OrderJson> {
    return this.orders.updateStatus(id, dto.status);
  }

  @Delete(':id')
  async remove(@Param('id', orderId) id: string): Promise<{ message: string }> {
    await this.orders.remove(id);
    return { message: ORDER_MESSAGES.removed };
  }
}
