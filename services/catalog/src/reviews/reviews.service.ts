import { ConflictException, ForbiddenException, Injectable, Logger, NotFoundException } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import {
  averageRating,
  REVIEW_MESSAGES,
  REVIEWS_PAGE_SIZE,
  reviewAuthor,
  type AdminReviewJson,
  type MyReviewJson,
  type OrderStatusChangedEvent,
  type ReviewJson,
} from '@shop/contracts';
import { isDuplicateKeyError, type AuthUser } from '@shop/nest-common';
import { isValidObjectId, type Model } from 'mongoose';
import { CatalogCache } from '../cache/catalog-cache';
import { ProductLocks } from '../products/product-locks';
import { Product } from '../products/product.schema';
import { PRODUCT_NOT_FOUND } from '../products/products.service';
import { Delivery, deliveryKey } from './delivery.schema';
import { Review, reviewKey, type LeanReview } from './review.schema';
import type { CreateReviewDto } from './dto/review.dto';

/** One page of a list, and how many there are in all (sent as `X-Total-Count`). */
export interface ReviewPage<T> {
  items: T[];
  total: number;
}

const NEWEST_FIRST = { createdAt: -1, _id: -1 } as const;
const isObjectId = (value: unknown): value is string =>
  typeof value === 'string' && /^[0-9a-fA-F]{24}$/.test(value) && isValidObjectId(value);

function toReviewJson(r: LeanReview): ReviewJson {
  return {
    _id: String(r._id),
    productId: r.productId,
    author: r.author,
    rating: r.rating,
    comment: r.comment,
    createdAt: new Date(r.createdAt).toISOString(),
  };
}

function toAdminReviewJson(r: LeanReview): AdminReviewJson {
  return {
    ...toReviewJson(r),
    userId: r.userId,
    hidden: !!r.hidden,
    updatedAt: new Date(r.updatedAt).toISOString(),
  };
}

/**
 * Reviews of products (issue 27): who may write one (a customer who received the product, once), the product page's
 * list, admins hiding and showing, and the product's `rating`/`numReviews`, which are recomputed from its visible
 * reviews under the product's lock after every change — never counted up or down: a recount under the lock is exact
 * whatever ran at the same time.
 */
@Injectable()
export class ReviewsService {
  private readonly logger = new Logger(ReviewsService.name);

  constructor(
    @InjectModel(Review.name) private readonly reviews: Model<Review>,
    @InjectModel(Delivery.name) private readonly deliveries: Model<Delivery>,
    @InjectModel(Product.name) private readonly products: Model<Product>,
    private readonly locks: ProductLocks,
    private readonly cache: CatalogCache,
  ) {}

  // ------------------------------------------------------------------ deliveries (orders' events)

  /**
   * `orders.order.status-changed`: a Delivered order's customer has received each of its products. One record per
   * customer and product (unique `_id`), so a redelivered event, or another delivered order of the same product,
   * changes nothing. Other statuses, and events without lines (stored before they carried them), record nothing.
   */
  async recordDelivery(event: OrderStatusChangedEvent): Promise<number> {
    if (!event || event.status !== 'Delivered') return 0;
    if (!isObjectId(event.userId) || typeof event.orderId !== 'string' || !Array.isArray(event.items)) {
      this.logger.warn(`delivered order ${String(event.orderId)}: no customer or lines in the event; nothing recorded`);
      return 0;
    }
    const userId = event.userId.toLowerCase();
    const productIds = [
      ...new Set(
        event.items
          .map((i) => i?.productId)
          .filter(isObjectId)
          .map((id) => id.toLowerCase()),
      ),
    ];
    const deliveredAt = new Date(event.changedAt);
    let recorded = 0;
    for (const productId of productIds) {
      try {
        await this.deliveries.create({
          _id: deliveryKey(userId, productId),
          userId,
          productId,
          orderId: event.orderId,
          deliveredAt: Number.isNaN(deliveredAt.getTime()) ? new Date() : deliveredAt,
        });
        recorded++;
      } catch (err) {
        if (!isDuplicateKeyError(err)) throw err;
      }
    }
    return recorded;
  }

  // ------------------------------------------------------------------ customers

  /** 201 the review; 404 unknown or unpublished product; 403 before delivery; 409 a second review. */
  async create(productId: string, user: AuthUser, dto: CreateReviewDto): Promise<ReviewJson> {
    await this.assertPublished(productId);
    if (await this.reviews.exists({ key: reviewKey(productId, user.id) }).exec())
      throw new ConflictException(REVIEW_MESSAGES.alreadyReviewed);
    if (!(await this.wasDelivered(user.id, productId))) throw new ForbiddenException(REVIEW_MESSAGES.notDelivered);
    let created;
    try {
      created = await this.reviews.create({
        key: reviewKey(productId, user.id),
        productId,
        userId: user.id.toLowerCase(),
        author: reviewAuthor(user.name),
        rating: dto.rating,
        comment: dto.comment,
        hidden: false,
      });
    } catch (err) {
      // two posts at once: the unique key lets one through
      if (isDuplicateKeyError(err)) throw new ConflictException(REVIEW_MESSAGES.alreadyReviewed);
      throw err;
    }
    await this.recount(productId);
    return toReviewJson(created.toObject() as LeanReview);
  }

  /** Whether the caller may review the product now, and their review (shown to them even while hidden). */
  async mine(productId: string, user: AuthUser): Promise<MyReviewJson> {
    await this.assertPublished(productId);
    const review = await this.reviews
      .findOne({ key: reviewKey(productId, user.id) })
      .lean<LeanReview>()
      .exec();
    if (review) return { canReview: false, reason: 'reviewed', review: toReviewJson(review) };
    if (await this.wasDelivered(user.id, productId)) return { canReview: true, review: null };
    return { canReview: false, reason: 'not-delivered', review: null };
  }

  /** The product page's list: visible reviews, newest first, REVIEWS_PAGE_SIZE a page. */
  async listVisible(productId: string, page: number): Promise<ReviewPage<ReviewJson>> {
    await this.assertPublished(productId);
    const { items, total } = await this.page({ productId, hidden: false }, page);
    return { items: items.map(toReviewJson), total };
  }

  // ------------------------------------------------------------------ admins

  /** Every review (of one product when `productId` is given), hidden ones too, newest first. */
  async listAll(productId: string | undefined, page: number): Promise<ReviewPage<AdminReviewJson>> {
    const { items, total } = await this.page(productId ? { productId } : {}, page);
    return { items: items.map(toAdminReviewJson), total };
  }

  /** Hides or shows a review; the product's average and count follow at once. 404 for an unknown review. */
  async setHidden(id: string, hidden: boolean): Promise<AdminReviewJson> {
    const found = await this.reviews.findById(id, { productId: 1 }).lean<LeanReview>().exec();
    if (!found) throw new NotFoundException(REVIEW_MESSAGES.notFound);
    const productId = found.productId;
    // Under the product's lock, as every write that moves its rating: the recount then sees this write.
    const review = await this.locks.withProduct(productId, async () => {
      const doc = await this.reviews.findById(id).exec();
      if (!doc) throw new NotFoundException(REVIEW_MESSAGES.notFound);
      if (doc.hidden !== hidden) {
        doc.set('hidden', hidden);
        await doc.save();
      }
      await this.writeRating(productId);
      return doc.toObject() as LeanReview;
    });
    await this.cache.productsEdited([productId]);
    return toAdminReviewJson(review);
  }

  // ------------------------------------------------------------------ the product's rating

  /** Recomputes the product's rating and count from its visible reviews, under its lock, and tells the replicas. */
  async recount(productId: string): Promise<void> {
    if (await this.recountQuietly(productId)) await this.cache.productsEdited([productId]);
  }

  /** recount() without telling the replicas (a migration tells them once, at its end). False: no such product. */
  recountQuietly(productId: string): Promise<boolean> {
    return this.locks.withProduct(productId, () => this.writeRating(productId));
  }

  /** Under the product's lock: the average and count of its visible reviews, written to it. False: no product. */
  private async writeRating(productId: string): Promise<boolean> {
    // Summed here: FerretDB's $group answers 0 for `$sum: '$rating'` (measured), and a product's reviews are few.
    const visible = await this.reviews
      .find({ productId, hidden: false }, { rating: 1, _id: 0 })
      .lean<Array<{ rating: number }>>()
      .exec();
    const numReviews = visible.length;
    const rating = averageRating(
      visible.reduce((sum, r) => sum + r.rating, 0),
      numReviews,
    );
    // not an edit of the product: its updatedAt stays
    const result = await this.products
      .updateOne({ _id: productId }, { $set: { rating, numReviews } }, { timestamps: false })
      .exec();
    return result.matchedCount > 0;
  }

  // ------------------------------------------------------------------ helpers

  private async page(filter: Record<string, unknown>, page: number): Promise<ReviewPage<LeanReview>> {
    const [items, total] = await Promise.all([
      this.reviews
        .find(filter)
        .sort(NEWEST_FIRST)
        .skip((page - 1) * REVIEWS_PAGE_SIZE)
        .limit(REVIEWS_PAGE_SIZE)
        .lean<LeanReview[]>()
        .exec(),
      this.reviews.countDocuments(filter).exec(),
    ]);
    return { items, total };
  }

  private async wasDelivered(userId: string, productId: string): Promise<boolean> {
    return !!(await this.deliveries.exists({ _id: deliveryKey(userId, productId) }).exec());
  }

  private async assertPublished(productId: string): Promise<void> {
    if (!(await this.products.exists({ _id: productId, isPublished: true }).exec()))
      throw new NotFoundException(PRODUCT_NOT_FOUND);
  }
}
