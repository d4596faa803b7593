/**
 * Product reviews (issue 27): owned by catalog, which owns products. A customer may review a product once an order of
 * theirs containing it has been delivered, once per product; the product's `rating` and `numReviews` are the average
 * and count of its visible reviews, nothing else.
 */

export const REVIEW_RATING_MIN = 1;
export const REVIEW_RATING_MAX = 5;
export const REVIEW_COMMENT_MAX_LENGTH = 500;
/** A page of `GET /api/products/:id/reviews?page=` (and of the admin's list). */
export const REVIEWS_PAGE_SIZE = 10;

/** `POST /api/products/:id/reviews` (signed in). The comment is trimmed before it is checked. */
export interface ReviewBody {
  /** A whole number from 1 to 5. */
  rating: number;
  /** 1–500 characters after trimming. */
  comment: string;
}

/** A review as the product page shows it: newest first, `X-Total-Count` the number of visible reviews. */
export interface ReviewJson {
  _id: string;
  productId: string;
  /** The reviewer's first name and the initial of their last ("Jane F."), as their account named them. */
  author: string;
  rating: number;
  comment: string;
  createdAt: string;
}

/** A review as admins see it (`GET /api/admin/reviews`, `PUT /api/admin/reviews/:id`): hidden ones too. */
export interface AdminReviewJson extends ReviewJson {
  userId: string;
  /** Hidden reviews leave the product's list, average and count. */
  hidden: boolean;
  updatedAt: string;
}

/** `PUT /api/admin/reviews/:id`. */
export interface ReviewVisibilityBody {
  hidden: boolean;
}

/**
 * `GET /api/reviews/mine?productId=` (signed in): whether the caller may review the product now, and their review
 * when they wrote one (shown to them even while hidden). Not under /api/products: the gateway's HTTP cache fetches
 * GETs there anonymously.
 */
export interface MyReviewJson {
  canReview: boolean;
  /** Why not: `not-delivered` (no delivered order of theirs contains it) or `reviewed` (once per product). */
  reason?: 'not-delivered' | 'reviewed';
  review: ReviewJson | null;
}

export const REVIEW_MESSAGES = {
  notDelivered: 'You can review this product once an order of yours containing it has been delivered',
  alreadyReviewed: 'You have already reviewed this product',
  notFound: 'Review not found',
  invalidId: 'Invalid review id',
  rating: `Rating must be a whole number from ${REVIEW_RATING_MIN} to ${REVIEW_RATING_MAX}`,
  commentRequired: 'Please write a comment',
  commentTooLong: `Comment must be at most ${REVIEW_COMMENT_MAX_LENGTH} characters`,
  hidden: 'hidden must be true or false',
  page: 'page must be a whole number from 1',
  noReviews: 'No reviews yet',
  posted: 'Thank you: your review is posted',
  failed: 'Failed to load reviews',
  chooseRating: 'Please choose a rating from 1 to 5 stars',
  postFailed: 'Failed to post your review',
  moderationFailed: 'Failed to change the review',
  reviewHidden: 'Review hidden',
  reviewShown: 'Review shown again',
} as const;

/** "4.5 out of 5, 12 reviews": the average as the page says it (one decimal) and the count. */
export function ratingSummary(rating: number, numReviews: number): string {
  if (numReviews === 0) return REVIEW_MESSAGES.noReviews;
  const average = (Math.round(rating * 10) / 10).toString();
  return `${average} out of ${REVIEW_RATING_MAX}, ${numReviews} ${numReviews === 1 ? 'review' : 'reviews'}`;
}

/** The product's average of these ratings, to two decimals (0 without any). */
export function averageRating(total: number, count: number): number {
  return count === 0 ? 0 : Math.round((total / count) * 100) / 100;
}

/** "Jane F." from "Jane Fan"; a one-word name stays as it is. */
export function reviewAuthor(name: string): string {
  const words = name.trim().split(/\s+/).filter(Boolean);
  if (words.length === 0) return 'A customer';
  if (words.length === 1) return words[0];
  return `${words[0]} ${words[words.length - 1][0].toUpperCase()}.`;
}
