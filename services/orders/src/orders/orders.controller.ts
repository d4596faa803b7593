import { Controller, Get, Param } from '@nestjs/common';
import type { OrderJson } from '@shop/contracts';
import { Auth, CurrentUser, ParseObjectIdPipe, type AuthUser } from '@shop/nest-common';
import { OrdersService } from './orders.service';

/** 400 `Invalid order id` for anything but an ObjectId. */
export const orderId = new ParseObjectIdPipe('order');

/** A customer's orders (API.md "Orders"). */
@Controller('api/orders')
@Auth()
export class OrdersController {
  constructor(private readonly orders: OrdersService) {}

  /** Before `:id`, so the path is never read as an id. */
  @Get('my-orders')
  mine(@CurrentUser() user: AuthUser): Promise<OrderJson[]> {
    return this.orders.listMine(user.id);
  }

  /** The buyer's or, for an admin, anyone's; another customer's answers 404 as if it did not exist. */
  @Get(':id')
  findOne(@CurrentUser() user: AuthUser, @Param('id', orderId) id: string): Promise<OrderJson> {
    return this.orders.findVisibleTo(user, id);
  }
}
