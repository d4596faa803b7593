import { Inject, Injectable } from '@nestjs/common';
import { cartLockKey, newCart } from '../model';
import { Metrics, REDIS, withRedisLock, type Counter } from '@shop/nest-common';
import type Redis from 'ioredis';
import { CartConfig } from '../../config/cart.config';
import type { StoredCart } from '../cart.model';
import type { CartOwner, CartStore } from './cart-store';
import { MongoCartStore } from './mongo-cart.store';
import { RedisCartStore, type VersionedCart } from './redis-cart.store';

/** What a change does to a cart: returns the new cart, or undefined to leave it as it was (nothing written). */
export type CartChange = (cart: StoredCart, existed: boolean) => StoredCart | undefined;

export interface ChangedCart {
  cart: StoredCart;
  /** The change created the cart. */
  created: boolean;
}

/** A cart as read before a change, which the change may start from (a guest's: if it is still so). */
export type CartRead = VersionedCart;

/**
 * Every cart, whoever owns it: guests' in Redis, users' in MongoDB; the service never asks which.
 *
 * A change is a read-modify-write of the whole cart, and neither store makes that atomic by itself (FerretDB
 * applies no update operator atomically, PITFALLS §3.4; a Redis GET-then-SET races). A user's cart is changed
 * under its Redis lock. A guest's is changed optimistically: written by a compare-and-set only if it is still what
 * the change started from and no merge holds its lock, else read again and changed again — two Redis calls where
 * the lock takes five. Either way a double click, two tabs, a merge and an order event on one cart take turns and
 * lose nothing.
 */
@Injectable()
export class CartRepository {
  private readonly namespace: string;
  private readonly written: Counter<'owner'>;

  constructor(
    private readonly guests: RedisCartStore,
    private readonly users: MongoCartStore,
    @Inject(REDIS) private readonly redis: Redis,
    config: CartConfig,
    metrics: Metrics,
  ) {
    this.namespace = config.RABBITMQ_NAMESPACE;
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

  /** The cart as read to change it next: pass it to {@link change}, which then need not read it again. */
  async readForChange(owner: CartOwner): Promise<CartRead> {
    if (owner.kind === 'guest') return this.guests.loadVersioned(owner.id);
    return { cart: await this.users.load(owner.id), raw: null };
  }

  private lockKey(owner: CartOwner): string {
    return cartLockKey(this.namespace, owner);
  }

  /** Runs `fn` while holding the cart's lock (nest a guest's lock inside a user's, never the reverse). */
  locked<T>(owner: CartOwner, fn: () => Promise<T>): Promise<T> {
    return withRedisLock(this.redis, this.lockKey(owner), fn);
  }

  /**
   * Applies `change` under the cart's lock; call inside `locked` for the same owner to compose steps. `read`: the
   * cart as read inside that same lock (readForChange), which then need not be read again.
   */
  async changeLocked(owner: CartOwner, change: CartChange, read?: CartRead): Promise<ChangedCart | undefined> {
    const store = this.store(owner);
    const current = read ? read.cart : await store.load(owner.id);
    const next = change(current ?? newCart(owner), current !== null);
    if (!next) return current ? { cart: current, created: false } : undefined;
    const saved = await store.save(owner.id, { ...next, updatedAt: new Date().toISOString() });
    this.written.inc({ owner: owner.kind });
    return { cart: saved, created: current === null };
  }

  /**
   * Applies `change` to the cart, safely against every other writer. `from`: the cart as this request already read
   * it (readForChange), which a guest change starts from. `change` may run more than once, on newer carts.
   */
  change(owner: CartOwner, change: CartChange, from?: CartRead): Promise<ChangedCart | undefined> {
    if (owner.kind === 'user') return this.locked(owner, () => this.changeLocked(owner, change));
    return this.changeGuest(owner, change, from);
  }

  private async changeGuest(
    owner: CartOwner,
    change: CartChange,
    from: CartRead | undefined,
  ): Promise<ChangedCart | undefined> {
    let current = from ?? (await this.guests.loadVersioned(owner.id));
    for (;;) {
      const next = change(current.cart ?? newCart(owner), current.cart !== null);
      if (!next) return current.cart ? { cart: current.cart, created: false } : undefined;
      const saved = { ...next, updatedAt: new Date().toISOString() };
      const outcome = await this.guests.saveIfUnchanged(owner.id, current.raw, saved, this.lockKey(owner));
      if (outcome === 'saved') {
        this.written.inc({ owner: owner.kind });
        return { cart: saved, created: current.cart === null };
      }
      // Another change got in first: start again from it, at once (each lost round is someone else's write).
      // A merge holds the cart: wait for its lock to be free (503 as any lock wait, if it never is), then again.
      if (outcome === 'locked') await this.locked(owner, async () => undefined);
      current = await this.guests.loadVersioned(owner.id);
    }
  }

  remove(owner: CartOwner): Promise<void> {
    return this.store(owner).remove(owner.id);
  }
}
