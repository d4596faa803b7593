import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import type { AdminReviewJson, MyReviewJson, ReviewJson } from '@shop/contracts';

/** A visible review, as the product page lists it. */
export class ReviewResponse implements ReviewJson {
  @ApiProperty({ example: '665f1c2ab7e4a1c3d2e0f9b2' }) _id!: string;
  @ApiProperty({ example: '665f1c2ab7e4a1c3d2e0f9a1' }) productId!: string;
  @ApiProperty({ example: 'Jane F.', description: "The reviewer's first name and last initial" }) author!: string;
  @ApiProperty({ type: 'integer', minimum: 1, maximum: 5 }) rating!: number;
  @ApiProperty({ maxLength: 500 }) comment!: string;
  @ApiProperty({ format: 'date-time' }) createdAt!: string;
}

/** A review as admins see it, hidden or not. */
export class AdminReviewResponse extends ReviewResponse implements AdminReviewJson {
  @ApiProperty() userId!: string;
  @ApiProperty({ description: 'Hidden: out of the product page, its average and count' }) hidden!: boolean;
  @ApiProperty({ format: 'date-time' }) updatedAt!: string;
}

/** Whether the caller may review the product, and their review. */
export class MyReviewResponse implements MyReviewJson {
  @ApiProperty() canReview!: boolean;
  @ApiPropertyOptional({ enum: ['not-delivered', 'reviewed'] }) reason?: 'not-delivered' | 'reviewed';
  @ApiProperty({ type: ReviewResponse, nullable: true }) review!: ReviewJson | null;
}
