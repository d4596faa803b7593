// An order placed while the broker is away is kept with its event, and the event goes out once the broker is back.
import { EVENTS } from '@shop/contracts';
import { TcpProxy, waitFor } from '@shop/nest-common/testing';
import { EVENTS_PENDING, OrdersService } from '../src/orders/orders.service';
import {
  ADMIN,
  CUSTOMER,
  paidCheckout,
  sleep,
  startOrders,
  withoutPayPalPayment,
  type OrdersHarness,
} from './orders.fixtures';

const RABBITMQ_URL = process.env.RABBITMQ_URL ?? 'amqp://guest:guest@127.0.0.1:5672';

describe('orders: the outbox', () => {
  let proxy: TcpProxy;
  let h: OrdersHarness;
  beforeAll(async () => {
    const front = await TcpProxy.inFrontOf(RABBITMQ_URL, 5672);
    proxy = front.proxy;
    // The service reaches RabbitMQ through the proxy; the events tap connects straight to it.
    h = await startOrders({ RABBITMQ_URL: front.url, OUTBOX_RELAY_MS: '200' }, RABBITMQ_URL);
  });
  afterAll(async () => {
    await proxy.open(); // the harness deletes the suite's queues through the service's URL
    await h?.close();
    await proxy?.stop();
  });

  it('keeps an order placed while the broker is away, and publishes its event once the broker is back', async () => {
    await proxy.close();
    const checkout = paidCheckout();
    const { order, created } = await h.svc.app.get(OrdersService).createFromCheckout(checkout);
    expect(created).toBe(true);

    // Stored with its event waiting, and readable while the broker is away.
    const pending = async () => (await h.orders.findById(order._id).lean())!;
    expect(await pending()).toMatchObject({
      outboxPending: true,
      outbox: [{ eventId: `orders.order.placed:${checkout.checkoutId}`, publishedAt: null }],
    });
    expect(await h.http('GET', `/api/orders/${order._id}`, CUSTOMER)).toMatchObject({
      status: 200,
      body: { _id: order._id, status: 'Processing' },
    });
    await sleep(1000); // several sweeps find the broker away
    expect(h.events.received).toEqual([]);
    expect((await pending()).outboxPending).toBe(true);

    await proxy.open();
    await waitFor('the event published', async () => !(await pending()).outboxPending, 20_000);
    await waitFor('the event delivered', () => h.events.received.length > 0);
    await sleep(1000); // more sweeps: nothing is published twice
    expect(h.events.received).toEqual([
      expect.objectContaining({
        eventId: `orders.order.placed:${checkout.checkoutId}`,
        type: EVENTS.orders.orderPlaced,
        data: expect.objectContaining({ orderId: order._id, checkoutId: checkout.checkoutId, userId: CUSTOMER.id }),
      }),
    ]);
    expect((await pending()).outbox[0].publishedAt).toBeInstanceOf(Date);
  }, 30_000);

  it('refuses to remove an order whose events cannot be published yet, and removes it once they are', async () => {
    await proxy.close();
    const { order } = await h.svc.app.get(OrdersService).createFromCheckout(withoutPayPalPayment(paidCheckout()));
    const cancel = await h.http('PUT', `/api/admin/orders/${order._id}`, ADMIN, { status: 'Cancelled' });
    expect(cancel).toMatchObject({ status: 200, body: { status: 'Cancelled' } });

    const refused = await h.http('DELETE', `/api/admin/orders/${order._id}`, ADMIN);
    expect(refused).toMatchObject({ status: 503, body: { statusCode: 503, message: EVENTS_PENDING } });
    expect((await h.http('GET', `/api/orders/${order._id}`, ADMIN)).status).toBe(200);

    await proxy.open();
    const stored = async () => (await h.orders.findById(order._id).lean())!;
    await waitFor('the events published', async () => !(await stored()).outboxPending, 20_000);
    const ofOrder = () => h.events.received.filter((e) => e.data.orderId === order._id);
    await waitFor('the events delivered', () => ofOrder().length >= 3);
    await sleep(1000);
    expect(ofOrder().map((e) => e.eventId)).toEqual([
      `orders.order.placed:${order.checkoutId}`,
      `orders.order.cancelled:${order._id}`,
      `orders.order.status-changed:${order._id}:1`,
    ]);
    expect(await h.http('DELETE', `/api/admin/orders/${order._id}`, ADMIN)).toMatchObject({
      status: 200,
      body: { message: 'Order removed' },
    });
  }, 30_000);
});
