// The cart through the gateway of the running shop (docs/api.md#cart): guest carts in Redis, user carts in
// MongoDB, lines priced by the catalog, whose cart a request may touch, merge on login, order events.
import amqp from 'amqplib';
import Redis from 'ioredis';
import { randomUUID } from 'node:crypto';
// The cart's own key of a guest cart (its store is checked here, white-box, for the sliding expiry).
import { guestCartKey } from '../../services/cart/src/cart/model/stored-cart';
import {
  api,
  cellOf,
  e2eEnv,
  expectJsonError,
  login,
  uniqueEmail,
  variantsFor,
  type ApiResponse,
  type E2eEnv,
} from './support';

jest.setTimeout(60_000);

const guestId = () => `guest_${Date.now()}${Math.random().toString(36).slice(2, 8)}`;
const OBJECT_ID = /^[0-9a-f]{24}$/;

describe('cart through the gateway', () => {
  let env: E2eEnv;
  let redis: Redis;
  let adminToken: string;
  let customer: { id: string; token: string };
  let other: { id: string; token: string };
  /** A product of its own per test group, so stock and prices are what each test says. */
  const products: Record<string, string> = {};
  /** Their SKUs upper-cased (as a variant's default SKU has it), by product id. */
  const skus: Record<string, string> = {};
  /** A real seeded image: other journeys check that every listed product's image loads. */
  let image: { url: string; altText: string };

  const cart = (method: string, json?: unknown, token?: string, query = '') =>
    api(env.baseUrl, method, `/api/cart${query}`, { json, token });
  const add = (json: unknown, token?: string) => cart('POST', json, token);
  const read = (query: string, token?: string) => cart('GET', undefined, token, `?${query}`);

  async function register(tag: string) {
    const res = await api(env.baseUrl, 'POST', '/api/users/register', {
      json: { name: `Cart ${tag}`, email: uniqueEmail(`cart.${tag}`), password: 'Cart!23456' },
    });
    expect(res.status).toBe(201);
    return { id: res.body.user._id as string, token: res.body.token as string };
  }

  /**
   * A product whose every variant (size × colour) has `stockEach` units, unless `stock` says otherwise for a variant
   * (stock is held per variant: issue 22).
   */
  async function createProduct(
    overrides: Record<string, unknown> = {},
    stockEach = 50,
    stock: Record<string, number> = {},
  ): Promise<string> {
    const sku = `E2E-CART-${randomUUID().slice(0, 8)}`;
    const fields = {
      name: `Cart Test Hoodie ${sku}`,
      description: 'A hoodie for cart tests.',
      price: 24.99,
      sku,
      category: 'Top Wear',
      gender: 'Men',
      brand: 'Green Bay Packers',
      sizes: ['S', 'M', 'L'],
      colors: ['Green', 'White'],
      material: 'Fleece',
      images: [image],
      ...overrides,
    };
    const res = await api(env.baseUrl, 'POST', '/api/admin/products', {
      token: adminToken,
      json: { ...fields, variants: variantsFor(fields.sizes, fields.colors, stockEach, stock) },
    });
    expect(res.status).toBe(201);
    skus[res.body._id] = sku.toUpperCase();
    return res.body._id as string;
  }

  const line = (productId: string, extra: Record<string, unknown> = {}) => ({
    productId,
    quantity: 1,
    size: 'M',
    color: 'Green',
    ...extra,
  });

  function expectCart(res: ApiResponse, status: number, lines: Array<[string, number]>, total: number) {
    expect(res.status).toBe(status);
    expect(res.body.products.map((l: { productId: string; quantity: number }) => [l.productId, l.quantity])).toEqual(
      lines,
    );
    // Expected totals are written as sums of pounds: compare them as the API computes them, in whole pence.
    expect(res.body.totalPrice).toBe(Math.round(total * 100) / 100);
  }

  beforeAll(async () => {
    env = e2eEnv();
    redis = new Redis(env.redisUrl);
    const admin = login(env, 'admin');
    adminToken = (await api(env.baseUrl, 'POST', '/api/users/login', { json: admin })).body.token;
    [customer, other] = await Promise.all([register('owner'), register('other')]);
    image = (await api(env.baseUrl, 'GET', '/api/products?limit=1')).body[0].images[0];
    [products.a, products.b, products.few, products.price, products.gone, products.uneven] = await Promise.all([
      createProduct(),
      createProduct({ price: 10.1, sizes: ['S', 'M'], colors: ['White'] }),
      createProduct({}, 3),
      createProduct({ price: 30 }),
      createProduct(),
      createProduct({ sizes: ['M', 'L'], colors: ['Green'] }, 2, { [cellOf('M', 'Green')]: 0 }),
    ]);
  });
  afterAll(async () => {
    await redis?.quit();
  });

  describe('a guest cart', () => {
    const id = guestId();

    it('is empty before anything is added', async () => {
      const res = await read(`guestId=${id}`);
      expect(res.status).toBe(200);
      expect(res.body).toEqual(expect.objectContaining({ products: [], totalPrice: 0 }));
    });

    it('adds a line priced by the catalog (201 when it creates the cart), whatever price the client sends', async () => {
      const res = await add({ ...line(products.a, { quantity: 2 }), guestId: id, price: 0.01, totalPrice: 0.01 });
      expectCart(res, 201, [[products.a, 2]], 49.98);
      expect(res.body.guestId).toBe(id);
      expect(res.body.products[0]).toEqual({
        productId: products.a,
        name: expect.stringContaining('Cart Test Hoodie'),
        image: image.url,
        price: 24.99,
        quantity: 2,
        size: 'M',
        color: 'Green',
        sku: `${skus[products.a]}-M-GREEN`,
        countInStock: 50,
      });
    });

    it('adds to the same line (200), and keeps another size of the product as its own line', async () => {
      expectCart(await add({ ...line(products.a), guestId: id }), 200, [[products.a, 3]], 74.97);
      const res = await add({ ...line(products.a, { size: 'L' }), guestId: id });
      expectCart(
        res,
        200,
        [
          [products.a, 3],
          [products.a, 1],
        ],
        99.96,
      );
      expect(res.body.products.map((l: { size: string }) => l.size)).toEqual(['M', 'L']);
    });

    it('keeps it in Redis with a sliding expiry that every write starts again', async () => {
      const key = guestCartKey(env.namespace, id);
      const ttl = await redis.ttl(key);
      expect(ttl).toBeGreaterThan(29 * 24 * 3600);
      await redis.expire(key, 1000);
      await add({ ...line(products.b, { size: 'S', color: 'White' }), guestId: id });
      expect(await redis.ttl(key)).toBeGreaterThan(29 * 24 * 3600);
    });

    it('sets a quantity with PUT, and PUT 0 removes the line', async () => {
      const set = await cart('PUT', { ...line(products.a, { quantity: 5 }), guestId: id });
      expect(set.status).toBe(200);
      expect(set.body.products.find((l: { size: string }) => l.size === 'M').quantity).toBe(5);
      const removed = await cart('PUT', { ...line(products.a, { size: 'L', quantity: 0 }), guestId: id });
      expectCart(
        removed,
        200,
        [
          [products.a, 5],
          [products.b, 1],
        ],
        135.05,
      );
    });

    it('removes a line with DELETE and keeps the (empty) cart', async () => {
      expectCart(
        await cart('DELETE', { ...line(products.b, { size: 'S', color: 'White' }), guestId: id }),
        200,
        [[products.a, 5]],
        124.95,
      );
      expectCart(await cart('DELETE', { ...line(products.a), guestId: id }), 200, [], 0);
      const res = await read(`guestId=${id}`);
      expect(res.body).toEqual(expect.objectContaining({ guestId: id, products: [], totalPrice: 0 }));
      expect(await redis.exists(guestCartKey(env.namespace, id))).toBe(1);
    });

    it('answers 404 for a line that is not in the cart', async () => {
      const res = await cart('PUT', { ...line(products.b, { size: 'S', color: 'White', quantity: 2 }), guestId: id });
      expectJsonError(res, 404);
      expect(res.body.message).toBe('Product not found in cart');
      expectJsonError(await cart('DELETE', { ...line(products.b), guestId: guestId() }), 404);
    });
  });

  describe('rules for a line', () => {
    const id = guestId();

    it.each([
      ['negative', -1],
      ['fractional', 1.5],
      ['a string', '2'],
      ['zero on add', 0],
      ['100', 100],
      ['null', null],
    ])('refuses a quantity that is %s (400)', async (_what, quantity) => {
      const res = await add({ ...line(products.a), quantity, guestId: id });
      expectJsonError(res, 400);
      expect(res.body.message).toMatch(/Quantity/);
    });

    it('refuses a PUT above 99 or below 0 (400)', async () => {
      await add({ ...line(products.a), guestId: id });
      expectJsonError(await cart('PUT', { ...line(products.a, { quantity: 100 }), guestId: id }), 400);
      expectJsonError(await cart('PUT', { ...line(products.a, { quantity: -2 }), guestId: id }), 400);
    });

    it('answers 404 Product not found for an unknown product, 400 for a malformed id', async () => {
      const res = await add({ ...line('64b7f9f9f9f9f9f9f9f9f9f9'), guestId: id });
      expectJsonError(res, 404);
      expect(res.body.message).toBe('Product not found');
      const bad = await add({ ...line('not-an-id'), guestId: id });
      expectJsonError(bad, 400);
      expect(bad.body.message).toBe('Invalid product id');
    });

    it('refuses a size or colour the product is not offered in (400)', async () => {
      const size = await add({ ...line(products.b, { size: 'XL', color: 'White' }), guestId: id });
      expectJsonError(size, 400);
      expect(size.body.message).toMatch(/Size XL is not offered/);
      const color = await add({ ...line(products.b, { size: 'S', color: 'Green' }), guestId: id });
      expectJsonError(color, 400);
      expect(color.body.message).toMatch(/Color Green is not offered/);
      expectJsonError(await add({ productId: products.b, quantity: 1, guestId: id }), 400);
    });

    it('keeps a line within the stock: 409 Only N left in stock, on add and on PUT', async () => {
      const few = guestId();
      expectCart(await add({ ...line(products.few, { quantity: 2 }), guestId: few }), 201, [[products.few, 2]], 49.98);
      const more = await add({ ...line(products.few, { quantity: 2 }), guestId: few });
      expectJsonError(more, 409);
      expect(more.body.message).toBe('Only 3 left in stock');
      const put = await cart('PUT', { ...line(products.few, { quantity: 4 }), guestId: few });
      expectJsonError(put, 409);
      expect(put.body.message).toBe('Only 3 left in stock');
      expectCart(await read(`guestId=${few}`), 200, [[products.few, 2]], 49.98);
    });

    it("holds each line to its own variant's stock: a sold-out variant is refused while another still sells", async () => {
      const uneven = guestId();
      const gone = await add({ ...line(products.uneven), guestId: uneven });
      expectJsonError(gone, 409);
      expect(gone.body.message).toBe('This item is out of stock');
      const res = await add({ ...line(products.uneven, { size: 'L', quantity: 2 }), guestId: uneven });
      expectCart(res, 201, [[products.uneven, 2]], 49.98);
      expect(res.body.products[0]).toMatchObject({
        size: 'L',
        color: 'Green',
        sku: `${skus[products.uneven]}-L-GREEN`,
        countInStock: 2,
      });
      const more = await add({ ...line(products.uneven, { size: 'L' }), guestId: uneven });
      expectJsonError(more, 409);
      expect(more.body.message).toBe('Only 2 left in stock');
    });
  });

  describe('whose cart', () => {
    it('uses the token user’s cart, stored in MongoDB, and ignores a guest id beside the token', async () => {
      const guest = guestId();
      await add({ ...line(products.b, { size: 'S', color: 'White' }), guestId: guest });
      const res = await add({ ...line(products.a), guestId: guest, userId: customer.id }, customer.token);
      expect(res.status).toBe(201);
      expect(res.body).toEqual(expect.objectContaining({ _id: expect.stringMatching(OBJECT_ID), user: customer.id }));
      expectCart(res, 201, [[products.a, 1]], 24.99);
      expectCart(await read(`guestId=${guest}`, customer.token), 200, [[products.a, 1]], 24.99);
      expectCart(await read(`guestId=${guest}`), 200, [[products.b, 1]], 10.1);
    });

    it('answers 403 for another user’s userId, 401 for a userId without a token', async () => {
      const forbidden = await read(`userId=${other.id}`, customer.token);
      expectJsonError(forbidden, 403);
      expectJsonError(await add({ ...line(products.a), userId: other.id }, customer.token), 403);
      const noToken = await read(`userId=${customer.id}`);
      expectJsonError(noToken, 401);
      expectJsonError(await add({ ...line(products.a), userId: customer.id }), 401);
      expectCart(await read('', customer.token), 200, [[products.a, 1]], 24.99);
    });

    it('answers 401 for a presented but bad token instead of falling back to the guest cart', async () => {
      const guest = guestId();
      for (const token of ['not-a-jwt', `${customer.token}x`]) {
        expectJsonError(await read(`guestId=${guest}`, token), 401);
        expectJsonError(await add({ ...line(products.a), guestId: guest }, token), 401);
      }
      expect(await redis.exists(guestCartKey(env.namespace, guest))).toBe(0);
    });

    it('needs a well-formed guestId without a token', async () => {
      const missing = await read('');
      expectJsonError(missing, 400);
      expect(missing.body.message).toBe('guestId is required');
      for (const bad of ['nope', 'guest_', `guest_${'x'.repeat(65)}`, 'guest_a b', 'guest_../x']) {
        expectJsonError(await read(`guestId=${encodeURIComponent(bad)}`), 400);
      }
      expectJsonError(await read('guestId=guest_1&guestId=guest_2'), 400);
      expectJsonError(await read('guestId[$ne]=x'), 400);
    });
  });

  describe('merge on login', () => {
    it('adds guest lines into the user’s cart (capped by stock), removes the guest cart, and changes nothing when repeated', async () => {
      const buyer = await register('merge');
      const guest = guestId();
      await add({ ...line(products.a, { quantity: 2 }), userId: buyer.id }, buyer.token);
      await add({ ...line(products.few, { quantity: 2 }) }, buyer.token);
      await add({ ...line(products.a, { quantity: 3 }), guestId: guest });
      await add({ ...line(products.few, { quantity: 3 }), guestId: guest });
      await add({ ...line(products.b, { size: 'S', color: 'White' }), guestId: guest });

      const merged = await cart('POST', { guestId: guest, user: other.id }, buyer.token, '/merge');
      expectCart(
        merged,
        200,
        [
          [products.a, 5],
          [products.few, 3],
          [products.b, 1],
        ],
        5 * 24.99 + 3 * 24.99 + 10.1,
      );
      expect(merged.body.user).toBe(buyer.id);
      expect(await redis.exists(guestCartKey(env.namespace, guest))).toBe(0);

      const again = await cart('POST', { guestId: guest }, buyer.token, '/merge');
      expect(again.status).toBe(200);
      expect(again.body.products).toEqual(merged.body.products);
      expectCart(await read('', other.token), 200, [], 0);
    });

    it('returns the user’s cart unchanged for an empty or missing guest cart, and makes one from only a guest cart', async () => {
      const buyer = await register('merge2');
      const emptyGuest = guestId();
      const nothing = await cart('POST', { guestId: emptyGuest }, buyer.token, '/merge');
      expect(nothing.status).toBe(200);
      expect(nothing.body).toEqual(expect.objectContaining({ products: [], totalPrice: 0 }));

      const guest = guestId();
      await add({ ...line(products.a), guestId: guest });
      expectCart(await cart('POST', { guestId: guest }, buyer.token, '/merge'), 200, [[products.a, 1]], 24.99);
      await add({ ...line(products.a), guestId: guest });
      await cart('DELETE', { ...line(products.a), guestId: guest });
      expectCart(await cart('POST', { guestId: guest }, buyer.token, '/merge'), 200, [[products.a, 1]], 24.99);
    });

    it('never doubles when a client merges twice at once', async () => {
      const buyer = await register('merge3');
      const guest = guestId();
      await add({ ...line(products.a, { quantity: 4 }), guestId: guest });
      const both = await Promise.all([1, 2].map(() => cart('POST', { guestId: guest }, buyer.token, '/merge')));
      for (const res of both) expect(res.status).toBe(200);
      expectCart(await read('', buyer.token), 200, [[products.a, 4]], 4 * 24.99);
    });

    it('needs a token (401) and a guestId (400)', async () => {
      expectJsonError(await cart('POST', { guestId: guestId() }, undefined, '/merge'), 401);
      expectJsonError(await cart('POST', {}, customer.token, '/merge'), 400);
    });
  });

  describe('concurrent writes', () => {
    it('20 adds of one at once to one guest line give 20', async () => {
      const guest = guestId();
      const results = await Promise.all(Array.from({ length: 20 }, () => add({ ...line(products.a), guestId: guest })));
      expect(results.map((r) => r.status).sort((a, b) => a - b)).toEqual([...Array(19).fill(200), 201]);
      expectCart(await read(`guestId=${guest}`), 200, [[products.a, 20]], 20 * 24.99);
    });

    it('20 adds of one at once to one user line give 20', async () => {
      const buyer = await register('race');
      const results = await Promise.all(Array.from({ length: 20 }, () => add(line(products.a), buyer.token)));
      expect(results.filter((r) => r.status >= 300)).toEqual([]);
      expectCart(await read('', buyer.token), 200, [[products.a, 20]], 20 * 24.99);
    });

    it('12 adds of distinct lines at once give 12 lines', async () => {
      const guest = guestId();
      const variants = ['S', 'M', 'L'].flatMap((size) => ['Green', 'White'].map((color) => ({ size, color })));
      const lines = [
        ...variants.map((v) => ({ ...line(products.a), ...v })),
        ...variants.map((v) => ({ ...line(products.price), ...v })),
      ];
      const results = await Promise.all(lines.map((l) => add({ ...l, guestId: guest })));
      expect(results.filter((r) => r.status >= 300)).toEqual([]);
      const res = await read(`guestId=${guest}`);
      expect(res.body.products).toHaveLength(12);
      expect(res.body.totalPrice).toBe(329.94);
    });

    it('stops at the stock when more are added at once than there are', async () => {
      const guest = guestId();
      const results = await Promise.all(
        Array.from({ length: 6 }, () => add({ ...line(products.few), guestId: guest })),
      );
      expect(results.filter((r) => r.status === 409)).toHaveLength(3);
      expectCart(await read(`guestId=${guest}`), 200, [[products.few, 3]], 3 * 24.99);
    });
  });

  describe('the catalogue moves under the cart', () => {
    it('shows a price change in the cart total', async () => {
      const guest = guestId();
      expectCart(
        await add({ ...line(products.price, { quantity: 2 }), guestId: guest }),
        201,
        [[products.price, 2]],
        60,
      );
      const edit = await api(env.baseUrl, 'PUT', `/api/admin/products/${products.price}`, {
        token: adminToken,
        json: { price: 27.5 },
      });
      expect(edit.status).toBe(200);
      const deadline = Date.now() + 5000;
      let res = await read(`guestId=${guest}`);
      while (res.body.totalPrice !== 55 && Date.now() < deadline) res = await read(`guestId=${guest}`);
      expectCart(res, 200, [[products.price, 2]], 55);
      expect(res.body.products[0].price).toBe(27.5);
    });

    it('drops the lines of a deleted product on the next read', async () => {
      const guest = guestId();
      await add({ ...line(products.gone), guestId: guest });
      await add({ ...line(products.b, { size: 'S', color: 'White' }), guestId: guest });
      expect((await api(env.baseUrl, 'DELETE', `/api/products/${products.gone}`, { token: adminToken })).status).toBe(
        200,
      );
      const deadline = Date.now() + 5000;
      let res = await read(`guestId=${guest}`);
      while (res.body.products.length !== 1 && Date.now() < deadline) res = await read(`guestId=${guest}`);
      expectCart(res, 200, [[products.b, 1]], 10.1);
      expectJsonError(await add({ ...line(products.gone), guestId: guest }), 404);
    });
  });

  describe('orders.order.placed', () => {
    it('takes the ordered lines out of the buyer’s cart once, even when the event comes twice', async () => {
      const buyer = await register('order');
      await add({ ...line(products.a, { quantity: 2 }) }, buyer.token);
      await add({ ...line(products.b, { size: 'S', color: 'White' }) }, buyer.token);
      const orderId = '6560f0f0f0f0f0f0f0f0f0f0';
      const event = (eventId: string) => ({
        eventId,
        type: 'orders.order.placed',
        occurredAt: new Date().toISOString(),
        data: {
          orderId,
          checkoutId: randomUUID(),
          userId: buyer.id,
          items: [
            { productId: products.a, quantity: 2, size: 'M', color: 'Green' },
            { productId: products.b, quantity: 1, size: 'S', color: 'White' },
          ],
        },
      });
      const connection = await amqp.connect(env.rabbitUrl);
      const channel = await connection.createConfirmChannel();
      const publish = async (body: object) => {
        channel.publish(`${env.namespace}shop.events`, 'orders.order.placed', Buffer.from(JSON.stringify(body)), {
          persistent: true,
          contentType: 'application/json',
        });
        await channel.waitForConfirms();
      };
      try {
        await publish(event(randomUUID()));
        const deadline = Date.now() + 8000;
        let res = await read('', buyer.token);
        while (res.body.products.length && Date.now() < deadline) res = await read('', buyer.token);
        expectCart(res, 200, [], 0);

        // The shopper fills the cart again; the same order announced again (same and new event id) changes nothing.
        await add({ ...line(products.a, { quantity: 2 }) }, buyer.token);
        const first = event(randomUUID());
        await publish(first);
        await publish(first);
        await publish(event(randomUUID()));
        await new Promise((resolve) => setTimeout(resolve, 1500));
        expectCart(await read('', buyer.token), 200, [[products.a, 2]], 49.98);
      } finally {
        await connection.close();
      }
    });
  });

  describe('bad bodies', () => {
    it.each([
      ['missing fields', {}],
      ['productId as an operator', { productId: { $gt: '' }, quantity: 1, size: 'M', color: 'Green' }],
      ['guestId as an operator', { productId: '64b7f9f9f9f9f9f9f9f9f9f9', quantity: 1, guestId: { $ne: null } }],
      [
        'size as an object',
        { productId: '64b7f9f9f9f9f9f9f9f9f9f9', quantity: 1, size: { $ne: 1 }, guestId: 'guest_1' },
      ],
      ['a huge string', { productId: 'a'.repeat(100_000), quantity: 1, guestId: 'guest_1' }],
      ['an array', [1, 2, 3]],
    ])('refuses %s with a 4xx JSON message', async (_what, body) => {
      for (const method of ['POST', 'PUT', 'DELETE']) {
        const res = await cart(method, body);
        expect(res.status).toBeGreaterThanOrEqual(400);
        expect(res.status).toBeLessThan(500);
        expect(typeof res.body.message).toBe('string');
      }
    });

    it('refuses malformed and deeply nested JSON with a 4xx JSON message, and writes nothing', async () => {
      const guest = guestId();
      const malformed = await api(env.baseUrl, 'POST', '/api/cart', { raw: `{"guestId":"${guest}","productId":` });
      expect(malformed.status).toBe(400);
      expect(typeof malformed.body.message).toBe('string');
      const deep = `{"guestId":"${guest}","productId":"${products.a}","quantity":1,"x":${'['.repeat(5000)}${']'.repeat(5000)}}`;
      const nested = await api(env.baseUrl, 'POST', '/api/cart', { raw: deep });
      expect(nested.status).toBeGreaterThanOrEqual(400);
      expect(nested.status).toBeLessThan(500);
      expect(await redis.exists(guestCartKey(env.namespace, guest))).toBe(0);
    });
  });
});
