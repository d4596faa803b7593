import { Inject, Injectable } from '@nestjs/common';
import { InjectConnection } from '@nestjs/mongoose';
import { assertDatabaseReachable, REDIS, withRedisLock } from '@shop/nest-common';
import type Redis from 'ioredis';
import type { Connection } from 'mongoose';
import { OrdersConfig } from '../config/orders.config';

/**
 * One Redis lock per order. Every write to an order after its insert (a status change, a removal) is a
 * read-modify-write inside it (the outbox relay marks events published by a conditional update, without it):
 * two unserialised read-modify-writes would lose each other's changes.
 */
@Injectable()
export class OrderLocks {
  private readonly prefix: string;

  constructor(
    @Inject(REDIS) private readonly redis: Redis,
    @InjectConnection() private readonly connection: Connection,
    config: OrdersConfig,
  ) {
    this.prefix = `${config.RABBITMQ_NAMESPACE}orders:order:`;
  }

  /** `ttlMs`: how long the lock lives if its holder dies, for holders that wait on others (a refund); default 10 s. */
  withOrder<T>(orderId: string, fn: () => Promise<T>, options: { ttlMs?: number } = {}): Promise<T> {
    // Every holder writes the order: in an outage, a caller fails at once rather than after those queued before it.
    return withRedisLock(this.redis, this.prefix + orderId, fn, {
      ...options,
      requires: () => assertDatabaseReachable(this.connection),
    });
  }
}
