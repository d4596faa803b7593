import { Body, Controller, Get, Header, HttpCode, Param, Post, Query, Res } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiQuery, ApiTags } from '@nestjs/swagger';
import { REVIEWS_PAGE_SIZE, type ReviewJson } from '@shop/contracts';
import { ApiErrors, ApiObjectIdParam, Auth, CurrentUser, type AuthUser } from '@shop/nest-common';
import type { FastifyReply } from 'fastify';
import { productId } from '../products/products.controller';
import { CreateReviewDto } from './dto/review.dto';
import { MyReviewResponse, ReviewResponse } from './dto/review.response';
import { parsePage, sendPage } from './review-page';
import { ReviewsService } from './reviews.service';

export const ApiPageQuery = () =>
  ApiQuery({
    name: 'page',
    required: false,
    schema: { type: 'integer', minimum: 1, default: 1 },
    description: `${REVIEWS_PAGE_SIZE} reviews a page, newest first; the total is in \`X-Total-Count\``,
  });

/** A product's reviews: the product page's list, and a customer's own review. */
@ApiTags('reviews')
@Controller('api/products/:id/reviews')
export class ReviewsController {
  constructor(private readonly reviews: ReviewsService) {}

  @Get()
  @ApiOperation({ summary: "A published product's visible reviews, newest first, 10 a page" })
  @ApiObjectIdParam('product')
  @ApiPageQuery()
  @ApiOkResponse({ type: [ReviewResponse], headers: { 'X-Total-Count': { schema: { type: 'integer' } } } })
  @ApiErrors({ 400: 'Invalid product id / page', 404: 'Product not found' })
  async list(
    @Param('id', productId) id: string,
    @Query('page') page: unknown,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<ReviewJson[]> {
    return sendPage(reply, await this.reviews.listVisible(id, parsePage(page)));
  }

  @Post()
  @Auth()
  @HttpCode(201)
  @ApiOperation({
    summary: 'Review a product: a customer with a delivered order containing it, once per product',
  })
  @ApiObjectIdParam('product')
  @ApiCreatedResponse({ type: ReviewResponse })
  @ApiErrors({
    400: 'Invalid product id; rating not a whole number 1–5; comment empty or over 500 characters (after trimming)',
    403: 'You can review this product once an order of yours containing it has been delivered',
    404: 'Product not found',
    409: 'You have already reviewed this product',
  })
  create(@Param('id', productId) id: string, @CurrentUser() user: AuthUser, @Body() dto: CreateReviewDto) {
    return this.reviews.create(id, user, dto);
  }
}

/**
 * The caller's own standing with a product's reviews. Not under /api/products: the gateway's HTTP cache fetches every
 * GET there anonymously (a shared entry must not depend on who asked), so a signed-in read lives on a path of its own.
 */
@ApiTags('reviews')
@Controller('api/reviews')
export class MyReviewsController {
  constructor(private readonly reviews: ReviewsService) {}

  @Get('mine')
  @Auth()
  @Header('Cache-Control', 'private, no-store')
  @ApiOperation({ summary: 'Whether the caller may review a product, and their review of it (even hidden)' })
  @ApiQuery({ name: 'productId', required: true, schema: { type: 'string', pattern: '^[0-9a-fA-F]{24}$' } })
  @ApiOkResponse({ type: MyReviewResponse })
  @ApiErrors({ 400: 'Invalid product id', 404: 'Product not found' })
  mine(@Query('productId', productId) id: string, @CurrentUser() user: AuthUser) {
    return this.reviews.mine(id, user);
  }
}
