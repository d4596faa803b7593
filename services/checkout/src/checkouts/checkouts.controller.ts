import { Body, Controller, Get, Param, Post, Put, Res } from '@nestjs/common';
import type { CheckoutJson, OrderJson } from '@shop/contracts';
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
import type { Response } from 'express';
import { CheckoutsService } from './checkouts.service';
import { CreateCheckoutDto, PayCheckoutDto } from './dto/checkout.dto';
import { CheckoutBody } from './dto/checkout.response';

const CheckoutId = () => Param('id', new ParseObjectIdPipe('checkout'));

/** API.md "Checkout": a signed-in buyer's own checkouts only (anyone else's answers 404). */
@ApiTags('checkout')
@Controller('api/checkout')
@Auth()
export class CheckoutsController {
  constructor(private readonly checkouts: CheckoutsService) {}

  @Post()
  @ApiOperation({ summary: 'Create a checkout: priced by the server, stock reserved' })
  @ApiCreatedResponse({ type: CheckoutBody })
  @ApiErrors(
    { 400: 'No items in checkout, or a field message (all seven address fields are required)' },
    { 404: 'Product not found', 409: 'Stock or price message (sold out, only N left)' },
  )
  create(@Body() dto: CreateCheckoutDto, @CurrentUser() user: AuthUser): Promise<CheckoutJson> {
    return this.checkouts.create(user, dto);
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
  @ApiOperation({ summary: 'Mark paid once the server verified and captured the PayPal order' })
  @ApiObjectIdParam('checkout')
  @ApiOkResponse({ type: CheckoutBody, description: 'The checkout, isPaid: true' })
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
  @ApiOperation({ summary: 'Turn a paid checkout into an order: 201 the first time, 200 with the same order after' })
  @ApiObjectIdParam('checkout')
  @ApiCreatedResponse({ type: OrderBody, description: 'The order, made by this call' })
  @ApiOkResponse({ type: OrderBody, description: 'The order, made before' })
  @ApiErrors({ 400: 'Invalid checkout id, or Checkout is not paid', 404: 'Checkout not found' })
  async finalize(
    @CheckoutId() id: string,
    @CurrentUser() user: AuthUser,
    @Res({ passthrough: true }) res: Response,
  ): Promise<OrderJson> {
    const { order, created } = await this.checkouts.finalize(user, id);
    res.status(created ? 201 : 200);
    return order;
  }
}
