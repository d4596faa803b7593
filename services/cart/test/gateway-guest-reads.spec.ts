// The gateway answers a plain guest cart read itself, from Redis and its copy of the catalogue (gateway README,
// "Guest cart reads"): what it answers must be what the cart service answers, byte for byte. A real cart and catalog
// (FerretDB, Redis, RabbitMQ) and two real gateways in front of them: one that answers guest reads, one that only
// forwards them (CART_GUEST_READS=off). Each read is asked of both; status, body and every header but Date and the
// connection's Keep-Alive must be the same. Reproduce a failure with the seed it prints: PROPERTY_SEED=<seed>.
import { uniqueSuffix } from '@shop/nest-common/testing';
import fc from 'fast-check';
import { getModelToken } from '@nestjs/mongoose';
import { request } from 'node:http';
import { gunzipSync } from 'node:zlib';
import { Types, type Model } from 'mongoose';
import { CatalogCache } from '../../catalog/src/cache/catalog-cache';
import { StockService } from '../../catalog/src/stock/stock.service';
import { addProduct, startShop, type ProductSpec, type Shop } from './cart.fixtures';
import { eventually, startGatewayPair, type GatewayPair } from './gateway-pair';

const seed = Number(process.env.PROPERTY_SEED ?? Date.now() % 2 ** 31);
const pick = <T>(values: readonly T[]) => fc.constantFrom(...values);

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/** Hop-by-hop, or different per moment: the gateway's own Keep-Alive (65 s) against the cart's, forwarded. */
const NOT_COMPARED = new Set(['date', 'keep-alive']);

function get(base: string, path: string, headers: Record<string, string>): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(`${base}${path}`, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          headers: Object.fromEntries(Object.entries(res.headers).filter(([name]) => !NOT_COMPARED.has(name))),
          body: Buffer.concat(chunks),
        }),
      );
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

describe('gateway: a guest cart read answered by the gateway is the cart service’s answer', () => {
  let shop: Shop;
  /** `on` answers guest reads, `off` forwards them. */
  let gateways: GatewayPair;
  let products: Model<unknown>;
  let ids: string[];
  let unpublished: string;
  let asked = 0;

  const key = (guestId: string) => `${shop.cart.config.RABBITMQ_NAMESPACE}cart:guest:${guestId}`;
  const adminToken = () => shop.catalog.token({ id: '64b7f9f9f9f9f9f9f9f9f9f9', role: 'admin', name: 'Ada Admin' });
  const copyCurrent = () => gateways.copyCurrent();

  /**
   * Asks the answering gateway, then the forwarding one, with the same request id; expects the same answer. Says
   * whether the first was answered without asking the cart service.
   */
  async function same(path: string, headers: Record<string, string> = {}): Promise<boolean> {
    const calls = gateways.cartRequests();
    const requestId = `diff-${seed}-${++asked}`;
    const ask = { 'accept-encoding': 'identity', ...headers, 'x-request-id': requestId };
    const answered = await get(gateways.onUrl, path, ask);
    const byGateway = gateways.cartRequests() === calls;
    const forwarded = await get(gateways.offUrl, path, ask);
    const text = (a: Answer) =>
      (a.headers['content-encoding'] === 'gzip' ? gunzipSync(a.body) : a.body).toString('utf8');
    expect({ path, status: answered.status, headers: answered.headers, body: text(answered) }).toEqual({
      path,
      status: forwarded.status,
      headers: forwarded.headers,
      body: text(forwarded),
    });
    return byGateway;
  }

  beforeAll(async () => {
    shop = await startShop();
    products = shop.catalog.app.get<Model<unknown>>(getModelToken('Product'));
    const insert = (spec: ProductSpec) => addProduct(shop, spec);
    ids = [
      await insert({ price: 19.99 }),
      await insert({ price: 0.1, countInStock: 1 }),
      await insert({ price: 120, countInStock: 0 }),
      await insert({ price: 25, images: [] }),
      await insert({ price: 49.99, name: 'Naïve ſcarf “retro” 🏈 </script>' }),
      await insert({ price: 9.99, images: [{ url: 'https://cdn.example/p.png', altText: '' }, { url: '/b.svg' }] }),
      await insert({ price: 33.33 }),
      await insert({ price: 1 }),
    ];
    unpublished = await insert({ price: 5, isPublished: false });
    // Inserted behind the catalog's back: turn its read model over as a write would.
    await shop.catalog.app.get(CatalogCache).invalidate();
    gateways = await startGatewayPair(shop, 'CART_GUEST_READS');
  }, 60_000);

  afterAll(async () => {
    await gateways?.close();
    if (shop) {
      const keys = await shop.redis.keys(`${shop.cart.config.RABBITMQ_NAMESPACE}*`);
      if (keys.length) await shop.redis.del(...keys);
      await shop.close();
    }
  });

  const guest = () => `guest_d${uniqueSuffix().replace(/[^A-Za-z0-9_-]/g, '')}`;
  const stored = (lines: unknown[], extra: object = {}) =>
    JSON.stringify({
      cartId: 'c-1',
      lines,
      mergedCarts: [],
      appliedOrders: [],
      createdAt: '2026-11-25T10:00:00.000Z',
      updatedAt: '2026-11-25T10:00:01.000Z',
      ...extra,
    });

  /** A stored line of a published product (most), the unpublished one, or an unknown one. */
  const lineArb = () =>
    fc.record({
      productId: fc.oneof(
        { weight: 12, arbitrary: pick(ids) },
        { weight: 1, arbitrary: pick([unpublished, '64b7f9f9f9f9f9f9f9f9f9f9']) },
      ),
      size: pick(['', 'S', 'M', 'L', 'XXL', 'naïve']),
      color: pick(['', 'Green', 'White', 'Navy']),
      quantity: fc.oneof(
        { weight: 8, arbitrary: fc.integer({ min: 1, max: 99 }) },
        { weight: 1, arbitrary: pick([1]) },
      ),
    });

  it(`on generated guest carts, missing carts and odd stored values (seed ${seed})`, async () => {
    const carts = fc.sample(fc.array(lineArb(), { maxLength: 9 }), { numRuns: 120, seed });
    const plainAndSold: string[] = [];
    let byGateway = 0;
    for (const lines of carts) {
      const guestId = guest();
      await shop.redis.set(key(guestId), stored(lines), 'EX', 3600);
      const mine = lines.every((l) => ids.includes(l.productId));
      const answered = await same(`/api/cart?guestId=${guestId}`);
      if (answered) byGateway += 1;
      else if (mine) plainAndSold.push(guestId);
      // Big carts compressed (over 1 KB), as the forwarded answer is.
      if (lines.length >= 6) await same(`/api/cart?guestId=${guestId}`, { 'accept-encoding': 'gzip' });
    }
    // Every stored cart of products on sale was answered by the gateway; the others (a product gone) by the cart.
    expect(plainAndSold).toEqual([]);
    expect(byGateway).toBeGreaterThan(50);

    // No cart at all: the empty cart, from the gateway.
    expect(await same(`/api/cart?guestId=${guest()}`)).toBe(true);

    // Stored values the cart service did not write the way it writes them: the cart answers (whatever it answers).
    const odd = [
      stored([{ productId: ids[0].toUpperCase(), size: 'M', color: '', quantity: 1 }]),
      stored([{ productId: ids[0], size: 'M', color: '', quantity: 0 }]),
      stored([{ productId: ids[0], size: 'M', color: '', quantity: 100 }]),
      stored([{ productId: ids[0], size: 'M', color: '', quantity: 1.5 }]),
      stored([{ productId: ids[0], size: 5, color: '', quantity: 1 }]),
      stored([], { _id: 'x' }),
      stored([], { createdAt: 7 }),
      '{"lines":[],"mergedCarts":[],"appliedOrders":[]}',
      '{"lines":',
      '[]',
      '',
    ];
    for (const value of odd) {
      const guestId = guest();
      await shop.redis.set(key(guestId), value, 'EX', 3600);
      expect([value, await same(`/api/cart?guestId=${guestId}`)]).toEqual([value, false]);
    }
    // A key Redis cannot GET (another type): an error for the gateway, which passes it on.
    const wrongType = guest();
    await shop.redis.hset(key(wrongType), 'lines', '[]');
    expect(await same(`/api/cart?guestId=${wrongType}`)).toBe(false);
  }, 120_000);

  it('passes on every read that is not a plain guest read, and the cart answers it', async () => {
    const guestId = guest();
    await shop.redis.set(
      key(guestId),
      stored([{ productId: ids[0], size: 'M', color: 'Green', quantity: 2 }]),
      'EX',
      60,
    );
    const { etag } = (await get(gateways.offUrl, `/api/cart?guestId=${guestId}`, {})).headers as { etag: string };
    const requests: Array<[string, Record<string, string>]> = [
      [`/api/cart?guestId=${guestId}&x=1`, {}],
      [`/api/cart?x=1&guestId=${guestId}`, {}],
      [`/api/cart?guestId=${guestId}&userId=64b7f9f9f9f9f9f9f9f9f9fa`, {}],
      [`/api/cart?guestId=guest_`, {}],
      [`/api/cart?guestId=${encodeURIComponent(guestId)}%20`, {}],
      [`/api/cart?guestid=${guestId}`, {}],
      ['/api/cart', {}],
      [`/api/cart?guestId=${guestId}`, { authorization: 'Bearer nope' }],
      [`/api/cart?guestId=${guestId}`, { 'if-none-match': etag }],
      [`/api/cart?guestId=${guestId}`, { 'if-modified-since': new Date().toUTCString() }],
      [`/api/cart/?guestId=${guestId}`, {}],
    ];
    for (const [path, headers] of requests)
      expect([path, headers, await same(path, headers)]).toEqual([path, headers, false]);
    // And the plain read of the same cart is the gateway's.
    expect(await same(`/api/cart?guestId=${guestId}`)).toBe(true);
  }, 60_000);

  it('follows price changes, stock writes, unpublished and deleted products at the version it follows', async () => {
    const guestIds: string[] = [];
    for (let n = 0; n < 6; n++) {
      const guestId = guest();
      guestIds.push(guestId);
      const lines = ids
        .slice(n, n + 3)
        .map((productId, i) => ({ productId, size: 'M', color: '', quantity: i + n + 1 }));
      await shop.redis.set(key(guestId), stored(lines), 'EX', 3600);
    }
    const admin = (method: string, id: string, body?: unknown) =>
      fetch(`${shop.catalog.url}/api/admin/products/${id}`, {
        method,
        headers: { authorization: `Bearer ${adminToken()}`, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    const cartSays = async (guestId: string) =>
      JSON.parse((await get(shop.cart.url, `/api/cart?guestId=${guestId}`, {})).body.toString()) as {
        products: Array<{ productId: string; price: number }>;
      };
    const settled = async (check: () => Promise<boolean>) => {
      await copyCurrent();
      await eventually(check);
      await copyCurrent();
    };

    // A price change: once both the copy and the cart have it, the same answers, the gateway's.
    expect((await admin('PUT', ids[1], { price: 7.77 })).status).toBe(200);
    await settled(async () => (await cartSays(guestIds[0])).products.some((p) => p.price === 7.77));
    for (const guestId of guestIds) expect(await same(`/api/cart?guestId=${guestId}`)).toBe(true);

    // Stock writes move the version; pricing is unchanged by them, and a quantity above the stock stays as stored.
    const stock = shop.catalog.app.get(StockService);
    const unit = { productId: ids[0], quantity: 1, size: 'S', color: 'Green' };
    await stock.reserve({ checkoutId: `gr-${seed}`, lines: [unit] });
    await stock.release({ checkoutId: `gr-${seed}` });
    await copyCurrent();
    for (const guestId of guestIds) expect(await same(`/api/cart?guestId=${guestId}`)).toBe(true);

    // Unpublished and deleted: the copy lacks them, so the cart answers (dropping the lines, a write), then the
    // gateway again for the cart as it is now.
    expect((await admin('PUT', ids[3], { isPublished: false })).status).toBe(200);
    expect((await admin('DELETE', ids[4])).status).toBeLessThan(300);
    await settled(async () => !(await cartSays(guestIds[4])).products.some((p) => p.productId === ids[4]));
    const touched = guestIds.filter((_, n) => n <= 4);
    for (const guestId of touched) await same(`/api/cart?guestId=${guestId}`);
    for (const guestId of guestIds) expect(await same(`/api/cart?guestId=${guestId}`)).toBe(true);
  }, 60_000);

  it('never answers while its copy is behind the version it follows (a price the copy has not seen)', async () => {
    await copyCurrent();
    const guestId = guest();
    await shop.redis.set(key(guestId), stored([{ productId: ids[0], size: 'S', color: '', quantity: 3 }]), 'EX', 60);
    expect(await same(`/api/cart?guestId=${guestId}`)).toBe(true);

    // A version announced that the copy cannot reach (nothing in the log, the catalog's snapshot older): behind.
    const version = Number(await shop.redis.get(gateways.versionKey));
    await shop.redis.publish(gateways.versionKey, String(version + 1));
    await eventually(() => gateways.on.catalogCache!.stats().version === String(version + 1));
    // Meanwhile the price moves in the database, and the cart hears of it: only the cart knows the new price.
    await products.collection.updateOne({ _id: new Types.ObjectId(ids[0]) }, { $set: { pricePence: 4321 } });
    await shop.bus.publish('catalog.product.changed', { productId: ids[0] });
    await eventually(async () => (await get(shop.cart.url, `/api/cart?guestId=${guestId}`, {})).body.includes('43.21'));
    for (let n = 0; n < 3; n++) expect(await same(`/api/cart?guestId=${guestId}`)).toBe(false);

    // Caught up (the counter gets there, and a full load follows): the gateway answers again, with the new price.
    await shop.redis.incr(gateways.versionKey);
    await shop.catalog.app.get(CatalogCache).invalidate();
    await copyCurrent();
    expect(await same(`/api/cart?guestId=${guestId}`)).toBe(true);
  }, 60_000);
});
