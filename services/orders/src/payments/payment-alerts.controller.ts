import { Body, Controller, HttpCode, Param, Post } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { OrderJson } from '@shop/contracts';
import { ApiErrors, ApiObjectIdParam, Auth, CurrentUser, OrderBody, type AuthUser } from '@shop/nest-common';
import { orderId } from '../orders/orders.controller';
import { ReviewPaymentAlertDto } from './dto/review-payment-alert.dto';
import { PaymentReversals } from './payment-reversals.service';

/** The dashboard's payment alerts (money PayPal gave back outside the shop): an admin marks one reviewed. */
@ApiTags('admin')
@Controller('api/admin/orders')
@Auth('admin')
export class PaymentAlertsController {
  constructor(private readonly reversals: PaymentReversals) {}

  @Post(':id/payment-alert/review')
  @HttpCode(200)
  @ApiOperation({
    summary:
      "Mark the refunds and reversals PayPal made outside the shop as reviewed: the order leaves the dashboard's alerts",
    description:
      'The order keeps its `externalRefunds` and gets a history note naming the admin. A refund or reversal recorded ' +
      'after the admin looked (more than `refunds`) keeps the alert: 409. An order with no alert is answered as it is.',
  })
  @ApiObjectIdParam('order')
  @ApiOkResponse({ type: OrderBody, description: 'The order, bare' })
  @ApiErrors(
    { 400: 'Invalid order id, or refunds not the number of refunds and reversals reviewed' },
    { 404: 'Order not found' },
    { 409: 'PayPal reported another refund or reversal of this order since you looked' },
  )
  review(
    @Param('id', orderId) id: string,
    @Body() dto: ReviewPaymentAlertDto,
    @CurrentUser() admin: AuthUser,
  ): Promise<OrderJson> {
    return this.reversals.review(id, dto.refunds, { _id: admin.id, name: admin.name });
  }
}
