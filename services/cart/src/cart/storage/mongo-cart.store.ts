import { Injectable, OnModuleInit } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { indexesBuilt } from '@shop/nest-common';
import type { Model } from 'mongoose';
import type { StoredCart } from '../cart.model';
import type { CartStore } from './cart-store';
import { UserCart } from './user-cart.schema';

interface LeanUserCart extends Omit<StoredCart, '_id' | 'createdAt' | 'updatedAt'> {
  _id: unknown;
  createdAt: Date;
  updatedAt: Date;
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

/** Users' carts: one MongoDB document per user, keyed by a unique `user`. */
@Injectable()
export class MongoCartStore implements CartStore, OnModuleInit {
  constructor(@InjectModel(UserCart.name) private readonly carts: Model<UserCart>) {}

  /** The unique index on `user` must exist before the first upsert relies on it. */
  async onModuleInit(): Promise<void> {
    await indexesBuilt([this.carts]);
  }

  async load(userId: string): Promise<StoredCart | null> {
    const doc = await this.carts.findOne({ user: userId }).lean<LeanUserCart>().exec();
    return doc ? toStored(doc) : null;
  }

  async save(userId: string, cart: StoredCart): Promise<StoredCart> {
    const doc = await this.carts
      .findOneAndUpdate(
        { user: userId },
        { $set: { lines: cart.lines, mergedCarts: cart.mergedCarts, appliedOrders: cart.appliedOrders } },
        { upsert: true, new: true },
      )
      .lean<LeanUserCart>()
      .exec();
    return toStored(doc!);
  }

  async remove(userId: string): Promise<void> {
    await this.carts.deleteOne({ user: userId }).exec();
  }
}
