import { Body, Controller, Get, Param, Put, Query, Res } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiQuery, ApiTags } from '@nestjs/swagger';
import type { AdminReviewJson } from '@shop/contracts';
import { ApiErrors, ApiObjectIdParam, Auth, ParseObjectIdPipe } from '@shop/nest-common';
import type { FastifyReply } from 'fastify';
import { AdminReviewResponse } from './dto/review.response';
import { ReviewVisibilityDto } from './dto/review.dto';
import { parsePage, sendPage } from './review-page';
import { ApiPageQuery } from './reviews.controller';
import { ReviewsService } from './reviews.service';

const reviewId = new ParseObjectIdPipe('review');
const productIdQuery = new ParseObjectIdPipe('product');

/** Admins find reviews (hidden ones too) and hide or show them. */
@ApiTags('admin')
@Controller('api/admin/reviews')
@Auth('admin')
export class AdminReviewsController {
  constructor(private readonly reviews: ReviewsService) {}

  @Get()
  @ApiOperation({ summary: 'Reviews, hidden ones too, newest first, 10 a page; of one product with ?productId=' })
  @ApiQuery({ name: 'productId', required: false, schema: { type: 'string', pattern: '^[0-9a-fA-F]{24}$' } })
  @ApiPageQuery()
  @ApiOkResponse({ type: [AdminReviewResponse], headers: { 'X-Total-Count': { schema: { type: 'integer' } } } })
  @ApiErrors({ 400: 'Invalid product id / page' })
  async list(
    @Query('productId') product: unknown,
    @Query('page') page: unknown,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<AdminReviewJson[]> {
    const id = product === undefined ? undefined : productIdQuery.transform(product);
    return sendPage(reply, await this.reviews.listAll(id, parsePage(page)));
  }

  @Put(':id')
  @ApiOperation({ summary: "Hide or show a review: the product's list, average and count follow at once" })
  @ApiObjectIdParam('review')
  @ApiOkResponse({ type: AdminReviewResponse })
  @ApiErrors({ 400: 'Invalid review id / hidden must be true or false', 404: 'Review not found' })
  update(@Param('id', reviewId) id: string, @Body() dto: ReviewVisibilityDto) {
    return this.reviews.setHidden(id, dto.hidden);
  }
}
