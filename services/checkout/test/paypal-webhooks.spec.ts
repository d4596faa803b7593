// PayPal's webhooks against the real checkout, catalog, identity and orders, with the fake PayPal delivering its
// signed events to checkout's listener (and answering verify-webhook-signature): a capture the browser never reports
// becomes one order, refunds made in PayPal's dashboard reach the order and the dashboard once however often the
// event is delivered, a denied capture gives the stock back, and an unsigned or tampered event changes nothing.
import { getModelToken } from '@nestjs/mongoose';
import type { OrderJson } from '@shop/contracts';
import { request } from '@shop/nest-common/testing';
import type { Model } from 'mongoose';
import { addProduct, address, checkoutApi, line, newUserId, startShop, stockOf, type Shop } from './checkout.fixtures';

describe('PayPal webhooks', () => {
  let shop: Shop;
  let api: ReturnType<typeof checkoutApi>;
  let buyer: string;
  let token: string;
  let adminToken: string;
  let orderModel: Model<{ checkoutId: string }>;
  let checkoutModel: Model<{ isPaid: boolean }>;
  let eventModel: Model<{ _id: string; outcome: string }>;

  beforeAll(async () => {
    shop = await startShop({ webhooks: true, checkoutEnv: { FINALIZE_SWEEP_MS: '600000' } });
    api = checkoutApi(shop);
    buyer = newUserId();
    token = shop.checkout.token({ id: buyer, name: 'Ray Lewis' });
    adminToken = shop.orders.token({ id: newUserId(), name: 'Admin', role: 'admin' });
    orderModel = shop.orders.app.get(getModelToken('Order'));
    checkoutModel = shop.checkout.app.get(getModelToken('Checkout'));
    eventModel = shop.checkout.app.get(getModelToken('PayPalWebhookEvent'));
  }, 90_000);
  afterAll(() => shop?.close());

  const hook = () => `${shop.checkout.url}/api/paypal/webhooks`;
  const auth = () => ({
    Authorization: `Basic ${Buffer.from(`${shop.paypal.clientId}:${shop.paypal.clientSecret}`).toString('base64')}`,
    'Content-Type': 'application/json',
  });

  /** A checkout of 2 units at £20 from a product with `stock` units. */
  async function newCheckout(stock = 10): Promise<{ productId: string; checkoutId: string }> {
    const productId = await addProduct(shop, { price: 20, countInStock: stock });
    const res = await api.create({ checkoutItems: [line(productId, 2)], shippingAddress: address() }, token);
    expect(res.status).toBe(201);
    return { productId, checkoutId: res.body._id };
  }

  /** What PayPal's buttons do in the buyer's browser: create the order naming the checkout (custom_id), capture it. */
  async function buyerApproves(checkoutId: string, value = '40.00', mode?: 'declined'): Promise<string> {
    const created = await fetch(`${shop.paypal.url}/v2/checkout/orders`, {
      method: 'POST',
      headers: auth(),
      body: JSON.stringify({
        intent: 'CAPTURE',
        purchase_units: [{ reference_id: checkoutId, custom_id: checkoutId, amount: { currency_code: 'GBP', value } }],
      }),
    });
    const { id } = (await created.json()) as { id: string };
    if (mode) shop.paypal.setOrderMode(id, mode);
    const captured = await fetch(`${shop.paypal.url}/v2/checkout/orders/${id}/capture`, {
      method: 'POST',
      headers: auth(),
      body: '{}',
    });
    expect(captured.status).toBe(201);
    return id;
  }

  const ordersOf = (checkoutId: string) => orderModel.countDocuments({ checkoutId }).exec();
  const captureIdOf = (paypalOrderId: string) =>
    shop.paypal.orders.get(paypalOrderId)!.purchase_units[0].payments!.captures[0].id;
  const lastEvent = (type: string) =>
    shop.paypal.webhooks
      .events()
      .filter((e) => e.event_type === type)
      .at(-1)!;
  const deliveriesOf = (eventId: string) => shop.paypal.webhooks.deliveries().filter((d) => d.eventId === eventId);
  async function orderOfCheckout(checkoutId: string): Promise<OrderJson> {
    const doc = (await orderModel.findOne({ checkoutId }).lean().exec()) as unknown as { _id: unknown };
    const res = await request(`${shop.orders.url}/api/orders/${String(doc._id)}`, { token: adminToken });
    expect(res.status).toBe(200);
    return res.body as OrderJson;
  }

  it('a capture the browser never reports becomes exactly one order; the late report and finalize find it', async () => {
    const { checkoutId } = await newCheckout();
    const paypalOrderId = await buyerApproves(checkoutId);
    // the browser closes here: no PUT /pay
    await shop.paypal.webhooks.idle();
    const completed = lastEvent('PAYMENT.CAPTURE.COMPLETED');
    expect(deliveriesOf(completed.id).map((d) => d.status)).toEqual([200]);
    expect(await eventModel.findById(completed.id).lean().exec()).toMatchObject({ outcome: 'paid' });
    expect(await ordersOf(checkoutId)).toBe(1);
    expect(await checkoutModel.findById(checkoutId).lean().exec()).toMatchObject({ isPaid: true });

    // the browser comes back late, twice, and finalizes: the same one order
    const [late, again] = await Promise.all([
      api.pay(checkoutId, paypalOrderId, token),
      api.pay(checkoutId, paypalOrderId, token),
    ]);
    expect([late.status, again.status]).toEqual([200, 200]);
    const finalized = await api.finalize(checkoutId, token);
    expect(finalized.status).toBe(201);
    expect(await ordersOf(checkoutId)).toBe(1);
    expect(finalized.body.paymentDetails.id).toBe(paypalOrderId);
  });

  it('a webhook racing the browser’s own report still makes one order', async () => {
    const { checkoutId } = await newCheckout();
    const paypalOrderId = await buyerApproves(checkoutId);
    const paid = await api.pay(checkoutId, paypalOrderId, token);
    expect(paid.status).toBe(200);
    await shop.paypal.webhooks.idle();
    expect(await ordersOf(checkoutId)).toBe(1);
    const outcome = (await eventModel.findById(lastEvent('PAYMENT.CAPTURE.COMPLETED').id).lean().exec())?.outcome;
    expect(['paid', 'already-paid']).toContain(outcome);
  });

  describe('an unsigned or tampered delivery', () => {
    it('is refused 400 and changes nothing; the genuine delivery then pays', async () => {
      const { checkoutId } = await newCheckout();
      shop.paypal.webhooks.setUrl(undefined); // PayPal's delivery held back: this test delivers by hand
      let paypalOrderId: string;
      try {
        paypalOrderId = await buyerApproves(checkoutId);
      } finally {
        shop.paypal.webhooks.setUrl(hook());
      }
      const event = lastEvent('PAYMENT.CAPTURE.COMPLETED');
      const body = JSON.stringify(event);
      const signed = shop.paypal.webhooks.sign(body) as unknown as Record<string, string>;

      const attempts: Array<{ headers: Record<string, string>; rawBody: string }> = [
        { headers: {}, rawBody: body }, // unsigned
        { headers: { ...signed, 'paypal-transmission-sig': '' }, rawBody: body }, // a header missing
        { headers: signed, rawBody: body.replace('"40.00"', '"0.40"') }, // tampered after signing
        { headers: signed, rawBody: JSON.stringify(event, null, 2) }, // the same event, other bytes
        { headers: { ...signed, 'paypal-transmission-id': 'c0ffee00-0000-0000-0000-000000000000' }, rawBody: body },
        { headers: { ...signed, 'paypal-cert-url': 'https://evil.example/cert.pem' }, rawBody: body },
        { headers: shop.paypal.webhooks.sign('{}') as unknown as Record<string, string>, rawBody: body },
      ];
      for (const attempt of attempts) {
        const res = await request(hook(), { method: 'POST', ...attempt });
        expect(res.status).toBe(400);
        expect(res.body.message).toBe('The webhook signature could not be verified');
      }
      expect(await ordersOf(checkoutId)).toBe(0);
      expect(await checkoutModel.findById(checkoutId).lean().exec()).toMatchObject({ isPaid: false });
      expect(await eventModel.exists({ _id: event.id }).exec()).toBeNull();

      // not an event at all
      for (const rawBody of ['[]', '{"id":"WH-1"}', '"x"', '{']) {
        const res = await request(hook(), { method: 'POST', headers: signed, rawBody });
        expect(res.status).toBe(400);
        expect(typeof res.body.message).toBe('string');
      }

      // the real thing, as PayPal sends it
      const ok = await request(hook(), { method: 'POST', headers: signed, rawBody: body });
      expect(ok.status).toBe(200);
      expect(ok.body).toEqual({ status: 'paid' });
      expect(await ordersOf(checkoutId)).toBe(1);
      expect((await api.get(checkoutId, token)).body.paymentDetails.id).toBe(paypalOrderId!);
    });
  });

  describe('a refund made in PayPal’s dashboard', () => {
    it('shows on the order and the dashboard, once, however often the event is delivered', async () => {
      const { checkoutId } = await newCheckout();
      const paypalOrderId = await buyerApproves(checkoutId);
      expect((await api.pay(checkoutId, paypalOrderId, token)).status).toBe(200);
      await shop.paypal.webhooks.idle();

      const refund = await fetch(`${shop.paypal.url}/__fake/captures/${captureIdOf(paypalOrderId)}/refund`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ value: '15.00' }),
      });
      expect(refund.status).toBe(201);
      const refundId = ((await refund.json()) as { id: string }).id;
      await shop.paypal.webhooks.idle();
      const refunded = lastEvent('PAYMENT.CAPTURE.REFUNDED');

      // replayed 5 times: twice one after the other, three at once
      expect(shop.paypal.webhooks.resend(refunded.id)).toBe(true);
      await shop.paypal.webhooks.idle();
      expect(shop.paypal.webhooks.resend(refunded.id)).toBe(true);
      await shop.paypal.webhooks.idle();
      for (let i = 0; i < 3; i++) shop.paypal.webhooks.resend(refunded.id);
      await shop.paypal.webhooks.idle();
      expect(deliveriesOf(refunded.id).map((d) => d.status)).toEqual([200, 200, 200, 200, 200, 200]);

      const order = await orderOfCheckout(checkoutId);
      expect(order.externalRefunds).toEqual([
        { id: refundId, kind: 'refund', amount: 15, currency: 'GBP', at: expect.any(String) },
      ]);
      const notes = order.statusHistory.filter((e) => e.note);
      expect(notes).toEqual([
        expect.objectContaining({
          status: 'Processing',
          note: `Refunded in PayPal, outside the shop: £15.00 (PayPal refund ${refundId})`,
        }),
      ]);
      expect(order.status).toBe('Processing');
      expect(order.totalPrice).toBe(40);

      const stats = await request(`${shop.orders.url}/api/admin/stats`, { token: adminToken });
      expect(stats.status).toBe(200);
      expect(stats.body.paymentAlerts.count).toBeGreaterThanOrEqual(1);
      expect(stats.body.paymentAlerts.orders.map((o: OrderJson) => o._id)).toContain(order._id);

      // the buyer's own view shows the money given back too
      const mine = await request(`${shop.orders.url}/api/orders/${order._id}`, {
        token: shop.orders.token({ id: buyer, name: 'Ray Lewis' }),
      });
      expect(mine.body.externalRefunds).toHaveLength(1);
    });

    it('a chargeback (REVERSED) is recorded as a reversal', async () => {
      const { checkoutId } = await newCheckout();
      const paypalOrderId = await buyerApproves(checkoutId);
      await shop.paypal.webhooks.idle();
      shop.paypal.reverseCapture(captureIdOf(paypalOrderId));
      await shop.paypal.webhooks.idle();
      const order = await orderOfCheckout(checkoutId);
      expect(order.externalRefunds).toEqual([expect.objectContaining({ kind: 'reversal', amount: 40 })]);
      expect(order.statusHistory.at(-1)?.note).toMatch(/^Payment reversed by PayPal \(a chargeback\): £40\.00/);
    });

    it('the shop’s own refund (an admin cancelling) is not taken for one made outside it', async () => {
      const { checkoutId } = await newCheckout();
      const paypalOrderId = await buyerApproves(checkoutId);
      await shop.paypal.webhooks.idle();
      const order = await orderOfCheckout(checkoutId);
      const cancelled = await request(`${shop.orders.url}/api/admin/orders/${order._id}`, {
        method: 'PUT',
        body: { status: 'Cancelled' },
        token: adminToken,
      });
      expect(cancelled.status).toBe(200);
      await shop.paypal.webhooks.idle();
      const refunded = lastEvent('PAYMENT.CAPTURE.REFUNDED');
      expect(
        (refunded.resource.links as Array<{ rel: string; href: string }>).find((l) => l.rel === 'up')?.href,
      ).toContain(captureIdOf(paypalOrderId));
      expect(await eventModel.findById(refunded.id).lean().exec()).toMatchObject({ outcome: 'own-refund' });
      expect((await orderOfCheckout(checkoutId)).externalRefunds).toBeUndefined();
    });

    it('the shop’s own refund of a return is not taken for one made outside it', async () => {
      const { checkoutId } = await newCheckout();
      await buyerApproves(checkoutId);
      await shop.paypal.webhooks.idle();
      const order = await orderOfCheckout(checkoutId);
      const admin = (body: unknown, path = '') =>
        request(`${shop.orders.url}/api/admin/orders/${order._id}${path}`, { method: 'PUT', body, token: adminToken });
      expect((await admin({ status: 'Delivered' })).status).toBe(200);
      const asked = await request(`${shop.orders.url}/api/orders/${order._id}/returns`, {
        method: 'POST',
        body: { lines: [{ line: 0, quantity: 1 }], reason: 'Too small' },
        token: shop.orders.token({ id: buyer, name: 'Ray Lewis' }),
      });
      expect(asked.status).toBe(201);
      const returnId = (asked.body as OrderJson).returns![0]._id;
      expect((await admin({ status: 'Approved' }, `/returns/${returnId}`)).status).toBe(200);
      const received = await admin({ status: 'Received', restock: [] }, `/returns/${returnId}`);
      expect(received.status).toBe(200);
      expect((received.body as OrderJson).returns![0].status).toBe('Refunded');
      await shop.paypal.webhooks.idle();
      const refunded = lastEvent('PAYMENT.CAPTURE.REFUNDED');
      expect(await eventModel.findById(refunded.id).lean().exec()).toMatchObject({ outcome: 'own-refund' });
      const after = await orderOfCheckout(checkoutId);
      expect(after.externalRefunds).toBeUndefined();
      expect(after.statusHistory.filter((e) => e.note)).toEqual([]);
    });
  });

  it('a denied capture gives the checkout’s stock back', async () => {
    const { productId, checkoutId } = await newCheckout(5);
    expect(await stockOf(shop, productId)).toBe(3);
    await buyerApproves(checkoutId, '40.00', 'declined');
    await shop.paypal.webhooks.idle();
    const denied = lastEvent('PAYMENT.CAPTURE.DENIED');
    expect(await eventModel.findById(denied.id).lean().exec()).toMatchObject({ outcome: 'released' });
    expect(await stockOf(shop, productId)).toBe(5);
    expect(await ordersOf(checkoutId)).toBe(0);
    // delivered again: nothing more given back
    shop.paypal.webhooks.resend(denied.id);
    await shop.paypal.webhooks.idle();
    expect(await stockOf(shop, productId)).toBe(5);

    // the buyer tries again with another payment: held again, paid, one order
    const paypalOrderId = await buyerApproves(checkoutId);
    expect((await api.pay(checkoutId, paypalOrderId, token)).status).toBe(200);
    await shop.paypal.webhooks.idle();
    expect(await ordersOf(checkoutId)).toBe(1);
    expect(await stockOf(shop, productId)).toBe(3);
  });

  it('ignores events it does not act on, once verified', async () => {
    const body = JSON.stringify({ id: 'WH-OTHER-1', event_type: 'CHECKOUT.ORDER.APPROVED', resource: {} });
    const headers = shop.paypal.webhooks.sign(body) as unknown as Record<string, string>;
    const res = await request(hook(), { method: 'POST', headers, rawBody: body });
    expect(res).toMatchObject({ status: 200, body: { status: 'ignored' } });
    const again = await request(hook(), { method: 'POST', headers, rawBody: body });
    expect(again).toMatchObject({ status: 200, body: { status: 'duplicate' } });
  });
});
