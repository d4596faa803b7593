import { Body, Controller, Get, HttpCode, Param, Post, Put, Res } from '@nestjs/common';
import type { CheckoutJson, CheckoutQuoteJson, OrderJson } from '@shop/contracts';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import {
  ApiErrors,
  ApiObjectIdParam,
  Auth,
  CurrentUser,
  OrderBody,
  ParseObjectIdPipe,
  type AuthUser,
} from '@shop/nest-common';
import type { FastifyReply } from 'fastify';
import { CheckoutsService } from './checkouts.service';
import { CreateCheckoutDto, PayCheckoutDto, QuoteCheckoutDto } from './dto/checkout.dto';
import { CheckoutBody, CheckoutQuoteBody } from './dto/checkout.response';

const CheckoutId = () => Param('id', new ParseObjectIdPipe('checkout'));

/** docs/api.md#checkout: a signed-in buyer's own checkouts only (anyone else's answers 404). */
@ApiTags('checkout')
@Controller('api/checkout')
@Auth()
export class CheckoutsController {
  constructor(private readonly checkouts: CheckoutsService) {}

  @Post()
  @ApiOperation({
    summary: 'Create a checkout: priced by the server, stock reserved, the discount code applied',
    description:
      'With `discountCode`, the code is checked as the quote does and one use of a limited code is held with the ' +
      'stock (released if the checkout expires unpaid, counted once its order is placed); `totalPrice` is the ' +
      'subtotal less the discount: what PayPal must be paid.',
  })
  @ApiCreatedResponse({ type: CheckoutBody })
  @ApiErrors(
    { 400: 'No items in checkout, a field message (all seven address fields are required), or a discount refusal' },
    { 404: 'Product not found', 409: 'Stock or price message (sold out, only N left)' },
  )
  create(@Body() dto: CreateCheckoutDto, @CurrentUser() user: AuthUser): Promise<CheckoutJson> {
    return this.checkouts.create(user, dto);
  }

  /** Declared before `:id`. */
  @Post('quote')
  @HttpCode(200)
  @ApiOperation({
    summary: 'What a checkout of these lines would charge, with a discount code: priced by the server, nothing held',
    description:
      'The checkout page’s "Apply". Every refusal of a code is a 400 with a shopper’s message: unknown, no longer ' +
      'active, not valid yet, expired, used up (uses and unpaid checkouts’ holds reach its limit), below its ' +
      'minimum subtotal, only for a first order, already used by you, or for another customer.',
  })
  @ApiOkResponse({ type: CheckoutQuoteBody })
  @ApiErrors(
    { 400: 'No items in checkout, a line problem, or a discount refusal (DISCOUNT_MESSAGES)' },
    { 404: 'Product not found', 409: 'Stock message (sold out, only N left)' },
  )
  quote(@Body() dto: QuoteCheckoutDto, @CurrentUser() user: AuthUser): Promise<CheckoutQuoteJson> {
    return this.checkouts.quote(user, dto);
  }

  @Get(':id')
  @ApiOperation({ summary: 'One of your checkouts (anyone else’s, an admin’s too, answers 404)' })
  @ApiObjectIdParam('checkout')
  @ApiOkResponse({ type: CheckoutBody })
  @ApiErrors({ 400: 'Invalid checkout id', 404: 'Checkout not found' })
  get(@CheckoutId() id: string, @CurrentUser() user: AuthUser): Promise<CheckoutJson> {
    return this.checkouts.get(user, id);
  }

  @Put(':id/pay')
  @ApiOperation({
    summary: 'Pay: the server verifies the captured PayPal order, marks the checkout paid and places its order',
  })
  @ApiObjectIdParam('checkout')
  @ApiOkResponse({
    type: CheckoutBody,
    description: 'The checkout, isPaid: true; its order is placed (finalize answers it)',
  })
  @ApiErrors(
    { 400: 'Invalid checkout id, or paymentDetails.id (the PayPal order id) is required' },
    { 402: 'Payment could not be verified', 404: 'Checkout not found' },
    { 409: 'Payment already used, or the reservation expired and the stock is gone (refunded)' },
  )
  pay(@CheckoutId() id: string, @Body() dto: PayCheckoutDto, @CurrentUser() user: AuthUser): Promise<CheckoutJson> {
    return this.checkouts.pay(user, id, dto);
  }

  /** 201 with the order the first time, 200 with the same order on every repeat. */
  @Post(':id/finalize')
  @ApiOperation({
    summary: 'The paid checkout’s order (placed by pay, or now if pay could not): 201 the first time, 200 after',
  })
  @ApiObjectIdParam('checkout')
  @ApiCreatedResponse({ type: OrderBody, description: 'The order, made by this call' })
  @ApiOkResponse({ type: OrderBody, description: 'The order, made before' })
  @ApiErrors({ 400: 'Invalid checkout id, or Checkout is not paid', 404: 'Checkout not found' })
  async finalize(
    @CheckoutId() id: string,
    @CurrentUser() user: AuthUser,
    @Res({ passthrough: true }) res: FastifyReply,
  ): Promise<OrderJson> {
    const { order, created } = await this.checkouts.finalize(user, id);
    res.status(created ? 201 : 200);
    return order;
  }
}
