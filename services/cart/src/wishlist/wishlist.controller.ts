import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query, Res } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { MoveToCartJson, WishlistJson } from '@shop/contracts';
import { ApiErrors, Auth, CurrentUser, OptionalAuth, type AuthUser } from '@shop/nest-common';
import type { FastifyReply } from 'fastify';
import { guestOwner } from '../cart/cart-owner';
import {
  MergeWishlistDto,
  MoveToCartDto,
  SaveToWishlistDto,
  WishlistOwnerQuery,
  WishlistProductParam,
} from './dto/wishlist.dto';
import { MoveToCartBody, WishlistBody } from './dto/wishlist.response';
import { wishlistOwner } from './wishlist-owner';
import { WishlistService } from './wishlist.service';

/** Whose wishlist comes from the token, or from a guest id when there is none: the cart's rules. */
@ApiTags('wishlist')
@Controller('api/wishlist')
export class WishlistController {
  constructor(private readonly lists: WishlistService) {}

  @Get()
  @OptionalAuth()
  @ApiOperation({ summary: "The caller's wishlist (token) or a guest's (guestId), with current prices and stock" })
  @ApiOkResponse({ type: WishlistBody })
  @ApiErrors({ 400: 'guestId is required, or Invalid guestId', 403: 'Not authorized to use this wishlist' })
  read(@Query() query: WishlistOwnerQuery, @CurrentUser() user?: AuthUser): Promise<WishlistJson> {
    return this.lists.read(wishlistOwner(user, query));
  }

  @Post()
  @OptionalAuth()
  @ApiOperation({ summary: 'Save a product; 201 when this call saved it, 200 when it was saved already' })
  @ApiOkResponse({ type: WishlistBody, description: 'Saved already' })
  @ApiCreatedResponse({ type: WishlistBody, description: 'Saved' })
  @ApiErrors(
    { 400: 'guestId is required, or Invalid product id', 403: 'Not authorized to use this wishlist' },
    { 404: 'Product not found', 409: 'Your wishlist is full: it holds at most 100 items' },
  )
  async add(
    @Body() dto: SaveToWishlistDto,
    @Res({ passthrough: true }) res: FastifyReply,
    @CurrentUser() user?: AuthUser,
  ): Promise<WishlistJson> {
    const { wishlist, added } = await this.lists.add(wishlistOwner(user, dto), dto.productId);
    res.status(added ? 201 : 200);
    return wishlist;
  }

  @Post('merge')
  @HttpCode(200)
  @Auth()
  @ApiOperation({
    summary: "Merge a guest's wishlist into the caller's (each product once); the guest list is removed",
  })
  @ApiOkResponse({ type: WishlistBody })
  @ApiErrors({ 400: 'guestId is required, or Invalid guestId' })
  merge(@Body() dto: MergeWishlistDto, @CurrentUser() user: AuthUser): Promise<WishlistJson> {
    return this.lists.merge(user.id, guestOwner(dto.guestId));
  }

  @Delete(':productId')
  @OptionalAuth()
  @ApiOperation({ summary: 'Remove a product (removing one that is not there changes nothing)' })
  @ApiOkResponse({ type: WishlistBody })
  @ApiErrors({ 400: 'Invalid product id, or guestId is required', 403: 'Not authorized to use this wishlist' })
  remove(
    @Param() param: WishlistProductParam,
    @Query() query: WishlistOwnerQuery,
    @CurrentUser() user?: AuthUser,
  ): Promise<WishlistJson> {
    return this.lists.remove(wishlistOwner(user, query), param.productId);
  }

  @Post(':productId/move')
  @HttpCode(200)
  @OptionalAuth()
  @ApiOperation({
    summary: 'Move a saved product to the cart in the size and colour chosen; it then leaves the wishlist',
  })
  @ApiOkResponse({ type: MoveToCartBody })
  @ApiErrors(
    { 400: 'Invalid product id, size/colour not offered, or quantity not 1–99' },
    { 403: 'Not authorized to use this wishlist', 404: 'Product not found in wishlist', 409: 'Only N left in stock' },
  )
  move(
    @Param() param: WishlistProductParam,
    @Body() dto: MoveToCartDto,
    @CurrentUser() user?: AuthUser,
  ): Promise<MoveToCartJson> {
    return this.lists.moveToCart(wishlistOwner(user, dto), param.productId, {
      size: dto.size,
      color: dto.color,
      quantity: dto.quantity ?? 1,
    });
  }
}
