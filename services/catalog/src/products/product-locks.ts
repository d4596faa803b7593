import { Inject, Injectable } from '@nestjs/common';
import { InjectConnection } from '@nestjs/mongoose';
import { assertDatabaseReachable, REDIS, withRedisLock } from '@shop/nest-common';
import type Redis from 'ioredis';
import type { Connection } from 'mongoose';
import { CatalogConfig } from '../config/catalog.config';

/**
 * One Redis lock per product. Every write to a product document (admin edit, stock change, sale)
 * runs inside it: FerretDB applies no update operator atomically, so two unserialised writers would
 * lose each other's changes or sell the last unit twice (PITFALLS §3.4).
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
