// Admins run orders: status changes, a cancellation that gives the stock back once, removal.
import { EVENTS, type OrderJson } from '@shop/contracts';
import { request, waitFor } from '@shop/nest-common/testing';
import { ADMIN, CUSTOMER, newId, paidCheckout, sleep, startOrders, type OrdersHarness } from './orders.fixtures';

describe('orders: admin management', () => {
  let h: OrdersHarness;
  beforeAll(async () => {
    h = await startOrders();
  });
  afterAll(() => h?.close());

  const setStatus = (id: string, body: unknown) => h.http('PUT', `/api/admin/orders/${id}`, ADMIN, body);
  const read = async (id: string) => (await h.http('GET', `/api/orders/${id}`, ADMIN)).body as OrderJson;
  /** A new order, as it reads once its placed event is out (publishing it stamps updatedAt). */
  const place = async () => {
    const { order } = await h.create(paidCheckout());
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

  it('cancels once, however often and however concurrently it is asked, and then stays cancelled', async () => {
    const order = await place();
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

    for (const status of ['Processing', 'Shipped', 'Delivered']) {
      expect(await setStatus(order._id, { status })).toMatchObject({
        status: 400,
        body: { statusCode: 400, message: 'A cancelled order cannot change status' },
      });
    }
    expect(await read(order._id)).toMatchObject({ status: 'Cancelled', isDelivered: false });
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
