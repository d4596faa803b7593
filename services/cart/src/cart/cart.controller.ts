import { Body, Controller, Delete, Get, HttpCode, Post, Put, Query, Res } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { CartJson } from '@shop/contracts';
import { ApiErrors, Auth, CurrentUser, OptionalAuth, type AuthUser } from '@shop/nest-common';
import type { FastifyReply } from 'fastify';
import { cartOwner, guestOwner } from './cart-owner';
import { CartService } from './cart.service';
import { CartBody } from './dto/cart.response';
import { AddToCartDto, CartLineDto, CartOwnerQuery, MergeCartDto, UpdateCartLineDto } from './dto/cart.dto';

/** docs/api.md#cart: whose cart comes from the token, or from a guest id when there is none. */
@ApiTags('cart')
@Controller('api/cart')
export class CartController {
  constructor(private readonly carts: CartService) {}

  @Get()
  @OptionalAuth()
  @ApiOperation({ summary: "The caller's cart (token) or a guest cart (guestId); an empty cart when there is none" })
  @ApiOkResponse({ type: CartBody })
  @ApiErrors({ 400: 'guestId is required, or Invalid guestId', 403: 'Not authorized to use this cart' })
  read(@Query() query: CartOwnerQuery, @CurrentUser() user?: AuthUser): Promise<CartJson> {
    return this.carts.read(cartOwner(user, query));
  }

  /** 201 when this call created the cart, 200 when it added to one. */
  @Post()
  @OptionalAuth()
  @ApiOperation({ summary: 'Add a line (priced by the server); 201 when this call created the cart, else 200' })
  @ApiOkResponse({ type: CartBody, description: 'Added to an existing cart' })
  @ApiCreatedResponse({ type: CartBody, description: 'Created the cart' })
  @ApiErrors(
    { 400: 'guestId is required, size/colour not offered, or quantity not a whole number 1–99' },
    { 403: 'Not authorized to use this cart', 404: 'Product not found', 409: 'Only N left in stock' },
  )
  async add(
    @Body() dto: AddToCartDto,
    @Res({ passthrough: true }) res: FastifyReply,
    @CurrentUser() user?: AuthUser,
  ): Promise<CartJson> {
    const { cart, created } = await this.carts.add(cartOwner(user, dto), dto);
    res.status(created ? 201 : 200);
    return cart;
  }

  @Put()
  @OptionalAuth()
  @ApiOperation({ summary: "Set a line's quantity (0 removes the line)" })
  @ApiOkResponse({ type: CartBody })
  @ApiErrors(
    { 400: 'guestId is required, or quantity not a whole number 0–99' },
    { 403: 'Not authorized to use this cart', 404: 'Product not found in cart', 409: 'Only N left in stock' },
  )
  update(@Body() dto: UpdateCartLineDto, @CurrentUser() user?: AuthUser): Promise<CartJson> {
    return this.carts.update(cartOwner(user, dto), dto);
  }

  @Delete()
  @OptionalAuth()
  @ApiOperation({ summary: 'Remove a line (JSON body); the cart is kept even when empty' })
  @ApiOkResponse({ type: CartBody })
  @ApiErrors(400, { 403: 'Not authorized to use this cart', 404: 'Product not found in cart' })
  remove(@Body() dto: CartLineDto, @CurrentUser() user?: AuthUser): Promise<CartJson> {
    return this.carts.remove(cartOwner(user, dto), dto);
  }

  @Post('merge')
  @HttpCode(200)
  @Auth()
  @ApiOperation({
    summary: "Merge a guest cart into the caller's (quantities add, capped by stock); the guest cart is removed",
  })
  @ApiOkResponse({ type: CartBody })
  @ApiErrors({ 400: 'guestId is required, or Invalid guestId' })
  merge(@Body() dto: MergeCartDto, @CurrentUser() user: AuthUser): Promise<CartJson> {
    return this.carts.merge(user.id, guestOwner(dto.guestId));
  }
}
