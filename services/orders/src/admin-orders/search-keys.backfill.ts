import { Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import type { Model } from 'mongoose';
import { OrderLocks } from '../orders/order-locks';
import { customerKeys, Order, REPLACED_ORDER_INDEXES, type LeanOrder } from '../orders/order.schema';

/**
 * The admin's search, brought up to date at each start, in the background (the service is ready meanwhile): the
 * search indexes an earlier version declared are dropped, and orders placed before the search get its lower-cased
 * buyer fields (customerName, customerEmail; those orders are found once it is done). Each order is written under its
 * lock, as an admin's status change is. Idempotent: a second run, or two replicas at once, write the same values.
 */
@Injectable()
export class SearchKeysBackfill implements OnApplicationBootstrap {
  private readonly logger = new Logger(SearchKeysBackfill.name);
  /** The run started at bootstrap (tests await it). */
  done: Promise<number> = Promise.resolve(0);

  constructor(
    @InjectModel(Order.name) private readonly orders: Model<Order>,
    private readonly locks: OrderLocks,
  ) {}

  onApplicationBootstrap(): void {
    this.done = this.dropReplacedIndexes()
      .then(() => this.run())
      .catch((err: Error) => {
        this.logger.warn({ msg: 'search keys not backfilled: retried at the next start', err: err.message });
        return 0;
      });
  }

  /**
   * Drops the search indexes an earlier version declared (REPLACED_ORDER_INDEXES), where they exist: mongoose creates
   * declared indexes but drops none. The new ones serve every query the old ones did, so replicas of the earlier
   * version, during a rollout, lose nothing.
   */
  async dropReplacedIndexes(): Promise<string[]> {
    const existing = new Set((await this.orders.collection.indexes()).map((index) => index.name));
    const dropped = REPLACED_ORDER_INDEXES.filter((name) => existing.has(name));
    for (const name of dropped) {
      await this.orders.collection.dropIndex(name).catch((err: { codeName?: string }) => {
        if (err.codeName !== 'IndexNotFound') throw err; // another replica dropped it first
      });
    }
    if (dropped.length) this.logger.log({ msg: 'replaced search indexes dropped', indexes: dropped });
    return dropped;
  }

  /** Adds the keys to every order without them; resolves with how many it wrote. */
  async run(): Promise<number> {
    // `null` matches a missing field too, and is a seek in the search index on customerName on both servers; the dev
    // server cannot serve `$exists: false` from an index and read every order at each start (a time-out at 100,000).
    const cursor = this.orders
      .find({ customerName: null }, { user: 1 })
      .lean<Pick<LeanOrder, '_id' | 'user'>>()
      .cursor({ batchSize: 500 });
    let written = 0;
    try {
      for await (const order of cursor) {
        const id = String(order._id);
        await this.locks.withOrder(id, async () => {
          await this.orders.updateOne({ _id: order._id }, { $set: customerKeys(order.user) }).exec();
        });
        written += 1;
      }
    } finally {
      await cursor.close().catch(() => undefined);
    }
    if (written) this.logger.log({ msg: 'search keys backfilled', orders: written });
    return written;
  }
}
