import { Injectable, OnModuleInit } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { indexesBuilt, isDuplicateKeyError } from '@shop/nest-common';
import type { Model } from 'mongoose';
import type { StoredCart } from '../cart.model';
import type { CartStore } from './cart-store';
import { UserCart } from './user-cart.schema';

interface LeanUserCart extends Omit<StoredCart, '_id' | 'createdAt' | 'updatedAt'> {
  _id: unknown;
  version?: number;
  createdAt: Date;
  updatedAt: Date;
}

/**
 * A user's cart as read, with what a compare-and-set compares: `version` (undefined for a cart written before
 * versions); `cart` null when the user has none.
 */
export interface VersionedUserCart {
  cart: StoredCart | null;
  version?: number;
}

function toStored(doc: LeanUserCart): StoredCart {
  return {
    _id: String(doc._id),
    lines: doc.lines.map(({ productId, size, color, quantity }) => ({ productId, size, color, quantity })),
    mergedCarts: doc.mergedCarts ?? [],
    appliedOrders: doc.appliedOrders ?? [],
    createdAt: doc.createdAt.toISOString(),
    updatedAt: doc.updatedAt.toISOString(),
  };
}

/**
 * Users' carts: one MongoDB document per user, keyed by a unique `user`, with a `version` that each write raises: a
 * change is written only if the cart is still the version it was made from (one conditional update, which MongoDB
 * applies atomically), else the caller reads it again and changes it again.
 */
@Injectable()
export class MongoCartStore implements CartStore, OnModuleInit {
  constructor(@InjectModel(UserCart.name) private readonly carts: Model<UserCart>) {}

  /** The unique index on `user` must exist before the first upsert relies on it. */
  async onModuleInit(): Promise<void> {
    await indexesBuilt([this.carts]);
  }

  async load(userId: string): Promise<StoredCart | null> {
    return (await this.loadVersioned(userId)).cart;
  }

  async loadVersioned(userId: string): Promise<VersionedUserCart> {
    const doc = await this.carts.findOne({ user: userId }).lean<LeanUserCart>().exec();
    return doc ? { cart: toStored(doc), version: doc.version } : { cart: null };
  }

  /**
   * Writes `cart` only if the stored one is still `from` (no cart: none is stored yet); resolves to the cart as
   * stored, or null when another write got in first.
   */
  async saveIfUnchanged(userId: string, from: VersionedUserCart, cart: StoredCart): Promise<StoredCart | null> {
    const fields = { lines: cart.lines, mergedCarts: cart.mergedCarts, appliedOrders: cart.appliedOrders };
    if (!from.cart) {
      try {
        const created = await this.carts.create({ user: userId, ...fields, version: 1 });
        return toStored(created.toObject<LeanUserCart>());
      } catch (err) {
        if (isDuplicateKeyError(err)) return null; // another request made the cart first
        throw err;
      }
    }
    const doc = await this.carts
      .findOneAndUpdate(
        { user: userId, version: from.version ?? { $exists: false } },
        { $set: fields, $inc: { version: 1 } },
        { new: true },
      )
      .lean<LeanUserCart>()
      .exec();
    return doc ? toStored(doc) : null;
  }

  async remove(userId: string): Promise<void> {
    await this.carts.deleteOne({ user: userId }).exec();
  }
}
