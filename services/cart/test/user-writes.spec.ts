// A signed-in user's cart is changed by compare-and-set on its version (no lock), against the real cart, catalog,
// MongoDB-wire server, Redis and RabbitMQ: concurrent changes all land, an order's lines leave once however often
// its event is delivered or replayed (the cart's own memory of the order, no inbox), a merge racing the shopper
// loses nothing, and a cart written before versions is changed like any other.
import { getModelToken } from '@nestjs/mongoose';
import { EVENTS, type CartJson, type OrderPlacedEvent } from '@shop/contracts';
import { PROCESSED_EVENTS_COLLECTION } from '@shop/nest-common';
import { waitFor } from '@shop/nest-common/testing';
import type { Model } from 'mongoose';
import { addProduct, cartApi, newGuestId, newUserId, startShop, type Shop } from './cart.fixtures';

describe('user cart writes (compare-and-set on the cart document)', () => {
  let shop: Shop;
  let api: ReturnType<typeof cartApi>;
  let products: string[];
  beforeAll(async () => {
    shop = await startShop();
    api = cartApi(shop);
    products = [];
    for (let i = 0; i < 20; i++) products.push(await addProduct(shop, { price: 10 + i, countInStock: 90 }));
  }, 90_000);
  afterAll(() => shop?.close());

  const signedIn = () => {
    const id = newUserId();
    return { id, token: shop.cart.token({ id }) };
  };
  const line = (productId: string, quantity = 1) => ({ productId, quantity, size: 'M', color: 'Green' });
  const quantities = (cart: CartJson) => Object.fromEntries(cart.products.map((l) => [l.productId, l.quantity]));
  const carts = () => shop.cart.app.get<Model<{ user: string; version?: number }>>(getModelToken('UserCart'));
  const stored = async (userId: string) => (await carts().findOne({ user: userId }).lean().exec())!;

  it('20 concurrent adds of different products to one cart: all 20 lines, one cart, one write each', async () => {
    const user = signedIn();
    const results = await Promise.all(products.map((p) => api.add(line(p), user.token)));
    expect(results.filter((r) => r.status === 201)).toHaveLength(1); // one of them made the cart
    expect(results.every((r) => [200, 201].includes(r.status))).toBe(true);
    const cart = (await api.get('', user.token)).body as CartJson;
    expect(quantities(cart)).toEqual(Object.fromEntries(products.map((p) => [p, 1])));
    expect(await carts().countDocuments({ user: user.id }).exec()).toBe(1);
    expect((await stored(user.id)).version).toBe(20);
  });

  it('15 concurrent adds of one product add up, and concurrent updates leave one of the values asked', async () => {
    const user = signedIn();
    await Promise.all(Array.from({ length: 15 }, () => api.add(line(products[0]), user.token)));
    expect(quantities((await api.get('', user.token)).body)).toEqual({ [products[0]]: 15 });
    const asked = [3, 7, 11];
    const updated = await Promise.all(asked.map((q) => api.update(line(products[0], q), user.token)));
    expect(updated.map((r) => r.status)).toEqual([200, 200, 200]);
    expect(asked).toContain(quantities((await api.get('', user.token)).body)[products[0]]);
  });

  it('takes an order’s lines out once, however often its event is delivered or replayed, while the shopper adds more', async () => {
    const user = signedIn();
    await api.add(line(products[0], 5), user.token);
    await api.add(line(products[1], 2), user.token);
    const order: OrderPlacedEvent = {
      orderId: newUserId(),
      checkoutId: newUserId(),
      userId: user.id,
      items: [
        { productId: products[0], quantity: 2, size: 'M', color: 'Green' },
        { productId: products[1], quantity: 2, size: 'M', color: 'Green' },
      ],
    };
    const eventId = `orders.order.placed:${order.checkoutId}`;
    // Redelivered (the same id, at once), replayed by a publisher retry (a new id), and the shopper adding meanwhile.
    await Promise.all([
      shop.bus.publish(EVENTS.orders.orderPlaced, order, { eventId }),
      shop.bus.publish(EVENTS.orders.orderPlaced, order, { eventId }),
      shop.bus.publish(EVENTS.orders.orderPlaced, order, { eventId: `${eventId}:replayed` }),
      ...[2, 3, 4].map((i) => api.add(line(products[i]), user.token)),
    ]);
    await waitFor(
      'the order’s lines out',
      async () => quantities((await api.get('', user.token)).body)[products[1]] === undefined,
    );
    await new Promise((r) => setTimeout(r, 700)); // every delivery handled
    expect(quantities((await api.get('', user.token)).body)).toEqual({
      [products[0]]: 3,
      [products[2]]: 1,
      [products[3]]: 1,
      [products[4]]: 1,
    });
    // No inbox behind it: the cart's own record of the order is the guard.
    const processed = await carts()
      .db.collection(PROCESSED_EVENTS_COLLECTION)
      .countDocuments({ eventId: { $in: [eventId, `${eventId}:replayed`] } });
    expect(processed).toBe(0);
  });

  it('a merge racing the shopper’s own adds loses nothing, and a merge repeated adds nothing', async () => {
    const user = signedIn();
    const guestId = newGuestId();
    await api.add({ ...line(products[5], 2), guestId });
    await api.add({ ...line(products[6], 1), guestId });
    await Promise.all([
      api.merge({ guestId }, user.token),
      api.merge({ guestId }, user.token),
      ...[7, 8, 9].map((i) => api.add(line(products[i]), user.token)),
    ]);
    expect(quantities((await api.get('', user.token)).body)).toEqual({
      [products[5]]: 2,
      [products[6]]: 1,
      [products[7]]: 1,
      [products[8]]: 1,
      [products[9]]: 1,
    });
  });

  it('changes a cart written before versions: its first change versions it', async () => {
    const user = signedIn();
    await carts().collection.insertOne({
      user: user.id,
      lines: [{ productId: products[0], size: 'M', color: 'Green', quantity: 1 }],
      mergedCarts: [],
      appliedOrders: [],
      createdAt: new Date(),
      updatedAt: new Date(),
    });
    await Promise.all([api.add(line(products[0]), user.token), api.add(line(products[1]), user.token)]);
    expect(quantities((await api.get('', user.token)).body)).toEqual({ [products[0]]: 2, [products[1]]: 1 });
    expect((await stored(user.id)).version).toBe(2);
  });
});
