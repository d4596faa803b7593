import { Inject, Injectable } from '@nestjs/common';
import { Metrics, REDIS, withRedisLock, type Counter } from '@shop/nest-common';
import type Redis from 'ioredis';
import { randomUUID } from 'node:crypto';
import { CartConfig } from '../../config/cart.config';
import { emptyCart, type StoredCart } from '../cart.model';
import type { CartOwner, CartStore } from './cart-store';
import { MongoCartStore } from './mongo-cart.store';
import { RedisCartStore } from './redis-cart.store';

/** What a change does to a cart: returns the new cart, or undefined to leave it as it was (nothing written). */
export type CartChange = (cart: StoredCart, existed: boolean) => StoredCart | undefined;

export interface ChangedCart {
  cart: StoredCart;
  /** The change created the cart. */
  created: boolean;
}

/**
 * Every cart, whoever owns it: guests' in Redis, users' in MongoDB; the service never asks which.
 *
 * A change is a read-modify-write of the whole cart under that cart's Redis lock. Neither store can do
 * it atomically on its own (FerretDB applies no update operator atomically, PITFALLS §3.4; a Redis
 * GET-then-SET races), and with the lock a double click, two tabs, a merge and an order event on one
 * cart take turns and lose nothing.
 */
@Injectable()
export class CartRepository {
  private readonly lockPrefix: string;
  private readonly written: Counter<'owner'>;

  constructor(
    private readonly guests: RedisCartStore,
    private readonly users: MongoCartStore,
    @Inject(REDIS) private readonly redis: Redis,
    config: CartConfig,
    metrics: Metrics,
  ) {
    this.lockPrefix = `${config.RABBITMQ_NAMESPACE}cart:lock:`;
    this.written = metrics.counter(
      'shop_carts_written_total',
      'Carts saved (every change that was written), by owner: guest or user',
      ['owner'],
    );
  }

  private store(owner: CartOwner): CartStore {
    return owner.kind === 'user' ? this.users : this.guests;
  }

  read(owner: CartOwner): Promise<StoredCart | null> {
    return this.store(owner).load(owner.id);
  }

  /** Runs `fn` while holding the cart's lock (nest a guest's lock inside a user's, never the reverse). */
  locked<T>(owner: CartOwner, fn: () => Promise<T>): Promise<T> {
    return withRedisLock(this.redis, `${this.lockPrefix}${owner.kind}:${owner.id}`, fn);
  }

  /** Applies `change` under the cart's lock; call inside `locked` for the same owner to compose steps. */
  async changeLocked(owner: CartOwner, change: CartChange): Promise<ChangedCart | undefined> {
    const store = this.store(owner);
    const current = await store.load(owner.id);
    const base = current ?? { ...emptyCart(), ...(owner.kind === 'guest' ? { cartId: randomUUID() } : {}) };
    const next = change(base, current !== null);
    if (!next) return current ? { cart: current, created: false } : undefined;
    const saved = await store.save(owner.id, { ...next, updatedAt: new Date().toISOString() });
    this.written.inc({ owner: owner.kind });
    return { cart: saved, created: current === null };
  }

  change(owner: CartOwner, change: CartChange): Promise<ChangedCart | undefined> {
    return this.locked(owner, () => this.changeLocked(owner, change));
  }

  remove(owner: CartOwner): Promise<void> {
    return this.store(owner).remove(owner.id);
  }
}
