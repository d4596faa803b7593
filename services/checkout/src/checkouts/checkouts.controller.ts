import { Body, Controller, Get, Param, Post, Put, Res } from '@nestjs/common';
import type { CheckoutJson, OrderJson } from '@shop/contracts';
import { Auth, CurrentUser, ParseObjectIdPipe, type AuthUser } from '@shop/nest-common';
import type { Response } from 'express';
import { CheckoutsService } from './checkouts.service';
import { CreateCheckoutDto, PayCheckoutDto } from './dto/checkout.dto';

const CheckoutId = () => Param('id', new ParseObjectIdPipe('checkout'));

/** API.md "Checkout": a signed-in buyer's own checkouts only (anyone else's answers 404). */
@Controller('api/checkout')
@Auth()
export class CheckoutsController {
  constructor(private readonly checkouts: CheckoutsService) {}

  @Post()
  create(@Body() dto: CreateCheckoutDto, @CurrentUser() user: AuthUser): Promise<CheckoutJson> {
    return this.checkouts.create(user, dto);
  }

  @Get(':id')
  get(@CheckoutId() id: string, @CurrentUser() user: AuthUser): Promise<CheckoutJson> {
    return this.checkouts.get(user, id);
  }

  @Put(':id/pay')
  pay(@CheckoutId() id: string, @Body() dto: PayCheckoutDto, @CurrentUser() user: AuthUser): Promise<CheckoutJson> {
    return this.checkouts.pay(user, id, dto);
  }

  /** 201 with the order the first time, 200 with the same order on every repeat. */
  @Post(':id/finalize')
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
