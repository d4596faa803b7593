import { Inject, Injectable } from '@nestjs/common';
import { GUEST_CART_COMPARE_AND_SET, guestCartKey, parseStoredCart, type CompareAndSetOutcome } from '../model';
import { REDIS } from '@shop/nest-common';
import type Redis from 'ioredis';
import { CartConfig } from '../../config/cart.config';
import type { StoredCart } from '../cart.model';
import type { CartStore } from './cart-store';

/** A guest cart as read, with the exact string it was stored as: what a compare-and-set compares. */
export interface VersionedCart {
  cart: StoredCart | null;
  raw: string | null;
}

type WithCompareAndSet = Redis & {
  cartCompareAndSet(cart: string, lock: string, expected: string, next: string, ttl: number): Promise<string>;
};

/**
 * Guest carts: one JSON string per cart in Redis, written with its expiry each time (`SET … EX`), so a
 * cart lives GUEST_CART_TTL_SECONDS after its last change and no database keeps abandoned guest carts.
 */
@Injectable()
export class RedisCartStore implements CartStore {
  private readonly namespace: string;
  private readonly ttlSeconds: number;
  private readonly redis: WithCompareAndSet;

  constructor(@Inject(REDIS) redis: Redis, config: CartConfig) {
    this.namespace = config.RABBITMQ_NAMESPACE;
    this.ttlSeconds = config.GUEST_CART_TTL_SECONDS;
    // Sent as EVALSHA (EVAL the first time Redis does not know it).
    redis.defineCommand('cartCompareAndSet', { numberOfKeys: 2, lua: GUEST_CART_COMPARE_AND_SET });
    this.redis = redis as WithCompareAndSet;
  }

  key(guestId: string): string {
    return guestCartKey(this.namespace, guestId);
  }

  async load(guestId: string): Promise<StoredCart | null> {
    return (await this.loadVersioned(guestId)).cart;
  }

  async loadVersioned(guestId: string): Promise<VersionedCart> {
    const raw = await this.redis.get(this.key(guestId));
    return { cart: raw ? parseStoredCart(raw) : null, raw };
  }

  /** Writes `cart` only if the stored one is still `expected` (null: none) and `lockKey` is free. */
  async saveIfUnchanged(
    guestId: string,
    expected: string | null,
    cart: StoredCart,
    lockKey: string,
  ): Promise<CompareAndSetOutcome> {
    const outcome = await this.redis.cartCompareAndSet(
      this.key(guestId),
      lockKey,
      expected ?? '',
      JSON.stringify(cart),
      this.ttlSeconds,
    );
    return outcome as CompareAndSetOutcome;
  }

  async remove(guestId: string): Promise<void> {
    await this.redis.del(this.key(guestId));
  }
}
