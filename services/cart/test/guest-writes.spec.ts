// Guest carts are changed by compare-and-set (CartRepository.change), on the real Redis: a change that another
// write overtook is redone on the newer cart, a merge's lock holds every change back until it is done, and many
// changes at once all land.
import { Metrics } from '@shop/nest-common';
import { uniqueSuffix } from '@shop/nest-common/testing';
import Redis from 'ioredis';
import { emptyCart, type StoredCart } from '../src/cart/cart.model';
import { CartRepository, type CartChange } from '../src/cart/storage/cart.repository';
import type { MongoCartStore } from '../src/cart/storage/mongo-cart.store';
import { RedisCartStore } from '../src/cart/storage/redis-cart.store';
import { CartConfig } from '../src/config/cart.config';

describe('guest cart writes (compare-and-set on Redis)', () => {
  const redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
  const config = Object.assign(new CartConfig(), { RABBITMQ_NAMESPACE: `t${uniqueSuffix()}.` });
  const guests = new RedisCartStore(redis, config);
  // Guest carts never touch MongoDB.
  const carts = new CartRepository(guests, {} as MongoCartStore, redis, config, new Metrics('cart'));
  const guest = () => ({ kind: 'guest' as const, id: `guest_w${uniqueSuffix()}` });

  afterAll(async () => {
    const keys = await redis.keys(`${config.RABBITMQ_NAMESPACE}cart:*`);
    if (keys.length) await redis.del(...keys);
    await redis.quit();
  });

  /** Adds one of product `p` (its line's quantity + 1). */
  const addOne =
    (p: string): CartChange =>
    (cart) => {
      const line = cart.lines.find((l) => l.productId === p);
      const lines = line
        ? cart.lines.map((l) => (l === line ? { ...l, quantity: l.quantity + 1 } : l))
        : [...cart.lines, { productId: p, size: '', color: '', quantity: 1 }];
      return { ...cart, lines };
    };
  const stored = async (id: string) => JSON.parse((await redis.get(guests.key(id)))!) as StoredCart;

  it('creates the cart with an id and the expiry, and says it created it', async () => {
    const owner = guest();
    const first = await carts.change(owner, addOne('a'));
    expect(first).toMatchObject({ created: true, cart: { lines: [{ productId: 'a', quantity: 1 }] } });
    expect(first!.cart.cartId).toMatch(/^[0-9a-f-]{36}$/);
    expect(await redis.ttl(guests.key(owner.id))).toBeGreaterThan(config.GUEST_CART_TTL_SECONDS - 5);
    expect((await carts.change(owner, addOne('a')))!.created).toBe(false);
    expect((await stored(owner.id)).lines).toEqual([{ productId: 'a', size: '', color: '', quantity: 2 }]);
  });

  it('redoes a change on the newer cart when another write got in after it was read', async () => {
    const owner = guest();
    await carts.change(owner, addOne('a'));
    const seen = await carts.readForChange(owner);
    // Another request writes in between (as a second tab would).
    await carts.change(owner, addOne('b'));
    const calls: StoredCart[] = [];
    const result = await carts.change(
      owner,
      (cart, existed) => {
        calls.push(cart);
        return addOne('a')(cart, existed);
      },
      seen,
    );
    expect(calls).toHaveLength(2); // once on the stale read (refused by Redis), once on the newer cart
    expect(result!.cart.lines.map((l) => [l.productId, l.quantity])).toEqual([
      ['a', 2],
      ['b', 1],
    ]);
    expect((await stored(owner.id)).lines).toEqual(result!.cart.lines);
  });

  it('writes nothing while a merge holds the cart, then applies the change to what the merge left', async () => {
    const owner = guest();
    await carts.change(owner, addOne('a'));
    let merged = false;
    const merge = carts.locked(owner, async () => {
      await new Promise((resolve) => setTimeout(resolve, 150));
      await carts.remove(owner); // what a merge does with the guest cart it took
      merged = true;
    });
    await new Promise((resolve) => setTimeout(resolve, 20)); // the merge has the lock
    const added = await carts.change(owner, addOne('b'));
    await merge;
    expect(merged).toBe(true);
    // Not written into the cart the merge took (the line would be lost with it): a new cart after the merge.
    expect(added).toMatchObject({ created: true, cart: { lines: [{ productId: 'b', quantity: 1 }] } });
    expect((await stored(owner.id)).lines).toEqual([{ productId: 'b', size: '', color: '', quantity: 1 }]);
  });

  it('loses none of 30 concurrent changes to one cart', async () => {
    const owner = guest();
    const results = await Promise.all(Array.from({ length: 30 }, () => carts.change(owner, addOne('a'))));
    expect(results.filter((r) => r!.created)).toHaveLength(1);
    expect((await stored(owner.id)).lines).toEqual([{ productId: 'a', size: '', color: '', quantity: 30 }]);
  });

  it('changes nothing when the change says so', async () => {
    const owner = guest();
    expect(await carts.change(owner, () => undefined)).toBeUndefined();
    expect(await redis.exists(guests.key(owner.id))).toBe(0);
    await redis.set(guests.key(owner.id), JSON.stringify({ ...emptyCart(), cartId: 'c1' }));
    const kept = await carts.change(owner, () => undefined);
    expect(kept).toMatchObject({ created: false, cart: { cartId: 'c1' } });
  });
});
