import { Inject, Injectable, OnModuleInit, ServiceUnavailableException } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { REDIS, indexesBuilt, isDuplicateKeyError } from '@shop/nest-common';
import type Redis from 'ioredis';
import type { Model } from 'mongoose';
import type { CartOwner } from '../cart/storage/cart-store';
import { CartConfig } from '../config/cart.config';
import { newWishlist, type StoredWishlist } from './wishlist.model';
import { UserWishlist } from './wishlist.schema';

/** The Redis key of a guest's wishlist: the deployment's namespace (RABBITMQ_NAMESPACE), then this, then the guest id. */
export function guestWishlistKey(namespace: string, guestId: string): string {
  return `${namespace}wishlist:guest:${guestId}`;
}

/**
 * Writes a guest wishlist (KEYS[1]) only if it still holds ARGV[1] ('' = none): ARGV[2] with its expiry (ARGV[3]
 * seconds), or deletes it when ARGV[2] is ''. One script, so nothing comes between the check and the write.
 * Answers 'saved' or 'changed' (read it again, change it again).
 */
export const GUEST_WISHLIST_COMPARE_AND_SET = `
if (redis.call('get', KEYS[1]) or '') ~= ARGV[1] then return 'changed' end
if ARGV[2] == '' then redis.call('del', KEYS[1]) else redis.call('set', KEYS[1], ARGV[2], 'EX', ARGV[3]) end
return 'saved'`;

type WithCompareAndSet = Redis & {
  wishlistCompareAndSet(key: string, expected: string, next: string, ttl: number): Promise<string>;
};

/** A wishlist as read, with what its compare-and-set compares: a guest's stored string, a user's version. */
export interface WishlistRead {
  list: StoredWishlist | null;
  raw?: string | null;
  version?: number;
}

/** What a change does to a wishlist: the new list, or undefined to leave it as it is (nothing written). */
export type WishlistChange = (list: StoredWishlist, existed: boolean) => StoredWishlist | undefined;

interface LeanUserWishlist {
  items: Array<{ productId: string; addedAt: string }>;
  version: number;
  createdAt: Date;
  updatedAt: Date;
}

const MAX_ROUNDS = 50;

/**
 * Every wishlist, whoever owns it, stored as the cart is: a guest's as one JSON string in Redis with the guest cart's
 * sliding expiry (GUEST_CART_TTL_SECONDS), a user's as one MongoDB document. A change is a read-modify-write of the
 * whole list, written by a compare-and-set (a guest's string still the one read: a Lua script; a user's document
 * still at the version read: one conditional update), else read again and changed again — so a double click, two tabs
 * and a merge lose nothing, and no lock is taken.
 */
@Injectable()
export class WishlistRepository implements OnModuleInit {
  private readonly namespace: string;
  private readonly ttlSeconds: number;
  private readonly redis: WithCompareAndSet;

  constructor(
    @InjectModel(UserWishlist.name) private readonly lists: Model<UserWishlist>,
    @Inject(REDIS) redis: Redis,
    config: CartConfig,
  ) {
    this.namespace = config.RABBITMQ_NAMESPACE;
    this.ttlSeconds = config.GUEST_CART_TTL_SECONDS;
    redis.defineCommand('wishlistCompareAndSet', { numberOfKeys: 1, lua: GUEST_WISHLIST_COMPARE_AND_SET });
    this.redis = redis as WithCompareAndSet;
  }

  /** The unique index on `user` must exist before the first insert relies on it. */
  async onModuleInit(): Promise<void> {
    await indexesBuilt([this.lists]);
  }

  async read(owner: CartOwner): Promise<WishlistRead> {
    if (owner.kind === 'guest') {
      const raw = await this.redis.get(guestWishlistKey(this.namespace, owner.id));
      return { list: raw ? (JSON.parse(raw) as StoredWishlist) : null, raw };
    }
    const doc = await this.lists.findOne({ user: owner.id }).lean<LeanUserWishlist>().exec();
    if (!doc) return { list: null };
    return {
      list: {
        items: doc.items.map(({ productId, addedAt }) => ({ productId, addedAt })),
        createdAt: doc.createdAt.toISOString(),
        updatedAt: doc.updatedAt.toISOString(),
      },
      version: doc.version,
    };
  }

  /**
   * Applies `change` safely against every other writer; it may run more than once, on newer lists (each lost round
   * is another writer's change landed). Resolves to the list as it now is (null: there is none).
   */
  async change(owner: CartOwner, change: WishlistChange, from?: WishlistRead): Promise<StoredWishlist | null> {
    let current = from ?? (await this.read(owner));
    for (let round = 0; round < MAX_ROUNDS; round++) {
      const next = change(current.list ?? newWishlist(), current.list !== null);
      if (!next) return current.list;
      const written = { ...next, updatedAt: new Date().toISOString() };
      if (await this.saveIfUnchanged(owner, current, written)) return written;
      current = await this.read(owner);
    }
    throw new ServiceUnavailableException('The wishlist is changing: try again');
  }

  /** Deletes a guest's list only if it is still the one read (raw); false when it changed meanwhile. */
  async removeGuestIfUnchanged(guestId: string, raw: string): Promise<boolean> {
    const key = guestWishlistKey(this.namespace, guestId);
    return (await this.redis.wishlistCompareAndSet(key, raw, '', this.ttlSeconds)) === 'saved';
  }

  /** identity.user.deleted: the user's wishlist goes with them. */
  async removeUser(userId: string): Promise<void> {
    await this.lists.deleteOne({ user: userId }).exec();
  }

  private async saveIfUnchanged(owner: CartOwner, from: WishlistRead, list: StoredWishlist): Promise<boolean> {
    if (owner.kind === 'guest') {
      const key = guestWishlistKey(this.namespace, owner.id);
      const outcome = await this.redis.wishlistCompareAndSet(
        key,
        from.raw ?? '',
        JSON.stringify(list),
        this.ttlSeconds,
      );
      return outcome === 'saved';
    }
    if (!from.list) {
      try {
        await this.lists.create({ user: owner.id, items: list.items, version: 1 });
        return true;
      } catch (err) {
        if (isDuplicateKeyError(err)) return false; // another request made the list first
        throw err;
      }
    }
    const { modifiedCount } = await this.lists
      .updateOne({ user: owner.id, version: from.version }, { $set: { items: list.items }, $inc: { version: 1 } })
      .exec();
    return modifiedCount === 1;
  }
}
