import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';
import { REVIEW_COMMENT_MAX_LENGTH, REVIEW_RATING_MAX, REVIEW_RATING_MIN } from '@shop/contracts';
import type { Types } from 'mongoose';

/**
 * A customer's review of a product. Once per product and customer: `key` (`<productId>:<userId>`) is unique and
 * always present, so of two concurrent posts exactly one is stored (docs/pitfalls.md#unique-indexes-on-ferretdb).
 * Hidden reviews stay stored for admins, out of the product's list, average and count.
 */
@Schema({ collection: 'reviews', versionKey: false, timestamps: true })
export class Review {
  @Prop({ required: true })
  key!: string;

  @Prop({ required: true })
  productId!: string;

  @Prop({ required: true })
  userId!: string;

  /** As shown: "Jane F." (reviewAuthor of the account's name when the review was written). */
  @Prop({ required: true })
  author!: string;

  @Prop({ required: true, min: REVIEW_RATING_MIN, max: REVIEW_RATING_MAX })
  rating!: number;

  @Prop({ required: true, maxlength: REVIEW_COMMENT_MAX_LENGTH })
  comment!: string;

  @Prop({ required: true, default: false })
  hidden!: boolean;

  createdAt!: Date;
  updatedAt!: Date;
}

export type LeanReview = Review & { _id: Types.ObjectId };
export const reviewKey = (productId: string, userId: string): string =>
  `${productId.toLowerCase()}:${userId.toLowerCase()}`;

export const ReviewSchema = SchemaFactory.createForClass(Review);
ReviewSchema.index({ key: 1 }, { unique: true });
// The product page's list (visible, newest first) and the admin's (a product's, or all, newest first).
ReviewSchema.index({ productId: 1, hidden: 1, createdAt: -1 });
ReviewSchema.index({ createdAt: -1 });
