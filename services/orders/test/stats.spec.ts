// The admin dashboard: revenue of paid orders not cancelled, counts, recent orders and the last 30 days, with
// the product count asked of the real catalog (and shown as null, not an error, when the catalog is away).
import { STATS_DAYS, type AdminStatsJson } from '@shop/contracts';
import { request, startTestService, waitFor, type TestService } from '@shop/nest-common/testing';
import amqp from 'amqplib';
import { Types } from 'mongoose';
// The catalog is another service: its AppModule is started here as a real process would run it.
import { AppModule as CatalogAppModule } from '../../catalog/src/app.module';
import { ADMIN, paidCheckout, startOrders, withoutPayPalPayment, type OrdersHarness } from './orders.fixtures';

const DAY_MS = 86_400_000;

/** The last STATS_DAYS UTC dates, oldest first, worked out here rather than by the code under test. */
const lastDays = () =>
  Array.from({ length: STATS_DAYS }, (_, i) =>
    new Date(Date.now() - (STATS_DAYS - 1 - i) * DAY_MS).toISOString().slice(0, 10),
  );

describe('orders: the admin dashboard', () => {
  let h: OrdersHarness;
  let catalog: TestService;
  beforeAll(async () => {
    h = await startOrders();
    catalog = await startTestService('catalog', CatalogAppModule, { namespace: h.svc.namespace });
  }, 60_000);
  afterAll(async () => {
    // The namespace's exchange goes with the service that made the namespace: orders, last.
    await catalog?.close();
    await h?.close();
  });

  const stats = async () => {
    const res = await h.http('GET', '/api/admin/stats', ADMIN);
    expect(res.status).toBe(200);
    return res.body as AdminStatsJson;
  };

  /** An order of one line for `pence` (less `discountPence` off with a code), placed `daysAgo` days ago. */
  const placeOrder = async (pence: number, daysAgo = 0, discountPence = 0, paidByPayPal = true) => {
    const base = paidByPayPal ? paidCheckout() : withoutPayPalPayment(paidCheckout());
    const { order } = await h.create({
      ...base,
      orderItems: [{ ...base.orderItems[0], pricePence: pence, quantity: 1 }],
      totalPence: pence - discountPence,
      ...(discountPence ? { subtotalPence: pence, discount: { code: 'KICKOFF', amountPence: discountPence } } : {}),
    });
    if (daysAgo) {
      // Once the placed event is out, so that the relay's write and the test's date never meet (a clean-clone run
      // once saw the 3-days-old order count as today).
      await waitFor('the placed event out', async () => !(await h.orders.findById(order._id).lean())!.outboxPending);
      // Stamped as changed, as every write of the service stamps it: the dashboard's days follow `updatedAt`.
      await h.orders.collection.updateOne(
        { _id: new Types.ObjectId(order._id) },
        { $set: { createdAt: new Date(Date.now() - daysAgo * DAY_MS), updatedAt: new Date() } },
      );
    }
    return order;
  };

  it('sums the revenue (net of discounts) of paid orders not cancelled, counts orders and products, and draws the last 30 days', async () => {
    for (const name of ['Packers Home Jersey', 'Ravens Beanie']) {
      const created = await request(`${catalog.url}/api/admin/products`, {
        method: 'POST',
        token: catalog.token(ADMIN),
        body: { name, description: `${name}, official team merchandise.`, price: 25, category: 'Top Wear' },
      });
      expect(created.status).toBe(201);
    }
    const old = await placeOrder(1000, 40); // before the chart, still revenue
    const recent = await placeOrder(2000, 3);
    // Revenue is what was paid: a £120 order with £20 off counts £100.
    const today = await placeOrder(12000, 0, 2000);
    // No checkout runs here: an order with no PayPal payment on record cancels without a refund.
    const cancelled = await placeOrder(5000, 0, 0, false);
    expect(
      (await h.http('PUT', `/api/admin/orders/${cancelled._id}`, ADMIN, { status: 'Cancelled' })).body.status,
    ).toBe('Cancelled');

    const s = await stats();
    expect(s).toMatchObject({ revenue: 130, orders: 4, products: 2 });
    expect(s.recentOrders.map((o) => o._id)).toEqual([cancelled._id, today._id, recent._id, old._id]);
    expect(s.recentOrders[1]).toMatchObject({
      subtotal: 120,
      discount: { code: 'KICKOFF', amount: 20 },
      totalPrice: 100,
      status: 'Processing',
      user: today.user,
    });
    expect(s.recentOrders[1]).not.toHaveProperty('outbox');

    const days = lastDays();
    expect(s.revenueByDay.map((d) => d.date)).toEqual(days);
    const byDate = new Map(s.revenueByDay.map((d) => [d.date, d]));
    expect(byDate.get(days[STATS_DAYS - 1])).toEqual({ date: days[STATS_DAYS - 1], revenue: 100, orders: 2 });
    expect(byDate.get(days[STATS_DAYS - 4])).toEqual({ date: days[STATS_DAYS - 4], revenue: 20, orders: 1 });
    expect(s.revenueByDay.reduce((sum, d) => sum + d.revenue, 0)).toBe(120);
    expect(s.revenueByDay.reduce((sum, d) => sum + d.orders, 0)).toBe(3);
  });

  it('shows no product count, rather than failing, when the catalog does not answer', async () => {
    const alone = await startOrders({ RPC_TIMEOUT_MS: '500' });
    try {
      const started = Date.now();
      const res = await alone.http('GET', '/api/admin/stats', ADMIN);
      expect(Date.now() - started).toBeLessThan(3000);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        revenue: 0,
        orders: 0,
        products: null,
        recentOrders: [],
        revenueByDay: lastDays().map((date) => ({ date, revenue: 0, orders: 0 })),
        paymentAlerts: { count: 0, orders: [] },
      });
      expect(alone.svc.logs).toContainEqual(
        expect.objectContaining({ level: 'warn', msg: 'product count unavailable: the dashboard shows none' }),
      );
    } finally {
      await alone.close();
      // The request queue the catalog would have consumed, declared by the asking client.
      const connection = await amqp.connect(alone.svc.config.RABBITMQ_URL);
      await (await connection.createChannel()).deleteQueue(`${alone.svc.namespace}catalog_queue`);
      await connection.close();
    }
  });
});
