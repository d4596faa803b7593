import { Controller, Get, Param } from '@nestjs/common';
import type { OrderJson } from '@shop/contracts';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import {
  ApiErrors,
  ApiObjectIdParam,
  Auth,
  CurrentUser,
  OrderBody,
  ParseObjectIdPipe,
  type AuthUser,
} from '@shop/nest-common';
import { OrdersService } from './orders.service';

/** 400 `Invalid order id` for anything but an ObjectId. */
export const orderId = new ParseObjectIdPipe('order');

/** A customer's orders (docs/api.md#orders). */
@ApiTags('orders')
@Controller('api/orders')
@Auth()
export class OrdersController {
  constructor(private readonly orders: OrdersService) {}

  /** Before `:id`, so the path is never read as an id. */
  @Get('my-orders')
  @ApiOperation({ summary: "The caller's orders, newest first" })
  @ApiOkResponse({ type: [OrderBody] })
  mine(@CurrentUser() user: AuthUser): Promise<OrderJson[]> {
    return this.orders.listMine(user.id);
  }

  /** The buyer's or, for an admin, anyone's; another customer's answers 404 as if it did not exist. */
  @Get(':id')
  @ApiOperation({ summary: 'One order: its buyer’s or, for an admin, anyone’s (with the buyer’s name and email)' })
  @ApiObjectIdParam('order')
  @ApiOkResponse({ type: OrderBody })
  @ApiErrors({ 400: 'Invalid order id', 404: 'Order not found' })
  findOne(@CurrentUser() user: AuthUser, @Param('id', orderId) id: string): Promise<OrderJson> {
    return this.orders.findVisibleTo(user, id);
  }
}
