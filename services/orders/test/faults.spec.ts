// Orders with each of its dependencies refused or hung, then restored (issue 12), through TCP proxies this suite
// controls. Checkout's create request and the events tap reach RabbitMQ directly, as checkout, catalog and cart
// would. What does not need the dependency keeps working; what does answers a JSON 503 (over HTTP, or over
// RabbitMQ to checkout) well within the gateway's 10 s; /ready says which; everything recovers without a restart,
// and no order acknowledged before or during the fault is lost, nor is its event.
import { getModelToken } from '@nestjs/mongoose';
import { EVENTS, PATTERNS, type CreateOrderRequest, type CreateOrderResponse, type Role } from '@shop/contracts';
import { RpcClient } from '@shop/nest-common';
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
  waitFor,
  type FaultyService,
  type Timed,
} from '@shop/nest-common/testing';
import type { Model } from 'mongoose';
import { AppModule } from '../src/app.module';
import { Order } from '../src/orders/order.schema';
import { ADMIN, CUSTOMER, paidCheckout, tapEvents, withoutPayPalPayment, type EventsTap } from './orders.fixtures';

jest.setTimeout(120_000);

const RABBITMQ_URL = process.env.RABBITMQ_URL ?? 'amqp://guest:guest@127.0.0.1:5672';

type Body = { message?: string; statusCode?: number; status?: string; _id?: string };

describe('orders when a dependency goes away', () => {
  let faulty: FaultyService;
  let rpc: RpcClient;
  let events: EventsTap;

  beforeAll(async () => {
    faulty = await startWithFaultProxies('orders', AppModule, { env: { OUTBOX_RELAY_MS: '200' } });
    // As checkout asks (same timeout as its RPC_TIMEOUT_MS default), straight to the real broker.
    rpc = new RpcClient('orders', { url: RABBITMQ_URL, namespace: faulty.svc.namespace, timeoutMs: 5000 });
    events = await tapEvents(RABBITMQ_URL, faulty.svc.namespace);
  }, 60_000);
  afterEach(() => faulty.restore());
  afterAll(async () => {
    await rpc?.onApplicationShutdown();
    await events?.close();
    await faulty?.close();
  });

  const call = (method: string, path: string, as?: { id: string; role: Role; name: string }, body?: unknown) =>
    timed(() =>
      request<Body>(`${faulty.svc.url}${path}`, { method, body, token: as ? faulty.svc.token(as) : undefined }),
    );
  /** checkout → orders over RabbitMQ: the answer, or the HTTP status and message checkout would pass on. */
  async function create(req: CreateOrderRequest) {
    const started = Date.now();
    try {
      const answer = await rpc.send<CreateOrderResponse>(PATTERNS.orders.createOrder, req);
      return { status: 200, answer, ms: Date.now() - started };
    } catch (err) {
      const e = err as { getStatus(): number; message: string };
      return { status: e.getStatus(), message: e.message, ms: Date.now() - started };
    }
  }
  /** Without a PayPal payment, orders that this suite cancels need no checkout to refund them. */
  async function placeOrder() {
    const req = withoutPayPalPayment(paidCheckout());
    const res = await create(req);
    expect(res).toMatchObject({ status: 200, answer: { created: true } });
    return { req, id: res.answer!.order._id };
  }
  const mine = (id: string) => call('GET', `/api/orders/${id}`, CUSTOMER);
  const setStatus = (id: string, status: string) => call('PUT', `/api/admin/orders/${id}`, ADMIN, { status });
  const ready = () => call('GET', '/ready');
  const eventsOf = (type: typeof EVENTS.orders.orderPlaced | typeof EVENTS.orders.orderCancelled, orderId: string) =>
    events.of(type).filter((e) => e.data.orderId === orderId);
  /** The order's events all confirmed by the broker (read from its document once MongoDB answers). */
  const outboxDrained = async (id: string) => {
    const orders = faulty.svc.app.get<Model<Order>>(getModelToken(Order.name));
    const doc = await orders.findById(id, { outboxPending: 1 }).lean().exec();
    return doc !== null && !doc.outboxPending;
  };

  const expectUnavailable = (res: Timed<Body>) => expect(outcome(res)).toEqual(UNAVAILABLE);
  const expectReadyNames = async (dependency: string) =>
    expect(readiness(await ready(), dependency)).toEqual(NOT_READY);

  describe.each(['close', 'blackhole'] as const)('with the dependency %sd', (mode) => {
    it('MongoDB: reads, admin writes and new orders answer 503 in time; /ready names it; nothing lost, none doubled', async () => {
      const before = await placeOrder();
      await faulty.proxies.mongodb[mode]();

      expectUnavailable(await mine(before.id));
      expectUnavailable(await call('GET', '/api/admin/stats', ADMIN));
      expectUnavailable(await call('GET', '/api/admin/orders', ADMIN)); // streamed once its first batch is read
      expectUnavailable(await setStatus(before.id, 'Shipped'));
      // Checkout hears a 503 in time and retries later.
      const during = paidCheckout();
      const refused = await create(during);
      expect({ status: refused.status, message: typeof refused.message }).toEqual({ status: 503, message: 'string' });
      expect(refused.ms).toBeLessThan(UNAVAILABLE_BOUND_MS);
      await expectReadyNames('mongodb');

      await faulty.proxies.mongodb.open();
      await recovers('an order read after MongoDB returned', async () => (await mine(before.id)).status === 200);
      expect((await mine(before.id)).body).toMatchObject({ _id: before.id, status: 'Processing' });
      expect((await setStatus(before.id, 'Shipped')).body).toMatchObject({ status: 'Shipped' });
      // Checkout's retry makes the order once: the refused attempt left nothing behind.
      const retried = await create(during);
      expect(retried).toMatchObject({ status: 200, answer: { created: true } });
      expect(await create(during)).toMatchObject({ status: 200, answer: { created: false } });
      await recovers('the placed event out', () => outboxDrained(retried.answer!.order._id));
      expect((await ready()).status).toBe(200);
    });

    it('Redis: signed-in routes fail closed with 503 in time, checkout’s order is still made and announced; all recover', async () => {
      const before = await placeOrder();
      await faulty.proxies.redis[mode]();

      expectUnavailable(await mine(before.id));
      expectUnavailable(await setStatus(before.id, 'Shipped'));
      await expectReadyNames('redis');
      // Making an order needs no Redis: a paid checkout becomes its order now.
      const during = await create(paidCheckout());
      expect(during).toMatchObject({ status: 200, answer: { created: true } });
      expect(during.ms).toBeLessThan(UNAVAILABLE_BOUND_MS);
      const id = during.answer!.order._id;
      await waitFor('the placed event delivered', () => eventsOf(EVENTS.orders.orderPlaced, id).length > 0);

      await faulty.proxies.redis.open();
      await recovers('an order read after Redis returned', async () => (await mine(id)).status === 200);
      expect((await mine(before.id)).body).toMatchObject({ _id: before.id, status: 'Processing' });
      expect((await setStatus(before.id, 'Shipped')).body).toMatchObject({ status: 'Shipped' });
      await recovers('the outbox marked published', () => outboxDrained(id));
      // Relayed until marked: perhaps more than once while Redis was away, always with the one event id.
      expect(new Set(eventsOf(EVENTS.orders.orderPlaced, id).map((e) => e.eventId)).size).toBe(1);
      expect((await ready()).status).toBe(200);
    });

    it('RabbitMQ: reads and admin changes keep working, a cancellation’s event waits and goes out once; all recover', async () => {
      const before = await placeOrder();
      await recovers('the placed event out', () => outboxDrained(before.id));
      await faulty.proxies.rabbitmq[mode]();

      expect((await mine(before.id)).status).toBe(200);
      expect((await call('GET', '/api/orders/my-orders', CUSTOMER)).status).toBe(200);
      const cancelled = await setStatus(before.id, 'Cancelled');
      expect(cancelled.status).toBe(200);
      expect(cancelled.ms).toBeLessThan(UNAVAILABLE_BOUND_MS);
      // Checkout cannot reach orders meanwhile (its request has nobody to take it): a 503 in time.
      const during = paidCheckout();
      const unanswered = await create(during);
      expect(unanswered.status).toBe(503);
      expect(unanswered.ms).toBeLessThan(UNAVAILABLE_BOUND_MS);
      await recovers('/ready reporting RabbitMQ', async () => (await ready()).status === 503);
      expect((await ready()).body.message).toMatch(/rabbitmq/);
      expect(eventsOf(EVENTS.orders.orderCancelled, before.id)).toEqual([]);

      await faulty.proxies.rabbitmq.open();
      await recovers('the cancellation announced', async () => await outboxDrained(before.id));
      await waitFor(
        'the cancelled event delivered',
        () => eventsOf(EVENTS.orders.orderCancelled, before.id).length > 0,
      );
      expect(eventsOf(EVENTS.orders.orderCancelled, before.id)).toHaveLength(1);
      await recovers('checkout’s retry answered', async () => (await create(during)).status === 200);
      const orders = (await call('GET', '/api/admin/orders', ADMIN)).body as unknown as Array<{ checkoutId?: string }>;
      expect(orders.filter((o) => o.checkoutId === during.checkoutId)).toHaveLength(1);
      await recovers('/ready after RabbitMQ returned', async () => (await ready()).status === 200);
    });
  });
});
