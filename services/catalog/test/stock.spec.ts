import { getModelToken } from '@nestjs/mongoose';
import {
  EVENTS,
  PATTERNS,
  type CountProductsResponse,
  type OrderPlacedEvent,
  type PriceLinesResponse,
  type ReleaseStockResponse,
  type ReserveStockResponse,
} from '@shop/contracts';
import { EventBus, RpcClient } from '@shop/nest-common';
import { request, type TestService } from '@shop/nest-common/testing';
import type { Model } from 'mongoose';
import { randomUUID } from 'node:crypto';
import { Reservation } from '../src/stock/reservation.schema';
import { StockService } from '../src/stock/stock.service';
import {
  eventually,
  insertProducts,
  productModel,
  sleep,
  startCatalog,
  type ProductFixture,
  quietLogger,
} from './catalog.fixtures';

const item = (sku: string, countInStock: number, extra: Partial<ProductFixture> = {}): ProductFixture => ({
  sku,
  name: `Test ${sku}`,
  price: 20,
  category: 'Top Wear',
  gender: 'Men',
  brand: 'Baltimore Ravens',
  sizes: ['M', 'L'],
  colors: ['Purple'],
  countInStock,
  ...extra,
});

describe('catalog: pricing and stock over RabbitMQ', () => {
  let svc: TestService;
  let rpc: RpcClient;
  let bus: EventBus;

  const send = <T>(pattern: string, payload: unknown) => rpc.send<T>(pattern, payload);
  const reserve = (checkoutId: string, lines: unknown[], ttlSeconds?: number) =>
    send<ReserveStockResponse>(PATTERNS.catalog.reserveStock, {
      checkoutId,
      lines,
      ...(ttlSeconds ? { ttlSeconds } : {}),
    });
  const release = (checkoutId: string) => send<ReleaseStockResponse>(PATTERNS.catalog.releaseStock, { checkoutId });
  /** What a shopper sees: the public product's stock. */
  const stockOf = async (id: string) => (await request(`${svc.url}/api/products/${id}`)).body.countInStock as number;
  const reservations = () => svc.app.get<Model<Reservation>>(getModelToken(Reservation.name));
  const heldFor = async (productId: string) =>
    (await reservations().find({ productId, status: 'held' }).lean()).reduce((sum, r) => sum + r.quantity, 0);
  const errorOf = (p: Promise<unknown>) =>
    p.then(
      () => undefined,
      (e: { getStatus(): number; message: string }) => ({ status: e.getStatus(), message: e.message }),
    );

  beforeAll(async () => {
    svc = await startCatalog({ RESERVATION_SWEEP_MS: '200' });
    rpc = new RpcClient('catalog', { url: svc.config.RABBITMQ_URL, namespace: svc.namespace, timeoutMs: 20_000 });
    bus = new EventBus({
      url: svc.config.RABBITMQ_URL,
      service: `${svc.namespace}orders`,
      exchange: `${svc.namespace}shop.events`,
      logger: quietLogger,
    });
    await bus.start();
  }, 60_000);
  afterAll(async () => {
    await rpc.onApplicationShutdown();
    await bus.close();
    await svc.close();
  });

  it('holds nothing for a request that reaches the locks after its caller gave up (notAfter)', async () => {
    const ids = await insertProducts(svc, [item('LATE', 3)]);
    const productId = ids.get('LATE')!;
    const late = await errorOf(
      send(PATTERNS.catalog.reserveStock, {
        checkoutId: randomUUID(),
        lines: [{ productId, quantity: 2, size: 'M', color: 'Purple' }],
        notAfter: new Date(Date.now() - 1).toISOString(),
      }),
    );
    expect(late).toEqual({ status: 503, message: 'The reservation request expired' });
    expect(await stockOf(productId)).toBe(3);
    const inTime = await send<ReserveStockResponse>(PATTERNS.catalog.reserveStock, {
      checkoutId: randomUUID(),
      lines: [{ productId, quantity: 2, size: 'M', color: 'Purple' }],
      notAfter: new Date(Date.now() + 60_000).toISOString(),
    });
    expect(inTime.lines).toEqual([expect.objectContaining({ productId, quantity: 2 })]);
    expect(await stockOf(productId)).toBe(1);
  });

  it('counts every product, published or not, for the admin dashboard', async () => {
    const before = (await send<CountProductsResponse>(PATTERNS.catalog.countProducts, {})).products;
    await insertProducts(svc, [item('C-PUB', 1), item('C-DRAFT', 1, { isPublished: false })]);
    expect(await send<CountProductsResponse>(PATTERNS.catalog.countProducts, {})).toEqual({ products: before + 2 });
  });

  it('prices lines with the current price, options and stock, or says why a line cannot be sold', async () => {
    const ids = await insertProducts(svc, [
      item('P-OK', 5, { price: 39.99 }),
      item('P-LOW', 2),
      item('P-NONE', 0),
      item('P-DRAFT', 5, { isPublished: false }),
    ]);
    const res = await send<PriceLinesResponse>(PATTERNS.catalog.priceLines, {
      lines: [
        { productId: ids.get('P-OK'), quantity: 2, size: 'M', color: 'Purple' },
        { productId: ids.get('P-OK'), quantity: 1, size: 'XXL', color: 'Purple' },
        { productId: ids.get('P-OK'), quantity: 1, size: 'M', color: 'Pink' },
        { productId: ids.get('P-OK'), quantity: 100, size: 'M', color: 'Purple' },
        { productId: ids.get('P-LOW'), quantity: 3 },
        { productId: ids.get('P-NONE'), quantity: 1 },
        { productId: ids.get('P-DRAFT'), quantity: 1 },
        { productId: '64b7f9f9f9f9f9f9f9f9f9f0', quantity: 1 },
        { productId: 'nope', quantity: 1 },
      ],
    });
    expect(res.lines[0]).toEqual({
      productId: ids.get('P-OK'),
      quantity: 2,
      size: 'M',
      color: 'Purple',
      ok: true,
      name: 'Test P-OK',
      image: '/uploads/seed/p-ok-1.svg',
      unitPricePence: 3999,
      price: 39.99,
      sizes: ['M', 'L'],
      colors: ['Purple'],
      countInStock: 5,
    });
    expect(res.lines.map((l) => [l.ok, l.problem, l.message])).toEqual([
      [true, undefined, undefined],
      [false, 'size_not_offered', 'Size XXL is not offered for Test P-OK'],
      [false, 'color_not_offered', 'Color Pink is not offered for Test P-OK'],
      [false, 'invalid_quantity', 'Quantity must be a whole number from 1 to 99'],
      [false, 'insufficient_stock', 'Only 2 left in stock'],
      [false, 'out_of_stock', 'Test P-NONE is out of stock'],
      [false, 'not_found', 'Product not found'],
      [false, 'not_found', 'Product not found'],
      [false, 'invalid_product_id', 'Invalid product id'],
    ]);
    expect(res.totalPence).toBe(7998);
    expect(res.ok).toBe(false);
  });

  it('holds stock for a checkout, all lines or none, and refuses what is not there', async () => {
    const ids = await insertProducts(svc, [item('R-A', 5), item('R-B', 1)]);
    const [a, b] = [ids.get('R-A')!, ids.get('R-B')!];
    const refused = await errorOf(
      reserve('co-none', [
        { productId: a, quantity: 2 },
        { productId: b, quantity: 2 },
      ]),
    );
    expect(refused).toEqual({ status: 409, message: 'Only 1 left in stock for Test R-B' });
    expect([await stockOf(a), await stockOf(b)]).toEqual([5, 1]); // nothing held

    const held = await reserve('co-1', [
      { productId: a, quantity: 2, size: 'M', color: 'Purple' },
      { productId: a, quantity: 1, size: 'L', color: 'Purple' },
      { productId: b, quantity: 1 },
    ]);
    expect(held.lines).toEqual([
      { productId: a, quantity: 3, name: 'Test R-A', unitPricePence: 2000 },
      { productId: b, quantity: 1, name: 'Test R-B', unitPricePence: 2000 },
    ]);
    expect(new Date(held.expiresAt).getTime()).toBeGreaterThan(Date.now() + 10 * 60_000);
    expect([await stockOf(a), await stockOf(b)]).toEqual([2, 0]);

    // The same checkout again holds nothing more.
    await reserve('co-1', [
      { productId: a, quantity: 3 },
      { productId: b, quantity: 1 },
    ]);
    expect([await stockOf(a), await stockOf(b)]).toEqual([2, 0]);
    expect(await errorOf(reserve('co-2', [{ productId: b, quantity: 1 }]))).toEqual({
      status: 409,
      message: 'Test R-B is out of stock',
    });
  });

  it.each<[string, unknown, number, string]>([
    [
      'no checkout id',
      { lines: [{ productId: '64b7f9f9f9f9f9f9f9f9f9f0', quantity: 1 }] },
      400,
      'checkoutId is required',
    ],
    ['no lines', { checkoutId: 'c', lines: [] }, 400, 'No items to reserve'],
    [
      'a malformed product id',
      { checkoutId: 'c', lines: [{ productId: { $ne: null }, quantity: 1 }] },
      400,
      'Invalid product id',
    ],
    [
      'a zero quantity',
      { checkoutId: 'c', lines: [{ productId: '64b7f9f9f9f9f9f9f9f9f9f0', quantity: 0 }] },
      400,
      'Quantity must be a whole number from 1 to 99',
    ],
    [
      'an unknown product',
      { checkoutId: 'c', lines: [{ productId: '64b7f9f9f9f9f9f9f9f9f9f0', quantity: 1 }] },
      404,
      'Product not found',
    ],
  ])('answers a reservation with %s with a clear error', async (_what, payload, status, message) => {
    expect(await errorOf(send(PATTERNS.catalog.reserveStock, payload))).toEqual({ status, message });
  });

  it('sells the last unit once when 50 buyers reserve it at the same moment', async () => {
    const id = (await insertProducts(svc, [item('RACE-LAST', 1)])).get('RACE-LAST')!;
    const results = await Promise.allSettled(
      Array.from({ length: 50 }, (_, i) => reserve(`race-${i}`, [{ productId: id, quantity: 1 }])),
    );
    const won = results.filter((r) => r.status === 'fulfilled');
    expect(won).toHaveLength(1);
    for (const r of results) {
      if (r.status === 'rejected') expect((r.reason as { getStatus(): number }).getStatus()).toBe(409);
    }
    const doc = await productModel(svc).findById(id).lean();
    expect(doc!.countInStock).toBe(0);
    expect(await heldFor(id)).toBe(1); // reserved + available = the 1 unit there was
  }, 60_000);

  it('loses no update when 20 buyers take one unit each from a stock of 12', async () => {
    const id = (await insertProducts(svc, [item('RACE-MANY', 12)])).get('RACE-MANY')!;
    const results = await Promise.allSettled(
      Array.from({ length: 20 }, (_, i) => reserve(`many-${i}`, [{ productId: id, quantity: 1 }])),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(12);
    expect(await stockOf(id)).toBe(0);
    expect(await heldFor(id)).toBe(12);
  }, 60_000);

  it('gives back a released reservation once, however often it is released', async () => {
    const id = (await insertProducts(svc, [item('REL', 5)])).get('REL')!;
    await reserve('co-rel', [{ productId: id, quantity: 3 }]);
    expect(await stockOf(id)).toBe(2);
    const results = await Promise.all([release('co-rel'), release('co-rel'), release('co-rel')]);
    expect(results.flatMap((r) => r.released)).toEqual([{ productId: id, quantity: 3 }]);
    expect(await release('co-rel')).toEqual({ checkoutId: 'co-rel', released: [] });
    expect(await stockOf(id)).toBe(5);
  });

  it('releases an expired reservation by itself', async () => {
    const id = (await insertProducts(svc, [item('EXP', 4)])).get('EXP')!;
    await reserve('co-exp', [{ productId: id, quantity: 4 }], 1);
    expect(await stockOf(id)).toBe(0);
    await eventually(async () => (await stockOf(id)) === 4);
    expect(await heldFor(id)).toBe(0);
    // Another buyer can now have them.
    await reserve('co-exp-2', [{ productId: id, quantity: 4 }]);
    expect(await stockOf(id)).toBe(0);
  });

  it('commits held units when the order is placed, once, and gives them back once when it is cancelled', async () => {
    const ids = await insertProducts(svc, [item('ORD', 6, { rating: 1 }), item('ORD-DIRECT', 3, { rating: 1 })]);
    const [id, direct] = [ids.get('ORD')!, ids.get('ORD-DIRECT')!];
    await reserve('co-ord', [{ productId: id, quantity: 2 }], 2);
    expect(await stockOf(id)).toBe(4);

    const placed: OrderPlacedEvent = {
      orderId: 'order-1',
      checkoutId: 'co-ord',
      userId: '64b7f9f9f9f9f9f9f9f9f9fa',
      items: [
        { productId: id, quantity: 2, size: 'M', color: 'Purple' },
        { productId: direct, quantity: 1, size: 'M', color: 'Purple' },
      ],
    };
    const eventId = randomUUID();
    await bus.publish(EVENTS.orders.orderPlaced, placed, { eventId });
    await bus.publish(EVENTS.orders.orderPlaced, placed, { eventId }); // redelivered
    await bus.publish(EVENTS.orders.orderPlaced, placed); // published twice by mistake
    await eventually(async () => (await stockOf(direct)) === 2);
    await sleep(2500); // past the reservation's expiry: sold units do not come back
    expect([await stockOf(id), await stockOf(direct)]).toEqual([4, 2]);
    const sold = await productModel(svc)
      .find({ _id: { $in: [id, direct] } }, { sku: 1, soldCount: 1 })
      .lean();
    expect(Object.fromEntries(sold.map((p) => [p.sku, p.soldCount]))).toEqual({ ORD: 2, 'ORD-DIRECT': 1 });
    expect((await request(`${svc.url}/api/products/best-seller`)).body._id).toBe(id); // most units sold
    expect(await release('co-ord')).toEqual({ checkoutId: 'co-ord', released: [] });

    const cancelled = { ...placed };
    await bus.publish(EVENTS.orders.orderCancelled, cancelled);
    await bus.publish(EVENTS.orders.orderCancelled, cancelled);
    await eventually(async () => (await stockOf(id)) === 6 && (await stockOf(direct)) === 3);
    await sleep(500);
    expect([await stockOf(id), await stockOf(direct)]).toEqual([6, 3]);
    // A late duplicate of "placed" does not sell the cancelled order's units again.
    await bus.publish(EVENTS.orders.orderPlaced, placed);
    await sleep(800);
    expect([await stockOf(id), await stockOf(direct)]).toEqual([6, 3]);
  }, 30_000);

  it('finishes a reservation whose writer died half-way, without losing or doubling units', async () => {
    const ids = await insertProducts(svc, [item('CRASH-BEFORE', 5), item('CRASH-AFTER', 5)]);
    const [before, after] = [ids.get('CRASH-BEFORE')!, ids.get('CRASH-AFTER')!];
    const old = new Date(Date.now() - 60_000);
    const expiresAt = new Date(Date.now() + 600_000);
    // Died before its stock write: the pending record must not hold anything.
    await reservations().collection.insertOne({
      checkoutId: 'crash-1',
      productId: before,
      quantity: 2,
      status: 'pending',
      generation: 0,
      expiresAt,
      createdAt: old,
      updatedAt: old,
    });
    // Died after its stock write (the journal has the key) but before marking itself held.
    const { insertedId } = await reservations().collection.insertOne({
      checkoutId: 'crash-2',
      productId: after,
      quantity: 2,
      status: 'pending',
      generation: 0,
      expiresAt,
      createdAt: old,
      updatedAt: old,
    });
    await productModel(svc).updateOne(
      { _id: after },
      { $set: { countInStock: 3, stockJournal: [`${String(insertedId)}:0:hold`] } },
    );

    await svc.app.get(StockService).sweep();
    const records = await reservations()
      .find({ checkoutId: { $in: ['crash-1', 'crash-2'] } })
      .sort({ checkoutId: 1 })
      .lean();
    expect(records.map((r) => r.status)).toEqual(['released', 'held']);
    expect([await stockOf(before), await stockOf(after)]).toEqual([5, 3]);
    expect((await release('crash-2')).released).toEqual([{ productId: after, quantity: 2 }]);
    expect(await stockOf(after)).toBe(5);
  });
});
