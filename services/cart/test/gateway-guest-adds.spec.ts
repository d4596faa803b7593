// The gateway carries out a plain guest add itself, with the cart's own rules and compare-and-set (gateway README,
// "Guest adds"): what it answers and what it stores must be what the cart service answers and stores. A real cart
// and catalog (FerretDB, Redis, RabbitMQ) and two real gateways in front of them: one that carries out guest adds,
// one that forwards them (CART_GUEST_ADDS=off). Each add is made twice, once through each, to two guest carts that
// hold the same before; the answers (status, headers, body) and the carts stored after must be the same but for
// the times, the guest id and a new cart's random id. Reproduce a failure with the seed it prints:
// PROPERTY_SEED=<seed>.
import { plainGuestAdd, weakEtagOf } from '@shop/cart-model';
import { MAX_CART_LINES } from '@shop/contracts';
import { uniqueSuffix } from '@shop/nest-common/testing';
import fc from 'fast-check';
import { registry } from '../../../gateway/src/metrics';
import { CatalogCache } from '../../catalog/src/cache/catalog-cache';
import { addProduct, startShop, type Shop } from './cart.fixtures';
import { eventually, startGatewayPair, type GatewayPair } from './gateway-pair';

const seed = Number(process.env.PROPERTY_SEED ?? Date.now() % 2 ** 31);
const pick = <T>(values: readonly T[]) => fc.constantFrom(...values);
interface Answer {
  status: number;
  headers: Record<string, string>;
  text: string;
}

/** Hop-by-hop, or different per moment: the date, and the ETag of a JSON holding the time of the write. */
const NOT_COMPARED = new Set(['date', 'keep-alive', 'etag']);
const TIMES = /"(createdAt|updatedAt)":"[^"]*"/g;
/** Not the default: the gateway is given the cart's value, as a deployment's shared setting gives it. */
const TTL_SECONDS = 86_400;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('gateway: a guest add carried out by the gateway is the cart service’s add', () => {
  let shop: Shop;
  /** `on` carries out guest adds, `off` forwards them. */
  let gateways: GatewayPair;
  let ids: Record<'plain' | 'few' | 'none' | 'bare' | 'odd', string>;
  let unpublished: string;

  const namespace = () => shop.cart.config.RABBITMQ_NAMESPACE;
  const key = (guestId: string) => `${namespace()}cart:guest:${guestId}`;
  const cartRequests = () => gateways.cartRequests();

  async function post(base: string, body: string): Promise<Answer> {
    const res = await fetch(`${base}/api/cart`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'accept-encoding': 'identity', 'x-request-id': 'diff' },
      body,
    });
    const headers: Record<string, string> = {};
    res.headers.forEach((value, name) => {
      headers[name] = value;
    });
    return { status: res.status, headers, text: await res.text() };
  }

  /** Two guest ids of the same length (the answers' lengths are compared). */
  const guestPair = (): [string, string] => {
    const suffix = uniqueSuffix().replace(/[^A-Za-z0-9_-]/g, '');
    return [`guest_a${suffix}`, `guest_f${suffix}`];
  };

  /** A stored cart as the cart service writes one. */
  const stored = (lines: unknown[]) =>
    JSON.stringify({
      lines,
      mergedCarts: [],
      appliedOrders: [],
      createdAt: '2026-11-25T10:00:00.000Z',
      updatedAt: '2026-11-25T10:00:01.000Z',
      cartId: 'c-1',
    });

  /** The cart stored under `guestId`, without what differs by design: the times, a new cart's random id. */
  async function storedAfter(guestId: string) {
    const raw = await shop.redis.get(key(guestId));
    if (raw === null) return null;
    const { createdAt, updatedAt, cartId, ...rest } = JSON.parse(raw) as Record<string, unknown>;
    expect([createdAt, updatedAt].every((t) => typeof t === 'string' && !Number.isNaN(Date.parse(t)))).toBe(true);
    expect(cartId === 'c-1' || UUID.test(String(cartId))).toBe(true);
    // Written: the whole expiry again; left alone: the 600 s the test gave it.
    const ttl = await shop.redis.ttl(key(guestId));
    const expiry = ttl > TTL_SECONDS - 60 ? 'set' : ttl > 0 && ttl <= 600 ? 'kept' : ttl;
    return { ...rest, cartId: cartId === 'c-1' ? 'c-1' : 'new', fields: Object.keys(JSON.parse(raw)), expiry };
  }

  /**
   * Makes the add through each gateway, each to its own guest cart holding `before`; expects the same answers and
   * carts. Gives the status, and whether the adding gateway answered without asking the cart service.
   */
  async function same(
    before: string | null,
    body: Record<string, unknown>,
  ): Promise<{ status: number; byGateway: boolean }> {
    const [mine, theirs] = guestPair();
    for (const guestId of [mine, theirs]) if (before !== null) await shop.redis.set(key(guestId), before, 'EX', 600);
    const text = (guestId: string) => JSON.stringify(body.guestId === 'GUEST' ? { ...body, guestId } : body);
    const calls = cartRequests();
    const answered = await post(gateways.onUrl, text(mine));
    const byGateway = cartRequests() === calls;
    const forwarded = await post(gateways.offUrl, text(theirs));
    const shown = (answer: Answer, guestId: string) => ({
      status: answer.status,
      headers: Object.fromEntries(Object.entries(answer.headers).filter(([name]) => !NOT_COMPARED.has(name))),
      text: answer.text.replaceAll(guestId, 'GUEST').replace(TIMES, '"$1":"…"'),
    });
    expect({ body, before, ...shown(answered, mine) }).toEqual({ body, before, ...shown(forwarded, theirs) });
    for (const answer of [answered, forwarded])
      if (answer.status < 300) expect(answer.headers.etag).toBe(weakEtagOf(answer.text));
    expect({ body, before, stored: await storedAfter(mine) }).toEqual({
      body,
      before,
      stored: await storedAfter(theirs),
    });
    return { status: answered.status, byGateway };
  }

  beforeAll(async () => {
    shop = await startShop({ GUEST_CART_TTL_SECONDS: String(TTL_SECONDS) });
    ids = {
      plain: await addProduct(shop, { price: 19.99 }),
      few: await addProduct(shop, { price: 0.1, countInStock: 3 }),
      none: await addProduct(shop, { price: 120, countInStock: 0 }),
      bare: await addProduct(shop, { price: 25, sizes: [], colors: [], images: [] }),
      odd: await addProduct(shop, { price: 49.99, name: 'Naïve ſcarf “retro” 🏈 </script>', sizes: ['naïve', 'M'] }),
    };
    unpublished = await addProduct(shop, { price: 5, isPublished: false });
    // Inserted behind the catalog's back: turn its read model over as a write would.
    await shop.catalog.app.get(CatalogCache).invalidate();
    gateways = await startGatewayPair(shop, 'CART_GUEST_ADDS', { GUEST_CART_TTL_SECONDS: String(TTL_SECONDS) });
  }, 60_000);

  afterAll(async () => {
    await gateways?.close();
    if (shop) {
      const keys = await shop.redis.keys(`${namespace()}*`);
      if (keys.length) await shop.redis.del(...keys);
      await shop.close();
    }
  });

  it(`on generated adds to generated carts (seed ${seed})`, async () => {
    const sold = () => Object.values(ids);
    const storedLine = fc.record({
      productId: fc.oneof({ weight: 12, arbitrary: pick(sold()) }, { weight: 1, arbitrary: pick([unpublished]) }),
      size: pick(['', 'S', 'M', 'L', 'naïve']),
      color: pick(['', 'Green', 'White']),
      quantity: fc.oneof({ weight: 6, arbitrary: fc.integer({ min: 1, max: 99 }) }, pick([1, 2, 3, 98, 99])),
    });
    const before = fc.oneof(
      { weight: 3, arbitrary: fc.constant(null) },
      { weight: 6, arbitrary: fc.array(storedLine, { maxLength: 6 }).map(stored) },
      // A full cart: one line more is refused.
      {
        weight: 1,
        arbitrary: fc.constant(null).map(() =>
          stored(
            Array.from({ length: MAX_CART_LINES }, (_, n) => ({
              productId: ids.plain,
              size: `S${n}`,
              color: '',
              quantity: 1,
            })),
          ),
        ),
      },
    );
    const option = (values: unknown[]) =>
      fc.oneof({ weight: 6, arbitrary: pick(values) }, pick([undefined, '', ' M ', 5, null, 'x'.repeat(51), '\u0000']));
    const body = fc.record(
      {
        productId: fc.oneof(
          { weight: 10, arbitrary: pick(sold()) },
          pick([ids.plain.toUpperCase(), ` ${ids.few} `, unpublished, '64b7f9f9f9f9f9f9f9f9f9f9', 'abc', 5]),
        ),
        quantity: fc.oneof(
          { weight: 8, arbitrary: fc.integer({ min: 1, max: 5 }) },
          pick([0, 3, 99, 100, 1.5, '2', -1]),
        ),
        size: option(['S', 'M', 'L', 'naïve']),
        color: option(['Green', 'White']),
        guestId: fc.oneof({ weight: 12, arbitrary: fc.constant('GUEST') }, pick(['nope', ''])),
        userId: pick([null, '', '64b7f9f9f9f9f9f9f9f9f9fa']),
        note: pick(['gift', { $gt: '' }]),
      },
      { requiredKeys: ['productId', 'quantity', 'guestId'] },
    );
    // What the shop's pages send: the product's own options (a product without any, none), a small quantity.
    const plainBody = fc.oneof(
      fc.record({
        productId: pick([ids.plain, ids.few, ids.odd]),
        quantity: fc.integer({ min: 1, max: 3 }),
        size: pick(['M', 'S']),
        color: pick(['Green', 'White']),
        guestId: fc.constant('GUEST'),
      }),
      fc.record({
        productId: fc.constant(ids.bare),
        quantity: fc.integer({ min: 1, max: 3 }),
        guestId: fc.constant('GUEST'),
      }),
    );
    const cases = fc.sample(fc.tuple(before, fc.oneof(plainBody, body)), { numRuns: 160, seed });
    const written = async () =>
      (await registry.getSingleMetric('shop_carts_written_total')!.get()).values.reduce((n, v) => n + v.value, 0);
    const writtenBefore = await written();
    let byGateway = 0;
    for (const [cart, add] of cases) {
      const { status, byGateway: answered } = await same(cart, add);
      if (answered) byGateway += 1;
      // Every add the gateway may carry out (a plain body, every product of the cart on sale) and that succeeds is
      // carried out by it; it leaves the refusals to the cart service.
      const lines = cart === null ? [] : (JSON.parse(cart) as { lines: Array<{ productId: string }> }).lines;
      const guestId = add.guestId === 'GUEST' ? 'guest_x' : add.guestId;
      const plain = plainGuestAdd({ ...add, guestId }) !== undefined;
      const onSale = lines.every((l) => l.productId !== unpublished);
      expect({ add, cart, status, byGateway: answered }).toEqual({
        add,
        cart,
        status,
        byGateway: plain && onSale && status < 300,
      });
    }
    expect(byGateway).toBeGreaterThan(30);
    expect((await written()) - writtenBefore).toBe(byGateway);
  }, 180_000);

  const addTo = (base: string, guestId: string, line: Record<string, unknown>) =>
    post(base, JSON.stringify({ quantity: 1, size: 'M', color: 'Green', ...line, guestId }));
  const storedLines = async (guestId: string) =>
    (JSON.parse((await shop.redis.get(key(guestId))) ?? '{"lines":[]}') as { lines: Array<Record<string, unknown>> })
      .lines;

  it('takes turns with the cart service on one cart: concurrent adds through both lose nothing', async () => {
    const [guestId] = guestPair();
    const answers = await Promise.all([
      ...Array.from({ length: 20 }, () => addTo(gateways.onUrl, guestId, { productId: ids.plain })),
      ...Array.from({ length: 10 }, () => addTo(shop.cart.url, guestId, { productId: ids.plain })),
    ]);
    // One created the cart.
    expect(answers.map((a) => a.status).sort((a, b) => a - b)).toEqual([...Array<number>(29).fill(200), 201]);
    expect(await storedLines(guestId)).toEqual([{ productId: ids.plain, size: 'M', color: 'Green', quantity: 30 }]);

    // Twelve distinct lines at once, through both: twelve lines.
    const [other] = guestPair();
    const sizes = ['S', 'M', 'L'];
    const colors = ['Green', 'White'];
    const lines = [ids.plain, ids.few].flatMap((productId) =>
      sizes.flatMap((size) => colors.map((color) => ({ productId, size, color }))),
    );
    const made = await Promise.all(lines.map((line, n) => addTo(n % 3 ? gateways.onUrl : shop.cart.url, other, line)));
    expect(made.every((a) => a.status === 200 || a.status === 201)).toBe(true);
    expect((await storedLines(other)).length).toBe(12);
  }, 60_000);

  it('leaves an add to the cart service while a merge holds the cart, which waits for it', async () => {
    const [guestId] = guestPair();
    expect((await addTo(gateways.onUrl, guestId, { productId: ids.plain })).status).toBe(201);
    await shop.redis.set(`${namespace()}cart:lock:guest:${guestId}`, 'merge', 'PX', 500);
    const calls = cartRequests();
    const answer = await addTo(gateways.onUrl, guestId, { productId: ids.plain });
    expect(answer.status).toBe(200);
    expect(cartRequests() - calls).toBe(1);
    expect(await storedLines(guestId)).toEqual([{ productId: ids.plain, size: 'M', color: 'Green', quantity: 2 }]);
  }, 30_000);

  it('answers a JSON 503, and does not pass the add on, when its write was sent but not answered', async () => {
    const [guestId] = guestPair();
    const script = jest
      .spyOn(
        gateways.on.redis as unknown as { guestCartCompareAndSet: () => Promise<string> },
        'guestCartCompareAndSet',
      )
      .mockRejectedValueOnce(new Error('Command timed out'));
    try {
      const calls = cartRequests();
      const answer = await addTo(gateways.onUrl, guestId, { productId: ids.plain });
      expect(answer.status).toBe(503);
      expect(JSON.parse(answer.text)).toEqual({ statusCode: 503, message: 'Cart service is unavailable' });
      expect(cartRequests()).toBe(calls); // passed on, the add could have been made twice
      expect(script).toHaveBeenCalledTimes(1);
    } finally {
      script.mockRestore();
    }
    expect((await addTo(gateways.onUrl, guestId, { productId: ids.plain })).status).toBe(201);
  }, 30_000);

  it('leaves adds to the cart service while its copy is behind the version it follows', async () => {
    await gateways.copyCurrent();
    const [guestId] = guestPair();
    const version = Number(await shop.redis.get(gateways.versionKey));
    // A version announced that the copy cannot reach (nothing in the log, the catalog's snapshot older): behind.
    await shop.redis.publish(gateways.versionKey, String(version + 1));
    await eventually(() => gateways.on.catalogCache!.stats().version === String(version + 1));
    const calls = cartRequests();
    expect((await addTo(gateways.onUrl, guestId, { productId: ids.plain })).status).toBe(201);
    expect((await addTo(gateways.onUrl, guestId, { productId: ids.plain })).status).toBe(200);
    expect(cartRequests() - calls).toBe(2);

    // Caught up: the gateway's again.
    await shop.redis.incr(gateways.versionKey);
    await shop.catalog.app.get(CatalogCache).invalidate();
    await gateways.copyCurrent();
    const caughtUp = cartRequests();
    expect((await addTo(gateways.onUrl, guestId, { productId: ids.plain })).status).toBe(200);
    expect(cartRequests()).toBe(caughtUp);
    expect(await storedLines(guestId)).toEqual([{ productId: ids.plain, size: 'M', color: 'Green', quantity: 3 }]);
  }, 60_000);
});
