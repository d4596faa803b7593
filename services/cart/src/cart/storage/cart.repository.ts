import { Inject, Injectable } from '@nestjs/common';
import { cartLockKey, newCart } from '../model';
import { Metrics, REDIS, withRedisLock, type Counter } from '@shop/nest-common';
import type Redis from 'ioredis';
import { CartConfig } from '../../config/cart.config';
import type { StoredCart } from '../cart.model';
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
 * A cart as read before a change, with what its compare-and-set compares: a guest's exact stored string (`raw`), a
 * user's `version`.
 */
export interface CartRead {
  cart: StoredCart | null;
  raw?: string | null;
  version?: number;
}

/**
 * Every cart, whoever owns it: guests' in Redis, users' in MongoDB; the service never asks which.
 *
 * A change is a read-modify-write of the whole cart, written by a compare-and-set: only if the cart is still what
 * the change started from — a user's document still at the version read (one conditional update, atomic in
 * MongoDB and in our FerretDB build), a guest's string still the one read and no merge holding its lock (a Lua
 * script) — else read again and changed again. A double click, two tabs, an order event and a merge on one cart
 * lose nothing, and no lock is taken. The one lock left is a merge's on the guest cart: taking a guest's lines into
 * the user's cart and deleting the guest cart are writes to two stores, which no single compare-and-set covers, so
 * guest changes wait while a merge holds it (CartService.merge).
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
  readForChange(owner: CartOwner): Promise<CartRead> {
    return owner.kind === 'guest' ? this.guests.loadVersioned(owner.id) : this.users.loadVersioned(owner.id);
  }

  private lockKey(owner: CartOwner): string {
    return cartLockKey(this.namespace, owner);
  }

  /** Runs `fn` while holding a guest cart's lock: its changes wait meanwhile (a merge taking the cart). */
  locked<T>(owner: CartOwner, fn: () => Promise<T>): Promise<T> {
    return withRedisLock(this.redis, this.lockKey(owner), fn);
  }

  /**
   * Applies `change` to the cart, safely against every other writer. `from`: the cart as this request already read
   * it (readForChange), which the change starts from. `change` may run more than once, on newer carts: each lost
   * round is another writer's change written.
   */
  async change(owner: CartOwner, change: CartChange, from?: CartRead): Promise<ChangedCart | undefined> {
    let current = from ?? (await this.readForChange(owner));
    for (;;) {
      const next = change(current.cart ?? newCart(owner), current.cart !== null);
      if (!next) return current.cart ? { cart: current.cart, created: false } : undefined;
      const saved = await this.saveIfUnchanged(owner, current, { ...next, updatedAt: new Date().toISOString() });
      if (saved) {
        this.written.inc({ owner: owner.kind });
        return { cart: saved, created: current.cart === null };
      }
      current = await this.readForChange(owner);
    }
  }

  /** The cart as written, or null when another write got in first (a merge's lock: once it is free). */
  private async saveIfUnchanged(owner: CartOwner, from: CartRead, cart: StoredCart): Promise<StoredCart | null> {
    if (owner.kind === 'user') return this.users.saveIfUnchanged(owner.id, from, cart);
    const outcome = await this.guests.saveIfUnchanged(owner.id, from.raw ?? null, cart, this.lockKey(owner));
    if (outcome === 'saved') return cart;
    // A merge holds the cart: wait for its lock to be free (503 as any lock wait, if it never is), then read again.
    if (outcome === 'locked') await this.locked(owner, async () => undefined);
    return null;
  }

  remove(owner: CartOwner): Promise<void> {
    return this.store(owner).remove(owner.id);
  }
}
