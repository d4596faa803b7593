import { Inject, Injectable } from '@nestjs/common';
import { REDIS } from '@shop/nest-common';
import type Redis from 'ioredis';
import { CartConfig } from '../../config/cart.config';
import type { StoredCart } from '../cart.model';
import type { CartStore } from './cart-store';

/**
 * Guest carts: one JSON string per cart in Redis, written with its expiry each time (`SET … EX`), so a
 * cart lives GUEST_CART_TTL_SECONDS after its last change and no database keeps abandoned guest carts.
 */
@Injectable()
export class RedisCartStore implements CartStore {
  private readonly prefix: string;
  private readonly ttlSeconds: number;

  constructor(
    @Inject(REDIS) private readonly redis: Redis,
    config: CartConfig,
  ) {
    this.prefix = `${config.RABBITMQ_NAMESPACE}cart:guest:`;
    this.ttlSeconds = config.GUEST_CART_TTL_SECONDS;
  }

  key(guestId: string): string {
    return this.prefix + guestId;
  }

  async load(guestId: string): Promise<StoredCart | null> {
    const raw = await this.redis.get(this.key(guestId));
    return raw ? (JSON.parse(raw) as StoredCart) : null;
  }

  async save(guestId: string, cart: StoredCart): Promise<StoredCart> {
    await this.redis.set(this.key(guestId), JSON.stringify(cart), 'EX', this.ttlSeconds);
    return cart;
  }

  async remove(guestId: string): Promise<void> {
    await this.redis.del(this.key(guestId));
  }
}
