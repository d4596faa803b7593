// Shipping with a parcel: the admin's Shipped carries a carrier and a tracking number of that carrier's format; the
// order and its status-changed event (the shipping email's source) carry the carrier's tracking page.
import { EVENTS, TRACKING_MESSAGES, type OrderJson } from '@shop/contracts';
import { waitFor } from '@shop/nest-common/testing';
import { ADMIN, CUSTOMER, paidCheckout, startOrders, type OrdersHarness } from './orders.fixtures';

describe('orders: tracking', () => {
  let h: OrdersHarness;
  beforeAll(async () => {
    h = await startOrders();
  });
  afterAll(() => h?.close());

  const setStatus = (id: string, body: unknown) => h.http('PUT', `/api/admin/orders/${id}`, ADMIN, body);
  const place = async () => (await h.create(paidCheckout())).order;

  it('Shipped with Royal Mail: the number normalised, the tracking page on the order and in the event', async () => {
    const order = await place();
    const res = await setStatus(order._id, {
      status: 'Shipped',
      carrier: 'Royal Mail',
      trackingNumber: 'ab 1234 5678 5gb',
    });
    expect(res.status).toBe(200);
    const tracking = {
      carrier: 'Royal Mail',
      number: 'AB123456785GB',
      url: 'https://www.royalmail.com/track-your-item#/tracking-results/AB123456785GB',
    };
    expect(res.body).toMatchObject({ status: 'Shipped', tracking });
    // the buyer sees it too
    const mine = await h.http('GET', `/api/orders/${order._id}`, CUSTOMER);
    expect((mine.body as OrderJson).tracking).toEqual(tracking);
    await waitFor('the shipped event', async () =>
      h.events.of(EVENTS.orders.orderStatusChanged).some((e) => e.data.orderId === order._id),
    );
    const event = h.events.of(EVENTS.orders.orderStatusChanged).find((e) => e.data.orderId === order._id)!;
    expect(event.data).toMatchObject({ status: 'Shipped', tracking });
  });

  it('refuses a wrong number, a missing carrier or number, tracking with another status: 400, nothing changed', async () => {
    const order = await place();
    const cases: Array<[unknown, string]> = [
      [{ status: 'Shipped', carrier: 'DHL', trackingNumber: '15501234567890' }, TRACKING_MESSAGES.invalid('DHL')],
      [
        { status: 'Shipped', carrier: 'UPS', trackingNumber: '1Z999AA10123456785' },
        TRACKING_MESSAGES.checkDigit('UPS'),
      ],
      [{ status: 'Shipped', trackingNumber: '1234567890' }, TRACKING_MESSAGES.carrierRequired],
      [{ status: 'Shipped', carrier: 'Evri' }, TRACKING_MESSAGES.numberRequired],
      [{ status: 'Shipped', carrier: 'Hermes', trackingNumber: '1234567890' }, TRACKING_MESSAGES.carrierRequired],
      [{ status: 'Shipped', carrier: 'DPD', trackingNumber: { $gt: '' } }, TRACKING_MESSAGES.numberRequired],
      [{ status: 'Shipped', carrier: 'DPD', trackingNumber: 'x'.repeat(200) }, TRACKING_MESSAGES.numberRequired],
      [{ status: 'Delivered', carrier: 'DPD', trackingNumber: '15501234567890' }, TRACKING_MESSAGES.onlyWhenShipped],
    ];
    for (const [body, message] of cases) {
      const res = await setStatus(order._id, body);
      expect(res.status).toBe(400);
      expect(res.body.message).toBe(message);
    }
    const now = await h.http('GET', `/api/orders/${order._id}`, ADMIN);
    expect(now.body).toMatchObject({ status: 'Processing' });
    expect(now.body).not.toHaveProperty('tracking');
  });

  it('each carrier’s number is taken; Shipped again with another number corrects it, with a note, no second email', async () => {
    const numbers = {
      DPD: '15501234567890',
      Evri: 'H00A1A0001234567',
      DHL: '1234567890',
      UPS: '1Z999AA10123456784',
    } as const;
    for (const [carrier, trackingNumber] of Object.entries(numbers)) {
      const order = await place();
      const res = await setStatus(order._id, { status: 'Shipped', carrier, trackingNumber });
      expect(res.status).toBe(200);
      expect(res.body.tracking).toMatchObject({
        carrier,
        number: trackingNumber,
        url: expect.stringMatching(/^https:/),
      });
    }
    const order = await place();
    await setStatus(order._id, { status: 'Shipped', carrier: 'DPD', trackingNumber: '15501234567890' });
    const fixed = await setStatus(order._id, { status: 'Shipped', carrier: 'DHL', trackingNumber: '1234567890' });
    expect(fixed.body.tracking).toMatchObject({ carrier: 'DHL', number: '1234567890' });
    expect((fixed.body as OrderJson).statusHistory.at(-1)).toMatchObject({
      note: 'Tracking changed to DHL 1234567890',
    });
    await waitFor('the shipped event', async () =>
      h.events.of(EVENTS.orders.orderStatusChanged).some((e) => e.data.orderId === order._id),
    );
    expect(h.events.of(EVENTS.orders.orderStatusChanged).filter((e) => e.data.orderId === order._id)).toHaveLength(1);
    // a plain {status} (older clients) still ships without tracking
    const plain = await place();
    expect((await setStatus(plain._id, { status: 'Shipped' })).body).toMatchObject({ status: 'Shipped' });
  });
});
