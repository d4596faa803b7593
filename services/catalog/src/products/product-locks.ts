import { Inject, Injectable } from '@nestjs/common';
import { InjectConnection } from '@nestjs/mongoose';
import { assertDatabaseReachable, REDIS, withRedisLock } from '@shop/nest-common';
import type Redis from 'ioredis';
import type { Connection } from 'mongoose';
import { CatalogConfig } from '../config/catalog.config';

/**
 * One Redis lock per product, for the writes one document cannot decide by itself: an admin edit (it claims and
 * releases variant SKUs in their register around the product's write), a review's rating (computed from the
 * reviews) and the variants migration. Stock takes no lock: each of its changes is one conditional write of the
 * product (stock/), and an admin edit writes only over the stockVersion it read, so an expired lock cannot make a
 * second writer lose a hold or a sale.
 */
@Injectable()
export class ProductLocks {
  private readonly prefix: string;

  constructor(
    @Inject(REDIS) private readonly redis: Redis,
    @InjectConnection() private readonly connection: Connection,
    config: CatalogConfig,
  ) {
    this.prefix = `${config.RABBITMQ_NAMESPACE}catalog:lock:product:`;
  }

  withProduct<T>(productId: string, fn: () => Promise<T>): Promise<T> {
    return withRedisLock(this.redis, this.prefix + productId, fn, {
      ttlMs: 15_000,
      waitMs: 15_000,
      // Every holder writes the product: in an outage, a caller fails at once rather than after those queued before it.
      requires: () => assertDatabaseReachable(this.connection),
    });
  }

  /** Holds the locks of several products at once, taken in id order so two callers never deadlock. */
  withProducts<T>(productIds: string[], fn: () => Promise<T>): Promise<T> {
    const ids = [...new Set(productIds)].sort();
    const run = (i: number): Promise<T> => (i === ids.length ? fn() : this.withProduct(ids[i], () => run(i + 1)));
    return run(0);
  }
}
