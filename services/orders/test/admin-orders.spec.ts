// Admins run orders: status changes, each kept in the order's history and announced once, a cancellation that
// gives the stock back once, removal.
import { EVENTS, SHIPPING_METHOD, type OrderJson, type OrderStatus } from '@shop/contracts';
import { request, waitFor } from '@shop/nest-common/testing';
import { OrdersOutbox } from '../src/orders/orders-outbox';
import {
  ADMIN,
  CUSTOMER,
  newId,
  paidCheckout,
  sleep,
  startOrders,
  withoutPayPalPayment,
  type OrdersHarness,
} from './orders.fixtures';

/** Every admin change names the admin who made it, as their token names them. */
const BY_ADMIN = { _id: ADMIN.id, name: ADMIN.name };

describe('orders: admin management', () => {
  let h: OrdersHarness;
  beforeAll(async () => {
    h = await startOrders();
  });
  afterAll(() => h?.close());

  const setStatus = (id: string, body: unknown) => h.http('PUT', `/api/admin/orders/${id}`, ADMIN, body);
  const read = async (id: string) => (await h.http('GET', `/api/orders/${id}`, ADMIN)).body as OrderJson;
  /** A new order, as it reads once its placed event is out (publishing it stamps updatedAt). */
  const place = async (req = paidCheckout()) => {
    const { order } = await h.create(req);
    await waitFor('the placed event out', async () => !(await h.orders.findById(order._id).lean())!.outboxPending);
    return read(order._id);
  };

  it('ships and delivers an order, stamping the delivery, and clears the stamp when it goes back', async () => {
    const order = await place();
    const shipped = await setStatus(order._id, { status: 'Shipped' });
    expect(shipped.status).toBe(200);
    expect(shipped.body).toMatchObject({ _id: order._id, status: 'Shipped', isDelivered: false });
    expect(shipped.body).not.toHaveProperty('deliveredAt');

    const delivered = await setStatus(order._id, { status: 'Delivered' });
    expect(delivered.body).toMatchObject({ status: 'Delivered', isDelivered: true });
    const deliveredAt = delivered.body.deliveredAt as string;
    expect(Date.now() - Date.parse(deliveredAt)).toBeLessThan(10_000);
    expect(await read(order._id)).toEqual(delivered.body);

    const again = await setStatus(order._id, { status: 'Delivered' });
    expect(again.body).toMatchObject({ status: 'Delivered', isDelivered: true, deliveredAt });

    const back = await setStatus(order._id, { status: 'Shipped' });
    expect(back.body).toMatchObject({ status: 'Shipped', isDelivered: false });
    expect(back.body).not.toHaveProperty('deliveredAt');
    expect(await read(order._id)).toEqual(back.body);
  });

  const statusChanges = (orderId: string) =>
    h.events.of(EVENTS.orders.orderStatusChanged).filter((e) => e.data.orderId === orderId);
  const recent = (iso: string) => Math.abs(Date.now() - Date.parse(iso)) < 10_000;

  it('keeps each change in the history and announces it once, with an id naming the change', async () => {
    const order = await place();
    expect(order.statusHistory).toEqual([{ status: 'Processing', at: order.createdAt }]);

    const shipped = (await setStatus(order._id, { status: 'Shipped' })).body as OrderJson;
    expect(shipped.statusHistory).toEqual([
      { status: 'Processing', at: order.createdAt },
      { status: 'Shipped', at: expect.any(String), by: BY_ADMIN },
    ]);
    const shippedAt = shipped.statusHistory[1].at;
    expect(recent(shippedAt)).toBe(true);
    await waitFor('orders.order.status-changed', () => statusChanges(order._id).length > 0);

    // The same status again writes nothing and announces nothing.
    const again = (await setStatus(order._id, { status: 'Shipped' })).body as OrderJson;
    expect(again).toEqual(shipped);
    await sleep(500);
    expect(statusChanges(order._id)).toEqual([
      expect.objectContaining({
        eventId: `orders.order.status-changed:${order._id}:1`,
        type: EVENTS.orders.orderStatusChanged,
        occurredAt: shippedAt,
        data: {
          orderId: order._id,
          userId: CUSTOMER.id,
          status: 'Shipped',
          previousStatus: 'Processing',
          changedAt: shippedAt,
          customer: { name: CUSTOMER.name, email: 'casey@example.com' },
          // the lines, so that catalog knows who received which product (reviews)
          items: order.orderItems.map(({ productId, quantity, size, color, sku }) => ({
            productId,
            quantity,
            size,
            color,
            sku,
          })),
        },
      }),
    ]);

    const delivered = (await setStatus(order._id, { status: 'Delivered' })).body as OrderJson;
    expect(delivered.statusHistory).toEqual([
      ...shipped.statusHistory,
      { status: 'Delivered', at: delivered.deliveredAt, by: BY_ADMIN },
    ]);
    await waitFor('the second change', () => statusChanges(order._id).length > 1);
    expect(statusChanges(order._id)[1]).toMatchObject({
      eventId: `orders.order.status-changed:${order._id}:2`,
      data: { status: 'Delivered', previousStatus: 'Shipped', changedAt: delivered.deliveredAt },
    });
    expect(await read(order._id)).toEqual(delivered);
  });

  it('publishes the very same event again when its outbox is replayed', async () => {
    const order = await place();
    await setStatus(order._id, { status: 'Shipped' });
    await waitFor('the change published', async () => !(await h.orders.findById(order._id).lean())!.outboxPending);
    await waitFor('the change delivered', () => statusChanges(order._id).length > 0);
    const [first] = statusChanges(order._id);

    // As after a crash between the broker's confirm and the mark: every entry is pending again.
    const stored = (await h.orders.findById(order._id).lean())!;
    const outbox = stored.outbox.map((e) => ({ ...e, publishedAt: null }));
    await h.orders.updateOne({ _id: order._id }, { $set: { outbox, outboxPending: true } }, { timestamps: false });
    await h.svc.app.get(OrdersOutbox).relayNow(order._id);
    await waitFor('the replay delivered', () => statusChanges(order._id).length > 1);
    const [, replayed] = statusChanges(order._id);
    expect({ ...replayed, requestId: undefined }).toEqual({ ...first, requestId: undefined });
  });

  it('keeps a coherent history when admins change the status at once', async () => {
    const order = await place();
    const wanted: OrderStatus[] = ['Shipped', 'Delivered', 'Processing', 'Shipped', 'Delivered', 'Shipped'];
    const answers = await Promise.all(wanted.map((status) => setStatus(order._id, { status })));
    for (const res of answers) expect(res.status).toBe(200);

    const final = await read(order._id);
    const history = final.statusHistory;
    expect(history[0]).toEqual({ status: 'Processing', at: order.createdAt });
    expect(history.at(-1)!.status).toBe(final.status);
    for (let i = 1; i < history.length; i++) {
      expect(history[i].status).not.toBe(history[i - 1].status);
      expect(Date.parse(history[i].at)).toBeGreaterThanOrEqual(Date.parse(history[i - 1].at));
    }
    const changes = history.length - 1;
    expect(changes).toBeGreaterThan(0);
    await waitFor('every change delivered', () => statusChanges(order._id).length >= changes);
    await sleep(500);
    // One event per change, in order, each naming the change it announces.
    expect(
      statusChanges(order._id).map((e) => [e.eventId, e.data.previousStatus, e.data.status, e.data.changedAt]),
    ).toEqual(
      history
        .slice(1)
        .map((entry, i) => [
          `orders.order.status-changed:${order._id}:${i + 1}`,
          history[i].status,
          entry.status,
          entry.at,
        ]),
    );
  });

  it('shows an order from before the history a history made from what it stores, and extends it on a change', async () => {
    const { paidAt, ...checkout } = paidCheckout();
    const createdAt = new Date(Date.now() - 7 * 86_400_000);
    const deliveredAt = new Date(Date.now() - 2 * 86_400_000);
    const updatedAt = new Date(Date.now() - 86_400_000);
    const { insertedId } = await h.orders.collection.insertOne({
      ...checkout,
      paidAt: new Date(paidAt),
      paymentMethod: 'PayPal',
      shippingMethod: SHIPPING_METHOD,
      isPaid: true,
      paymentStatus: 'paid',
      isDelivered: true,
      deliveredAt,
      status: 'Delivered',
      outbox: [],
      outboxPending: false,
      createdAt,
      updatedAt,
    });
    const id = insertedId.toHexString();
    const shown = [
      { status: 'Processing', at: createdAt.toISOString() },
      { status: 'Delivered', at: deliveredAt.toISOString() },
    ];
    expect((await read(id)).statusHistory).toEqual(shown);
    expect((await h.orders.findById(id).lean())!.statusHistory).toBeUndefined(); // reading rewrites nothing

    const shipped = (await setStatus(id, { status: 'Shipped' })).body as OrderJson;
    expect(shipped.statusHistory).toEqual([...shown, { status: 'Shipped', at: expect.any(String), by: BY_ADMIN }]);
    expect(recent(shipped.statusHistory[2].at)).toBe(true);
    expect((await h.orders.findById(id).lean())!.statusHistory).toHaveLength(3);
    await waitFor('orders.order.status-changed', () => statusChanges(id).length > 0);
    expect(statusChanges(id)).toEqual([
      expect.objectContaining({
        eventId: `orders.order.status-changed:${id}:2`,
        data: expect.objectContaining({ status: 'Shipped', previousStatus: 'Delivered' }),
      }),
    ]);
  });

  it.each<[string, unknown]>([
    ['null', { status: null }],
    ['a number', { status: 5 }],
    ['a list', { status: [] }],
    ['an object', { status: {} }],
    ['an operator', { status: { $ne: 'Processing' } }],
    ['an unknown status', { status: 'Lost' }],
    ['a status in the wrong case', { status: 'shipped' }],
    ['no status', {}],
  ])('answers a status that is %s with 400 Invalid status, changing nothing', async (_what, body) => {
    const order = await place();
    expect(await setStatus(order._id, body)).toMatchObject({
      status: 400,
      body: { statusCode: 400, message: 'Invalid status' },
    });
    expect(await read(order._id)).toMatchObject({ status: 'Processing', updatedAt: order.updatedAt });
  });

  it('cancels once, however often and however concurrently it is asked, announcing it once, and then stays cancelled', async () => {
    // No PayPal payment on record: nothing to refund (paid orders: cancel-refund.spec.ts).
    const order = await place(withoutPayPalPayment(paidCheckout()));
    const answers = await Promise.all([0, 1, 2].map(() => setStatus(order._id, { status: 'Cancelled' })));
    for (const res of answers) expect(res).toMatchObject({ status: 200, body: { status: 'Cancelled' } });
    expect((await setStatus(order._id, { status: 'Cancelled' })).body).toMatchObject({ status: 'Cancelled' });

    const cancelled = () => h.events.of(EVENTS.orders.orderCancelled).filter((e) => e.data.orderId === order._id);
    await waitFor('orders.order.cancelled', () => cancelled().length > 0);
    await sleep(500);
    expect(cancelled()).toEqual([
      expect.objectContaining({
        eventId: `orders.order.cancelled:${order._id}`,
        data: {
          orderId: order._id,
          checkoutId: order.checkoutId,
          userId: CUSTOMER.id,
          items: [
            { productId: '65a000000000000000000001', quantity: 2, size: 'M', color: 'Green', sku: 'GB-HOME-M-GREEN' },
            { productId: '65a000000000000000000002', quantity: 1, size: '', color: 'Purple' },
          ],
        },
      }),
    ]);
    // The cancellation is also a status change, announced once.
    const cancelledAt = (await read(order._id)).statusHistory[1].at;
    expect(statusChanges(order._id)).toEqual([
      expect.objectContaining({
        eventId: `orders.order.status-changed:${order._id}:1`,
        data: {
          orderId: order._id,
          userId: CUSTOMER.id,
          status: 'Cancelled',
          previousStatus: 'Processing',
          changedAt: cancelledAt,
          customer: { name: CUSTOMER.name, email: 'casey@example.com' },
          items: expect.arrayContaining([expect.objectContaining({ productId: order.orderItems[0].productId })]),
        },
      }),
    ]);

    for (const status of ['Processing', 'Shipped', 'Delivered']) {
      expect(await setStatus(order._id, { status })).toMatchObject({
        status: 400,
        body: { statusCode: 400, message: 'A cancelled order cannot change status' },
      });
    }
    const final = await read(order._id);
    expect(final).toMatchObject({ status: 'Cancelled', isDelivered: false });
    expect(final.statusHistory).toEqual([
      { status: 'Processing', at: order.createdAt },
      { status: 'Cancelled', at: cancelledAt, by: BY_ADMIN },
    ]);
    expect(statusChanges(order._id)).toHaveLength(1);
  });

  it('removes an order, which then no longer exists', async () => {
    const order = await place();
    expect(await h.http('DELETE', `/api/admin/orders/${order._id}`, ADMIN)).toMatchObject({
      status: 200,
      body: { message: 'Order removed' },
    });
    const notFound = { status: 404, body: { statusCode: 404, message: 'Order not found' } };
    expect(await h.http('GET', `/api/orders/${order._id}`, ADMIN)).toMatchObject(notFound);
    expect(await h.http('DELETE', `/api/admin/orders/${order._id}`, ADMIN)).toMatchObject(notFound);
    const all = (await h.http('GET', '/api/admin/orders', ADMIN)).body as OrderJson[];
    expect(all.map((o) => o._id)).not.toContain(order._id);
  });

  it('answers 404 for an unknown order and 400 for a malformed id', async () => {
    const notFound = { status: 404, body: { statusCode: 404, message: 'Order not found' } };
    expect(await setStatus(newId(), { status: 'Shipped' })).toMatchObject(notFound);
    expect(await h.http('DELETE', `/api/admin/orders/${newId()}`, ADMIN)).toMatchObject(notFound);
    const invalid = { status: 400, body: { statusCode: 400, message: 'Invalid order id' } };
    expect(await setStatus('nope', { status: 'Shipped' })).toMatchObject(invalid);
    expect(await h.http('DELETE', '/api/admin/orders/nope', ADMIN)).toMatchObject(invalid);
  });

  it('answers malformed and absurd bodies with a 4xx JSON error', async () => {
    const order = await place();
    const put = (rawBody: string) =>
      request(`${h.svc.url}/api/admin/orders/${order._id}`, { method: 'PUT', rawBody, token: h.svc.token(ADMIN) });
    expect(await put('{"status": "Shipped"')).toMatchObject({
      status: 400,
      body: { statusCode: 400, message: 'Malformed JSON in request body' },
    });
    expect(await put(`{"status": ${'['.repeat(5000)}${']'.repeat(5000)}}`)).toMatchObject({
      status: 400,
      body: { statusCode: 400, message: 'Request body is nested too deeply' },
    });
    const list = await put('["Shipped"]');
    expect(list.status).toBe(400);
    expect(list.body).toMatchObject({ statusCode: 400, message: expect.any(String) });
    expect(await read(order._id)).toMatchObject({ status: 'Processing' });
  });
});
