import { Body, Controller, Param, Post } from '@nestjs/common';
import { ApiCreatedResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { OrderJson } from '@shop/contracts';
import { ApiErrors, ApiObjectIdParam, Auth, CurrentUser, OrderBody, type AuthUser } from '@shop/nest-common';
import { orderId } from '../orders/orders.controller';
import { CreateReturnDto } from './dto/create-return.dto';
import { ReturnsService } from './returns.service';

/** A customer returns some of a delivered order's units (their own orders only). */
@ApiTags('orders')
@Controller('api/orders')
@Auth()
export class ReturnsController {
  constructor(private readonly returns: ReturnsService) {}

  @Post(':id/returns')
  @ApiOperation({
    summary: 'Ask to return some units of a delivered order, within 45 days of its delivery',
    description:
      'Lines are named by their place in the order’s orderItems. Each line refunds its paid price (the order’s ' +
      'discount shared out across its lines to the penny; shipping is free) once the shop has received it. An order ' +
      'may have several returns, never of more units than were bought. Answers the order with its returns.',
  })
  @ApiObjectIdParam('order')
  @ApiCreatedResponse({ type: OrderBody, description: 'The order, its new return last in `returns` (Requested)' })
  @ApiErrors(
    {
      400: 'Invalid order id; Only a delivered order can be returned; Returns are accepted within 45 days of delivery: …; You can return at most N of <item>; a bad line, quantity, reason or comment',
    },
    { 404: 'Order not found (also another customer’s order)' },
    { 409: 'The order is changing: please try again' },
  )
  create(
    @CurrentUser() user: AuthUser,
    @Param('id', orderId) id: string,
    @Body() dto: CreateReturnDto,
  ): Promise<OrderJson> {
    return this.returns.request(user, id, dto);
  }
}
