// The dashboard's sales days (src/stats/sales-days.ts) against the real servers: the figures they give are the ones
// worked out here from every order, after changes made through the service's own routes, after concurrent
// recomputes, and after a start over orders placed before the days existed.
import { SHIPPING_METHOD, STATS_DAYS, type AdminStatsJson, type OrderStatus } from '@shop/contracts';
import { REDIS } from '@shop/nest-common';
import { waitFor, withDatabase } from '@shop/nest-common/testing';
import type Redis from 'ioredis';
import { Types } from 'mongoose';
import { ORDER_REMOVALS } from '../src/orders/order-removals';
import { rebuildSalesDays } from '../src/stats/sales-day.schema';
import { SALES_DAYS_BUILDING, SalesDays } from '../src/stats/sales-days';
import { ADMIN, paidCheckout, startOrders, withoutPayPalPayment, type OrdersHarness } from './orders.fixtures';

const DAY_MS = 86_400_000;
// Only the dashboard's reads catch up (no timer between a change and the read); the catalog is not asked for long.
const ENV = { SALES_DAYS_SWEEP_MS: '3600000', RPC_TIMEOUT_MS: '200' };

interface Drawn {
  daysAgo: number;
  totalPence: number;
  isPaid?: boolean;
  status?: OrderStatus;
  refundPence?: number;
}

/** An order as the database holds it, placed `daysAgo` days ago (less `i` minutes), written straight to it. */
function orderDoc(i: number, d: Drawn, updatedAt?: Date) {
  const req = paidCheckout();
  const at = new Date(Date.now() - d.daysAgo * DAY_MS - i * 60_000);
  const status = d.status ?? 'Processing';
  return {
    _id: new Types.ObjectId(),
    user: req.user,
    checkoutId: req.checkoutId,
    orderItems: req.orderItems,
    shippingAddress: req.shippingAddress,
    paymentMethod: 'PayPal',
    shippingMethod: SHIPPING_METHOD,
    totalPence: d.totalPence,
    isPaid: d.isPaid ?? true,
    paidAt: at,
    paymentStatus: 'paid',
    isDelivered: status === 'Delivered',
    status,
    statusHistory: [
      { status: 'Processing', at },
      ...(d.refundPence ? [{ status, at, refund: { id: `R-${i}`, amountPence: d.refundPence } }] : []),
    ],
    outbox: [],
    outboxPending: false,
    createdAt: at,
    updatedAt: updatedAt ?? at,
  };
}

type Doc = ReturnType<typeof orderDoc>;

/** Orders of every kind over 45 days, today included. */
function drawOrders(count: number): Drawn[] {
  const statuses: OrderStatus[] = ['Processing', 'Shipped', 'Delivered', 'Cancelled'];
  return Array.from({ length: count }, (_, i) => ({
    daysAgo: (i * 7) % 45,
    totalPence: 500 + ((i * 1237) % 20_000),
    isPaid: i % 11 !== 5,
    status: statuses[i % 4],
    refundPence: i % 5 === 0 ? (i * 331) % 6_000 : 0,
  }));
}

/** What the dashboard should say of these orders, worked out from each of them (docs/product.md#business-constants). */
function expectedFigures(docs: Doc[]): Pick<AdminStatsJson, 'revenue' | 'orders' | 'revenueByDay'> {
  const earned = (o: Doc) =>
    o.isPaid && o.status !== 'Cancelled'
      ? Math.max(0, o.totalPence - o.statusHistory.reduce((sum, e) => sum + (e.refund?.amountPence ?? 0), 0))
      : 0;
  const dates = Array.from({ length: STATS_DAYS }, (_, i) =>
    new Date(Date.now() - (STATS_DAYS - 1 - i) * DAY_MS).toISOString().slice(0, 10),
  );
  const onDay = (date: string) => docs.filter((o) => o.createdAt.toISOString().slice(0, 10) === date);
  return {
    revenue: docs.reduce((sum, o) => sum + earned(o), 0) / 100,
    orders: docs.length,
    revenueByDay: dates.map((date) => ({
      date,
      revenue: onDay(date).reduce((sum, o) => sum + earned(o), 0) / 100,
      orders: onDay(date).length,
    })),
  };
}

describe('orders: the dashboard from its sales days', () => {
  let h: OrdersHarness;
  beforeAll(async () => {
    h = await startOrders(ENV);
  }, 60_000);
  afterAll(async () => {
    await h?.close();
  });

  const stats = async (of = h) => {
    const res = await of.http('GET', '/api/admin/stats', ADMIN);
    expect(res.status).toBe(200);
    return res.body as AdminStatsJson;
  };
  /** Every order in the database now, as the expected figures read them. */
  const allOrders = () => h.orders.collection.find({}).toArray() as unknown as Promise<Doc[]>;

  it('gives the figures worked out from every order: paid or not, cancelled, refunded, over several days and today', async () => {
    const docs = drawOrders(120).map((d, i) => orderDoc(i, d, new Date()));
    await h.orders.collection.insertMany(docs);
    const s = await stats();
    expect(s).toMatchObject(expectedFigures(docs));
    expect(s.revenueByDay.some((d) => d.orders > 0 && d.revenue > 0)).toBe(true);
    expect(s.products).toBeNull();
    const newest = [...docs].sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime()).slice(0, 5);
    expect(s.recentOrders.map((o) => o._id)).toEqual(newest.map((o) => o._id.toHexString()));
  });

  it('shows each change made through the service on the next read: placed, delivered, cancelled, refunded, removed', async () => {
    const check = async () => expect(await stats()).toMatchObject(expectedFigures(await allOrders()));
    const [tenDaysAgo, fiveDaysAgo] = [
      orderDoc(0, { daysAgo: 10, totalPence: 7777 }, new Date()),
      orderDoc(0, { daysAgo: 5, totalPence: 3333 }, new Date()),
    ];
    await h.orders.collection.insertMany([tenDaysAgo, fiveDaysAgo]);
    await check();

    const { order: placed } = await h.create(withoutPayPalPayment(paidCheckout()));
    const before = await stats();
    await check();
    expect(before.recentOrders[0]._id).toBe(placed._id);

    const put = (id: string, status: OrderStatus) => h.http('PUT', `/api/admin/orders/${id}`, ADMIN, { status });
    expect((await put(placed._id, 'Delivered')).status).toBe(200);
    await check();
    // An order placed ten days ago, cancelled today: its own day loses its revenue.
    expect((await put(tenDaysAgo._id.toHexString(), 'Cancelled')).status).toBe(200);
    await check();
    expect((await stats()).revenue).toBeCloseTo(before.revenue - 77.77, 2);

    // A refunded cancellation and a partial refund, written as the service writes them (a model update: stamped).
    const { order: refunded } = await h.create(paidCheckout());
    await check();
    await waitFor('the placed event out', async () => !(await h.orders.findById(refunded._id).lean())!.outboxPending);
    await h.orders.updateOne(
      { _id: refunded._id },
      {
        $set: {
          status: 'Cancelled',
          statusHistory: [
            { status: 'Processing', at: new Date() },
            {
              status: 'Cancelled',
              at: new Date(),
              refund: { id: 'REFUND-1', amountPence: Math.round(refunded.totalPrice * 100) },
            },
          ],
        },
      },
    );
    await check();
    await h.orders.updateOne(
      { _id: placed._id },
      {
        $push: {
          statusHistory: { status: 'Delivered', at: new Date(), refund: { id: 'REFUND-2', amountPence: 1000 } },
        },
      },
    );
    await check();

    const removed = await h.http('DELETE', `/api/admin/orders/${fiveDaysAgo._id.toHexString()}`, ADMIN);
    expect(removed.status).toBe(200);
    await check();
    expect(
      await h.orders.db.collection<{ _id: string }>(ORDER_REMOVALS).findOne({ _id: fiveDaysAgo._id.toHexString() }),
    ).toMatchObject({ createdAt: fiveDaysAgo.createdAt });
  });

  it('recomputes only the days of what changed since the last read, not of all it finds within the overlap', async () => {
    const salesDays = h.svc.app.get(SalesDays);
    await stats();
    const recompute = jest.spyOn(salesDays, 'recomputeDay');
    try {
      await stats();
      expect(recompute).not.toHaveBeenCalled();
      const { order } = await h.create(withoutPayPalPayment(paidCheckout()));
      await stats();
      expect(recompute.mock.calls).toEqual([[new Date(order.createdAt).toISOString().slice(0, 10)]]);
    } finally {
      recompute.mockRestore();
    }
  });

  it('answers 503 while the days are first built, then the figures of every order', async () => {
    // As on the first start over existing orders, or after the synthetic seed: no watermark. The oldest day's lock held a moment keeps the build
    // from finishing before the read gives up waiting for it.
    await rebuildSalesDays(h.orders.db);
    const oldest = (await allOrders()).map((o) => o.createdAt.toISOString().slice(0, 10)).sort()[0];
    const redis = h.svc.app.get<Redis>(REDIS);
    await redis.set(`${h.svc.namespace}orders:sales-day:${oldest}`, 'a test', 'PX', 3500);
    const res = await h.http('GET', '/api/admin/stats', ADMIN);
    expect(res).toMatchObject({ status: 503, body: { message: SALES_DAYS_BUILDING } });
    await waitFor(
      'the days built',
      async () => (await h.http('GET', '/api/admin/stats', ADMIN)).status === 200,
      15_000,
    );
    expect(await stats()).toMatchObject(expectedFigures(await allOrders()));
  });
});

describe('orders: concurrent recomputes of a sales day', () => {
  it('ends exact when recomputes of a day run at once while its orders change, in two replicas', async () => {
    // Each order at noon of the day, so none falls on the day before.
    const day = new Date(Date.now() - 50 * DAY_MS).toISOString().slice(0, 10);
    const docs = Array.from({ length: 30 }, (_, i) => {
      const doc = orderDoc(i, { daysAgo: 50, totalPence: 1000 + i });
      doc.createdAt = doc.paidAt = new Date(`${day}T12:${String(i).padStart(2, '0')}:00Z`);
      return doc;
    });
    const h = await startOrders(ENV);
    // A second replica: the same database and namespace, so the same locks (closing either drops the database: both
    // close at the end).
    const replica = await startOrders({
      ...ENV,
      MONGO_URI: h.svc.config.MONGO_URI,
      RABBITMQ_NAMESPACE: h.svc.config.RABBITMQ_NAMESPACE,
    });
    try {
      await h.orders.collection.insertMany(docs);
      const mine = h.svc.app.get(SalesDays);
      const theirs = replica.svc.app.get(SalesDays);
      const sales = h.orders.db.collection<{ _id: string; orders: number; revenuePence: number }>('sales_days');
      for (const [i, doc] of docs.slice(0, 10).entries()) {
        // One recompute starts, the order changes, another starts at once in each replica.
        const change = async () => {
          await h.orders.updateOne({ _id: doc._id }, { $set: { status: 'Cancelled' } });
          await Promise.all([mine.recomputeDay(day), theirs.recomputeDay(day)]);
        };
        await Promise.all([theirs.recomputeDay(day), mine.recomputeDay(day), change()]);
        const earning = docs.slice(i + 1).reduce((sum, d) => sum + d.totalPence, 0);
        expect(await sales.findOne({ _id: day })).toMatchObject({ orders: 30, revenuePence: earning });
      }
    } finally {
      await replica.close();
      await h.close();
    }
  });
});

describe('orders: a start over orders placed before the sales days', () => {
  it('builds every day from the orders there are', async () => {
    const first = await startOrders(ENV);
    let second: OrdersHarness | undefined;
    try {
      // Orders as the synthetic seed or an older version left them: last changed when placed, long before any
      // watermark, so only the build counts them. A second service then starts over the same database.
      const docs = drawOrders(200).map((d, i) => orderDoc(i, { ...d, daysAgo: d.daysAgo * 8 }));
      const dbName = `${first.orders.db.name}_built`;
      await first.orders.db.getClient().db(dbName).collection('orders').insertMany(docs);
      second = await startOrders({ ...ENV, MONGO_URI: withDatabase(first.svc.config.MONGO_URI, dbName) });
      // The build runs in the background: "being worked out" (503) until it is done, however long a busy box takes.
      const started = second;
      await waitFor(
        'the first build of the sales days',
        async () => (await started.http('GET', '/api/admin/stats', ADMIN)).status !== 503,
        60_000,
      );
      const s = await stats(second);
      expect(s).toMatchObject(expectedFigures(docs));
      expect(await second.orders.db.collection('sales_days').countDocuments()).toBe(
        new Set(docs.map((o) => o.createdAt.toISOString().slice(0, 10))).size,
      );
    } finally {
      await second?.close();
      await first.close();
    }

    async function stats(of: OrdersHarness) {
      const res = await of.http('GET', '/api/admin/stats', ADMIN);
      expect(res.status).toBe(200);
      return res.body as AdminStatsJson;
    }
  }, 90_000);
});
