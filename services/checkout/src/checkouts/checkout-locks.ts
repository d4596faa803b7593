import { Inject, Injectable } from '@nestjs/common';
import { REDIS, withRedisLock } from '@shop/nest-common';
import type Redis from 'ioredis';
import { CheckoutConfig } from '../config/checkout.config';

/**
 * A checkout's Redis lock: one pay of a checkout at a time (a double click asks PayPal once), shared with the sweeper
 * of claimed payments and the refund of a cancelled order. What it guards is also held by conditional writes (paid
 * only if unpaid, one payment per PayPal order, one refund per payment), so a lock that expires under a stalled
 * holder costs a second PayPal call, never money. `runKey` serves other keys (the newsletter's welcome code).
 */
@Injectable()
export class CheckoutLocks {
  constructor(
    @Inject(REDIS) private readonly redis: Redis,
    private readonly config: CheckoutConfig,
  ) {}

  /** Waits as long as the slowest holder may take: PayPal's get and refund, and two catalog requests. */
  run<T>(checkoutId: string, fn: () => Promise<T>): Promise<T> {
    const { PAYPAL_TIMEOUT_MS, RESERVE_TIMEOUT_MS } = this.config;
    const ttlMs = 2 * PAYPAL_TIMEOUT_MS + 2 * RESERVE_TIMEOUT_MS + 5000;
    return withRedisLock(this.redis, this.key(checkoutId), fn, { ttlMs, waitMs: ttlMs });
  }

  /** Only if nobody holds it within `waitMs` (a 503 otherwise): for work that may be left to the next try. */
  tryRun<T>(checkoutId: string, fn: () => Promise<T>, waitMs = 50): Promise<T> {
    const { PAYPAL_TIMEOUT_MS, RESERVE_TIMEOUT_MS } = this.config;
    const ttlMs = 2 * PAYPAL_TIMEOUT_MS + 2 * RESERVE_TIMEOUT_MS + 5000;
    return withRedisLock(this.redis, this.key(checkoutId), fn, { ttlMs, waitMs });
  }

  /** Any other key of this service (e.g. a welcome code's address), under the same namespace. */
  runKey<T>(key: string, fn: () => Promise<T>): Promise<T> {
    return withRedisLock(this.redis, `${this.config.RABBITMQ_NAMESPACE}checkout:${key}`, fn);
  }

  private key(checkoutId: string): string {
    return `${this.config.RABBITMQ_NAMESPACE}checkout:lock:${checkoutId}`;
  }
}
