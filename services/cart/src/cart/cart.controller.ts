import { Body, Controller, Delete, Get, HttpCode, Post, Put, Query, Res } from '@nestjs/common';
import type { CartJson } from '@shop/contracts';
import { Auth, CurrentUser, OptionalAuth, type AuthUser } from '@shop/nest-common';
import type { Response } from 'express';
import { cartOwner, guestOwner } from './cart-owner';
import { CartService } from './cart.service';
import { AddToCartDto, CartLineDto, CartOwnerQuery, MergeCartDto, UpdateCartLineDto } from './dto/cart.dto';

/** API.md "Cart": whose cart comes from the token, or from a guest id when there is none. */
@Controller('api/cart')
export class CartController {
  constructor(private readonly carts: CartService) {}

  @Get()
  @OptionalAuth()
  read(@Query() query: CartOwnerQuery, @CurrentUser() user?: AuthUser): Promise<CartJson> {
    return this.carts.read(cartOwner(user, query));
  }

  /** 201 when this call created the cart, 200 when it added to one. */
  @Post()
  @OptionalAuth()
  async add(
    @Body() dto: AddToCartDto,
    @Res({ passthrough: true }) res: Response,
    @CurrentUser() user?: AuthUser,
  ): Promise<CartJson> {
    const { cart, created } = await this.carts.add(cartOwner(user, dto), dto);
    res.status(created ? 201 : 200);
    return cart;
  }

  @Put()
  @OptionalAuth()
  update(@Body() dto: UpdateCartLineDto, @CurrentUser() user?: AuthUser): Promise<CartJson> {
    return this.carts.update(cartOwner(user, dto), dto);
  }

  @Delete()
  @OptionalAuth()
  remove(@Body() dto: CartLineDto, @CurrentUser() user?: AuthUser): Promise<CartJson> {
    return this.carts.remove(cartOwner(user, dto), dto);
  }

  @Post('merge')
  @HttpCode(200)
  @Auth()
  merge(@Body() dto: MergeCartDto, @CurrentUser() user: AuthUser): Promise<CartJson> {
    return this.carts.merge(user.id, guestOwner(dto.guestId));
  }
}
