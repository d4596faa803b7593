import { applyDecorators } from '@nestjs/common';
import { ApiProperty } from '@nestjs/swagger';
import {
  REVIEW_COMMENT_MAX_LENGTH,
  REVIEW_MESSAGES,
  REVIEW_RATING_MAX,
  REVIEW_RATING_MIN,
  type ReviewBody,
  type ReviewVisibilityBody,
} from '@shop/contracts';
import { Transform } from 'class-transformer';
import { IsBoolean, IsDefined, IsInt, IsNotEmpty, IsString, Max, MaxLength, Min } from 'class-validator';

const trim = Transform(({ value }) => (typeof value === 'string' ? value.trim() : value));

/** POST /api/products/:id/reviews. Rules run in the order listed; the first that fails is the message. */
export class CreateReviewDto implements ReviewBody {
  @applyDecorators(
    ApiProperty({ type: 'integer', minimum: REVIEW_RATING_MIN, maximum: REVIEW_RATING_MAX, example: 5 }),
    IsDefined({ message: REVIEW_MESSAGES.rating }),
    IsInt({ message: REVIEW_MESSAGES.rating }),
    Min(REVIEW_RATING_MIN, { message: REVIEW_MESSAGES.rating }),
    Max(REVIEW_RATING_MAX, { message: REVIEW_MESSAGES.rating }),
  )
  rating!: number;

  @applyDecorators(
    ApiProperty({
      minLength: 1,
      maxLength: REVIEW_COMMENT_MAX_LENGTH,
      description: 'Trimmed, then 1–500 characters',
      example: 'True to size and the colours stay bright after many washes.',
    }),
    trim,
    IsDefined({ message: REVIEW_MESSAGES.commentRequired }),
    IsString({ message: REVIEW_MESSAGES.commentRequired }),
    IsNotEmpty({ message: REVIEW_MESSAGES.commentRequired }),
    MaxLength(REVIEW_COMMENT_MAX_LENGTH, { message: REVIEW_MESSAGES.commentTooLong }),
  )
  comment!: string;
}

/** PUT /api/admin/reviews/:id. */
export class ReviewVisibilityDto implements ReviewVisibilityBody {
  @applyDecorators(
    ApiProperty({ description: 'true hides the review from the product page, its average and count' }),
    IsDefined({ message: REVIEW_MESSAGES.hidden }),
    IsBoolean({ message: REVIEW_MESSAGES.hidden }),
  )
  hidden!: boolean;
}
