// Catalog with each of its dependencies refused or hung, then restored (issue 12), through TCP proxies this suite
// controls. Checkout's stock requests and orders' events reach RabbitMQ directly, as those services would.
// Public reads come from the in-memory read model, checked against the catalog version in Redis: they need no
// MongoDB while that version is known, and fall back to MongoDB while Redis is away. What does not need the
// dependency keeps working; what does answers a JSON 503 (over HTTP, or over RabbitMQ to checkout) well within the
// gateway's 10 s; /ready says which; everything recovers without a restart; no admin edit or stock reservation
// acknowledged before the fault is lost, and none is applied twice.
import {
  EVENTS,
  PATTERNS,
  type OrderPlacedEvent,
  type PriceLinesResponse,
  type ReserveStockResponse,
} from '@shop/contracts';
import { EventBus, namespacedExchange, RpcClient } from '@shop/nest-common';
import {
  NOT_READY,
  UNAVAILABLE,
  UNAVAILABLE_BOUND_MS,
  outcome,
  readiness,
  recovers,
  request,
  startWithFaultProxies,
  timed,
  type FaultyService,
  type Timed,
} from '@shop/nest-common/testing';
import { randomUUID } from 'node:crypto';
import { AppModule } from '../src/app.module';
import { CatalogCache } from '../src/cache/catalog-cache';
import { unitsOf, type StockHold } from '../src/stock/stock-hold';
import { adminToken, insertProducts, productModel, quietLogger } from './catalog.fixtures';

jest.setTimeout(120_000);

/** Checkout's RPC_TIMEOUT_MS default: a request nobody takes is a 503 after it. */
const RPC_TIMEOUT_MS = 5_000;
const RABBITMQ_URL = process.env.RABBITMQ_URL ?? 'amqp://guest:guest@127.0.0.1:5672';

type Body = {
  message?: string;
  statusCode?: number;
  price?: number;
  countInStock?: number;
  _id?: string;
};
type Answered<T> = { status: number; answer?: T; message?: string; ms: number };

describe('catalog when a dependency goes away', () => {
  let faulty: FaultyService;
  let rpc: RpcClient;
  let bus: EventBus;
  let admin: string;
  let n = 0;

  beforeAll(async () => {
    faulty = await startWithFaultProxies('catalog', AppModule);
    admin = adminToken(faulty.svc);
    // As checkout asks (its RPC_TIMEOUT_MS default) and orders announces, straight to the real broker.
    rpc = new RpcClient('catalog', { url: RABBITMQ_URL, namespace: faulty.svc.namespace, timeoutMs: RPC_TIMEOUT_MS });
    bus = new EventBus({
      url: RABBITMQ_URL,
      service: 'test',
      exchange: namespacedExchange(faulty.svc.namespace),
      logger: quietLogger,
    });
    await bus.start();
  }, 60_000);
  afterEach(() => faulty.restore());
  afterAll(async () => {
    await rpc?.onApplicationShutdown();
    await bus?.close();
    await faulty?.close();
  });

  const call = (path: string, init: Parameters<typeof request>[1] = {}): Promise<Timed<Body>> =>
    timed(() => request<Body>(`${faulty.svc.url}${path}`, init));
  /** A published product of its own for each test (10 in stock, £30), read once so the read model has it. */
  async function newProduct(): Promise<string> {
    const sku = `FAULT-${++n}-${randomUUID().slice(0, 8)}`;
    const ids = await insertProducts(faulty.svc, [
      { sku, name: `Fault ${sku}`, price: 30, category: 'Top Wear', gender: 'Men', brand: 'Chicago Bears' },
      {
        sku: `${sku}-B`,
        name: `Fault ${sku} B`,
        price: 25,
        category: 'Top Wear',
        gender: 'Men',
        brand: 'Chicago Bears',
      },
    ]);
    const id = ids.get(sku)!;
    expect((await product(id)).status).toBe(200);
    return id;
  }
  const product = (id: string) => call(`/api/products/${id}`);
  const edit = (id: string, fields: Record<string, unknown>) =>
    call(`/api/admin/products/${id}`, { method: 'PUT', body: fields, token: admin });
  const adminRead = (id: string) => call(`/api/admin/products/${id}`, { token: admin });
  const ready = () => call('/ready');
  /** Every public read the shop makes, at once as shoppers would. */
  const publicReads = (id: string): Promise<Timed[]> =>
    Promise.all(
      [
        `/api/products/${id}`,
        '/api/products?category=Top%20Wear&sortBy=priceAsc',
        '/api/products/new-arrivals',
        '/api/products/best-seller',
        `/api/products/similar/${id}`,
      ].map((path) => call(path)),
    );

  /** checkout → catalog over RabbitMQ, with the deadline checkout gives it: the answer, or the error it hears. */
  async function ask<T>(pattern: string, payload: unknown): Promise<Answered<T>> {
    const started = Date.now();
    try {
      const answer = await rpc.send<T>(pattern, payload);
      return { status: 200, answer, ms: Date.now() - started };
    } catch (err) {
      const e = err as { getStatus(): number; message: string };
      return { status: e.getStatus(), message: e.message, ms: Date.now() - started };
    }
  }
  const reserve = (checkoutId: string, productId: string, quantity: number) =>
    ask<ReserveStockResponse>(PATTERNS.catalog.reserveStock, {
      checkoutId,
      lines: [{ productId, quantity }],
      notAfter: new Date(Date.now() + RPC_TIMEOUT_MS - 1000).toISOString(),
    });
  const price = (productId: string) =>
    ask<PriceLinesResponse>(PATTERNS.catalog.priceLines, { lines: [{ productId, quantity: 1 }] });
  /** Stock and units held per checkout, from the database (MongoDB must be back). */
  async function stockOf(productId: string) {
    const doc = await productModel(faulty.svc)
      .findById(productId, { countInStock: 1, soldCount: 1, holds: 1 })
      .lean()
      .exec();
    const holds = Object.entries((doc!.holds ?? {}) as Record<string, StockHold>);
    return {
      countInStock: doc!.countInStock,
      soldCount: doc!.soldCount,
      held: Object.fromEntries(holds.map(([checkoutId, h]) => [checkoutId, `held ${unitsOf(h.lines)}`])),
    };
  }

  const expectUnavailable = (res: Timed<Body>) => expect(outcome(res)).toEqual(UNAVAILABLE);
  /** Checkout's view of a refused request: its RPC client's 503, in time. */
  const expectRefused = (res: Answered<unknown>) =>
    expect(outcome({ status: res.status, body: { statusCode: res.status, message: res.message }, ms: res.ms })).toEqual(
      UNAVAILABLE,
    );
  function expectAnswered(reads: Timed<Body>[]) {
    expect(reads.map((r) => r.status)).toEqual(reads.map(() => 200));
    for (const r of reads) expect(r.ms).toBeLessThan(UNAVAILABLE_BOUND_MS);
  }
  const expectReadyNames = async (dependency: string) =>
    expect(readiness(await ready(), dependency)).toEqual(NOT_READY);

  describe.each(['close', 'blackhole'] as const)('with the dependency %sd', (mode) => {
    it('MongoDB: public reads come from memory, edits and stock requests answer 503 in time; nothing lost, none doubled', async () => {
      const id = await newProduct();
      const held = randomUUID();
      expect((await edit(id, { price: 31 })).status).toBe(200);
      expect(await reserve(held, id, 2)).toMatchObject({ status: 200 });
      expect((await product(id)).body).toMatchObject({ price: 31, countInStock: 8 });
      await faulty.proxies.mongodb[mode]();

      // The catalog version is known and unchanged: every public read is answered from memory.
      const reads = await publicReads(id);
      expectAnswered(reads);
      expect(reads[0].body).toMatchObject({ price: 31, countInStock: 8 });
      // The rest waits for the database, each at once, as callers would. Meanwhile another replica changes the
      // catalogue: this one cannot catch up without the database, so it says so in time rather than answer from
      // a catalogue it knows is stale.
      const during = randomUUID();
      const [edited, adminGot, reserved, priced, stale] = await Promise.all([
        edit(id, { price: 32 }),
        adminRead(id),
        reserve(during, id, 1),
        price(id),
        faulty.svc.app
          .get(CatalogCache)
          .productsEdited([id])
          .then(() => product(id)),
        expectReadyNames('mongodb'),
      ]);
      expectUnavailable(edited);
      expectUnavailable(adminGot);
      expectRefused(reserved);
      expectRefused(priced);
      expectUnavailable(stale);

      await faulty.proxies.mongodb.open();
      await recovers('an admin read after MongoDB returned', async () => (await adminRead(id)).status === 200);
      // The edit acknowledged before is there, the refused one left nothing, the hold is held once.
      expect((await product(id)).body).toMatchObject({ price: 31, countInStock: 8 });
      expect(await stockOf(id)).toEqual({ countInStock: 8, soldCount: 0, held: { [held]: 'held 2' } });
      // Checkout's retries: the one held before changes nothing, the refused one holds now, once.
      expect(await reserve(held, id, 2)).toMatchObject({ status: 200 });
      expect(await reserve(during, id, 1)).toMatchObject({ status: 200 });
      expect(await reserve(during, id, 1)).toMatchObject({ status: 200 });
      expect(await stockOf(id)).toMatchObject({ countInStock: 7, held: { [held]: 'held 2', [during]: 'held 1' } });
      expect((await edit(id, { price: 32 })).body).toMatchObject({ price: 32 });
      expect((await product(id)).body).toMatchObject({ price: 32, countInStock: 7 });
      expect((await ready()).status).toBe(200);
    });

    it('Redis: public reads come from MongoDB, pricing works, admin routes and stock requests answer 503 in time; all recover', async () => {
      const id = await newProduct();
      const held = randomUUID();
      expect((await edit(id, { price: 33 })).status).toBe(200);
      expect(await reserve(held, id, 3)).toMatchObject({ status: 200 });
      await faulty.proxies.redis[mode]();

      // Without the catalog version the read model cannot tell it is current: the database answers instead, and
      // once the version could not be read, without waiting on Redis again for a while.
      const reads = await publicReads(id);
      expectAnswered(reads);
      expect(reads[0].body).toMatchObject({ price: 33, countInStock: 7 });
      const next = await publicReads(id);
      expectAnswered(next);
      expect(Math.max(...next.map((r) => r.ms))).toBeLessThan(1000);
      // Pricing needs only the database.
      const priced = await price(id);
      expect(priced).toMatchObject({ status: 200, answer: { ok: true, lines: [{ unitPricePence: 3300 }] } });
      expect(priced.ms).toBeLessThan(UNAVAILABLE_BOUND_MS);
      // A token cannot be checked against its revocation record: refused, not trusted; a stock change needs the
      // change feed (every replica's read model hears of it there).
      const during = randomUUID();
      const [adminGot, edited, reserved] = await Promise.all([
        adminRead(id),
        edit(id, { price: 34 }),
        reserve(during, id, 1),
        expectReadyNames('redis'),
      ]);
      expectUnavailable(adminGot);
      expectUnavailable(edited);
      expectRefused(reserved);
      expect((await call('/health')).status).toBe(200);

      await faulty.proxies.redis.open();
      await recovers('an admin read after Redis returned', async () => (await adminRead(id)).status === 200);
      expect((await product(id)).body).toMatchObject({ price: 33, countInStock: 7 });
      expect(await stockOf(id)).toEqual({ countInStock: 7, soldCount: 0, held: { [held]: 'held 3' } });
      expect(await reserve(during, id, 1)).toMatchObject({ status: 200 });
      expect(await reserve(held, id, 3)).toMatchObject({ status: 200 });
      expect((await edit(id, { price: 34 })).body).toMatchObject({ price: 34 });
      // The read model is back in use and caught up with both writes.
      expect((await product(id)).body).toMatchObject({ price: 34, countInStock: 6 });
      expect((await ready()).status).toBe(200);
    });

    it('RabbitMQ: reads and admin edits keep working, a reservation answers 503 in time and is never applied late; an order placed meanwhile sells once; all recover', async () => {
      const id = await newProduct();
      const held = randomUUID();
      expect(await reserve(held, id, 2)).toMatchObject({ status: 200 });
      await faulty.proxies.rabbitmq[mode]();

      expectAnswered(await publicReads(id));
      const edited = await edit(id, { price: 35 });
      expect(edited).toMatchObject({ status: 200, body: { price: 35 } });
      expect(edited.ms).toBeLessThan(UNAVAILABLE_BOUND_MS);
      expect((await product(id)).body).toMatchObject({ price: 35, countInStock: 8 });
      // Nobody takes checkout's request meanwhile: a 503 when its deadline passes.
      const during = randomUUID();
      const refused = reserve(during, id, 1);
      // Orders announces the held checkout's order while the catalog cannot hear it: the durable queue keeps it.
      const order: OrderPlacedEvent = {
        orderId: randomUUID(),
        checkoutId: held,
        userId: randomUUID(),
        items: [{ productId: id, quantity: 2 }],
      };
      await bus.publish(EVENTS.orders.orderPlaced, order, { eventId: `orders.order.placed:${held}` });
      // A refused connection shows at once; a hung broker after the missed heartbeats.
      await recovers('/ready reporting RabbitMQ', async () => (await ready()).status === 503);
      expect((await ready()).body.message).toMatch(/rabbitmq/);
      expectRefused(await refused);

      await faulty.proxies.rabbitmq.open();
      // Sold: the hold and the sale in one write.
      await recovers('the order’s units sold', async () => (await stockOf(id)).soldCount === 2);
      // The request checkout gave up on was never applied; its retry holds once.
      expect(await stockOf(id)).toEqual({ countInStock: 8, soldCount: 2, held: {} });
      await recovers('a reservation answered', async () => (await reserve(during, id, 1)).status === 200);
      expect(await reserve(during, id, 1)).toMatchObject({ status: 200 });
      expect(await stockOf(id)).toMatchObject({ countInStock: 7, soldCount: 2 });
      expect((await product(id)).body).toMatchObject({ price: 35, countInStock: 7 });
      await recovers('/ready after RabbitMQ returned', async () => (await ready()).status === 200);
    });
  });
});
