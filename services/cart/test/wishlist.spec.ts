// Wishlists on the real cart and catalog, MongoDB-wire server, Redis and RabbitMQ: a guest's list and a user's,
// the merge at sign-in (each product once, however often or concurrently it runs), whose list a request reaches
// (no one reads or changes another's), "Move to cart", the limit, and products the catalogue no longer sells.
import { EVENTS, MAX_WISHLIST_ITEMS, WISHLIST_MESSAGES, type WishlistJson } from '@shop/contracts';
import { getModelToken } from '@nestjs/mongoose';
import { request, waitFor } from '@shop/nest-common/testing';
import type { Model } from 'mongoose';
import { guestWishlistKey } from '../src/wishlist/wishlist.repository';
import { addProduct, newGuestId, newUserId, startShop, type Shop } from './cart.fixtures';

describe('wishlist', () => {
  let shop: Shop;
  let products: string[];
  beforeAll(async () => {
    shop = await startShop();
    products = [];
    for (let i = 0; i < 6; i++) products.push(await addProduct(shop, { price: 20 + i, countInStock: 5 }));
  }, 90_000);
  afterAll(() => shop?.close());

  const url = () => `${shop.cart.url}/api/wishlist`;
  const api = {
    get: (query: string, token?: string) => request<WishlistJson>(`${url()}?${query}`, { token }),
    save: (body: unknown, token?: string) => request<WishlistJson>(url(), { method: 'POST', body, token }),
    remove: (productId: string, query: string, token?: string) =>
      request<WishlistJson>(`${url()}/${productId}?${query}`, { method: 'DELETE', token }),
    move: (productId: string, body: unknown, token?: string) =>
      request(`${url()}/${productId}/move`, { method: 'POST', body, token }),
    merge: (body: unknown, token?: string) => request<WishlistJson>(`${url()}/merge`, { method: 'POST', body, token }),
  };
  const ids = (list: WishlistJson) => list.items.map((i) => i.productId).sort();
  const signedIn = () => {
    const id = newUserId();
    return { id, token: shop.cart.token({ id }) };
  };

  it('a guest saves, reads with current price and stock per size, saves again (once) and removes', async () => {
    const guestId = newGuestId();
    expect((await api.get(`guestId=${guestId}`)).body).toEqual({ guestId, items: [], count: 0, limit: 100 });
    const first = await api.save({ productId: products[0], guestId });
    expect(first.status).toBe(201);
    const again = await api.save({ productId: products[0], guestId });
    expect(again.status).toBe(200);
    expect(again.body.count).toBe(1);
    await api.save({ productId: products[1], guestId });
    const list = (await api.get(`guestId=${guestId}`)).body;
    expect(list.items.map((i) => i.productId)).toEqual([products[1], products[0]]); // newest first
    expect(list.items[1]).toMatchObject({ price: 20, countInStock: 30, sizes: ['S', 'M', 'L'] });
    expect(list.items[1].variants).toContainEqual(
      expect.objectContaining({ size: 'M', color: 'Green', countInStock: 5 }),
    );
    // kept in Redis with the guest cart's expiry
    expect(await shop.redis.ttl(guestWishlistKey(shop.cart.config.RABBITMQ_NAMESPACE, guestId))).toBeGreaterThan(0);
    const removed = await api.remove(products[0], `guestId=${guestId}`);
    expect(removed.status).toBe(200);
    expect(ids(removed.body)).toEqual([products[1]]);
    expect((await api.remove(products[0], `guestId=${guestId}`)).body.count).toBe(1); // removing again: nothing
  });

  it('refuses what it cannot keep: unknown product 404, bad ids and no owner 400, each with a message', async () => {
    const guestId = newGuestId();
    const unknown = await api.save({ productId: newUserId(), guestId });
    expect(unknown).toMatchObject({ status: 404, body: { message: WISHLIST_MESSAGES.productNotFound } });
    for (const [res, message] of [
      [await api.save({ productId: 'nope', guestId }), 'Invalid product id'],
      [await api.save({ productId: { $ne: 1 }, guestId }), 'Invalid product id'],
      [await api.save({ productId: products[0] }), 'guestId is required'],
      [await api.save({ productId: products[0], guestId: 'guest_bad id' }), 'Invalid guestId'],
      [await api.get('guestId=x'), 'Invalid guestId'],
      [await api.remove('zz', `guestId=${guestId}`), 'Invalid product id'],
      [await api.move(products[0], { guestId, quantity: 0 }), 'Quantity must be a whole number from 1 to 99'],
      [await api.merge({ guestId }), 'Not authorized, no token'],
    ] as const) {
      expect(res.status).toBeGreaterThanOrEqual(400);
      expect(res.status).toBeLessThan(500);
      expect((res.body as { message: string }).message).toBe(message);
    }
  });

  it('no one reads or changes another’s list', async () => {
    const alice = signedIn();
    const bob = signedIn();
    const guestId = newGuestId();
    await api.save({ productId: products[0] }, alice.token);
    await api.save({ productId: products[1], guestId });
    // another user's id beside a token: 403, for every route
    expect((await api.get(`userId=${alice.id}`, bob.token)).status).toBe(403);
    expect((await api.save({ productId: products[2], userId: alice.id }, bob.token)).status).toBe(403);
    expect((await api.remove(products[0], `userId=${alice.id}`, bob.token)).status).toBe(403);
    expect((await api.move(products[0], { userId: alice.id, size: 'M', color: 'Green' }, bob.token)).status).toBe(403);
    // a user id without a token: 401; a bad token: 401, never the guest list
    expect((await api.get(`userId=${alice.id}`)).status).toBe(401);
    expect((await api.get(`guestId=${guestId}`, 'not-a-token')).status).toBe(401);
    // a guest id beside a token reaches the token's list, never the guest's
    const bobs = await api.get(`guestId=${guestId}`, bob.token);
    expect(bobs.body).toMatchObject({ user: bob.id, count: 0 });
    await api.save({ productId: products[3], guestId }, bob.token);
    expect(ids((await api.get(`guestId=${guestId}`)).body)).toEqual([products[1]]);
    // Alice's list is as she left it
    expect(ids((await api.get('', alice.token)).body)).toEqual([products[0]]);
    expect(ids((await api.get('', bob.token)).body)).toEqual([products[3]]);
  });

  it('merges a guest list at sign-in: each product once, the guest list gone; again and concurrently: no change', async () => {
    const user = signedIn();
    const guestId = newGuestId();
    await api.save({ productId: products[1] }, user.token);
    await api.save({ productId: products[2] }, user.token);
    for (const p of [products[0], products[1]]) await api.save({ productId: p, guestId });
    const merged = await api.merge({ guestId, user: newUserId() }, user.token);
    expect(merged.status).toBe(200);
    expect(ids(merged.body)).toEqual([products[0], products[1], products[2]].sort());
    expect((await api.get(`guestId=${guestId}`)).body.count).toBe(0);
    // repeated, and five at once after the guest saved again
    expect(ids((await api.merge({ guestId }, user.token)).body)).toEqual(ids(merged.body));
    await api.save({ productId: products[0], guestId });
    await api.save({ productId: products[3], guestId });
    const racing = await Promise.all(Array.from({ length: 5 }, () => api.merge({ guestId }, user.token)));
    expect(racing.every((r) => r.status === 200)).toBe(true);
    const list = (await api.get('', user.token)).body;
    expect(ids(list)).toEqual([products[0], products[1], products[2], products[3]].sort());
    expect(new Set(list.items.map((i) => i.productId)).size).toBe(list.items.length);
    const lists = shop.cart.app.get<Model<{ user: string }>>(getModelToken('UserWishlist'));
    expect(await lists.countDocuments({ user: user.id }).exec()).toBe(1);
  });

  it('a merge racing the guest’s own saves loses none of them', async () => {
    const user = signedIn();
    const guestId = newGuestId();
    await api.save({ productId: products[0], guestId });
    await Promise.all([
      api.merge({ guestId }, user.token),
      ...products.slice(1, 5).map((productId) => api.save({ productId, guestId })),
    ]);
    await api.merge({ guestId }, user.token); // what the guest saved after the first merge comes in now
    expect(ids((await api.get('', user.token)).body)).toEqual(products.slice(0, 5).sort());
  });

  it('20 concurrent saves to one user’s list: all 20, one document', async () => {
    const many: string[] = [];
    for (let i = 0; i < 20; i++) many.push(await addProduct(shop));
    const user = signedIn();
    const saved = await Promise.all(many.map((productId) => api.save({ productId }, user.token)));
    expect(saved.every((r) => r.status === 201)).toBe(true);
    expect(ids((await api.get('', user.token)).body)).toEqual([...many].sort());
  });

  it('moves a product to the cart in the size and colour chosen, then it leaves the wishlist', async () => {
    const guestId = newGuestId();
    await api.save({ productId: products[4], guestId });
    const notOffered = await api.move(products[4], { guestId, size: 'XXL', color: 'Green' });
    expect(notOffered.status).toBe(400);
    expect((await api.get(`guestId=${guestId}`)).body.count).toBe(1); // nothing moved
    const tooMany = await api.move(products[4], { guestId, size: 'M', color: 'Green', quantity: 6 });
    expect(tooMany).toMatchObject({ status: 409, body: { message: 'Only 5 left in stock' } });
    const moved = await api.move(products[4], { guestId, size: 'M', color: 'Green', quantity: 2 });
    expect(moved.status).toBe(200);
    expect(moved.body.cart.products).toEqual([
      expect.objectContaining({ productId: products[4], size: 'M', color: 'Green', quantity: 2 }),
    ]);
    expect(moved.body.wishlist.count).toBe(0);
    const cart = await request(`${shop.cart.url}/api/cart?guestId=${guestId}`);
    expect(cart.body.products).toHaveLength(1);
    const notSaved = await api.move(products[4], { guestId, size: 'M', color: 'Green' });
    expect(notSaved).toMatchObject({ status: 404, body: { message: WISHLIST_MESSAGES.notInWishlist } });
  });

  it(`holds at most ${MAX_WISHLIST_ITEMS} products, and says so`, async () => {
    const user = signedIn();
    const lists = shop.cart.app.get<Model<unknown>>(getModelToken('UserWishlist'));
    const many: string[] = [];
    for (let i = 0; i < MAX_WISHLIST_ITEMS; i++) many.push(await addProduct(shop));
    const addedAt = new Date().toISOString();
    await lists.create({ user: user.id, items: many.map((productId) => ({ productId, addedAt })), version: 1 });
    const full = await api.save({ productId: products[0] }, user.token);
    expect(full).toMatchObject({ status: 409, body: { message: WISHLIST_MESSAGES.full } });
    expect((await api.get('', user.token)).body.count).toBe(MAX_WISHLIST_ITEMS);
    expect((await api.save({ productId: many[0] }, user.token)).status).toBe(200); // saved already: fine
    await api.remove(many[0], '', user.token);
    expect((await api.save({ productId: products[0] }, user.token)).status).toBe(201);
  }, 60_000);

  it('a product deleted from the catalogue drops out of the list', async () => {
    const doomed = await addProduct(shop);
    const user = signedIn();
    await api.save({ productId: doomed }, user.token);
    await api.save({ productId: products[0] }, user.token);
    expect((await api.get('', user.token)).body.count).toBe(2);
    const catalogProducts = shop.catalog.app.get<Model<unknown>>(getModelToken('Product'));
    await catalogProducts.deleteOne({ _id: doomed }).exec();
    await shop.bus.publish(EVENTS.catalog.productDeleted, { productId: doomed });
    await waitFor('the deleted product out of the list', async () => {
      const list = (await api.get('', user.token)).body;
      return list.count === 1 && list.items[0].productId === products[0];
    });
    const lists = shop.cart.app.get<Model<{ user: string; items: unknown[] }>>(getModelToken('UserWishlist'));
    expect((await lists.findOne({ user: user.id }).lean().exec())!.items).toHaveLength(1); // gone for good
  });

  it('a deleted user’s wishlist goes with them', async () => {
    const user = signedIn();
    await api.save({ productId: products[0] }, user.token);
    await shop.bus.publish(EVENTS.identity.userDeleted, { userId: user.id, revokedBefore: Date.now() });
    const lists = shop.cart.app.get<Model<{ user: string }>>(getModelToken('UserWishlist'));
    await waitFor('the list deleted', async () => (await lists.countDocuments({ user: user.id }).exec()) === 0);
  });
});
