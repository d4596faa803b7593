// PayPal's webhooks through the running shop (issue 38): the stack's fake PayPal sends its signed events to the
// gateway's /api/paypal/webhooks, as PayPal would. A buyer whose browser closes after PayPal captured never calls
// pay, and still has exactly one order; a refund made in PayPal's dashboard shows on the order and on the admin's
// dashboard until the admin marks it reviewed; a denied capture gives the stock back. Everything it changes it made itself (product, customer, orders).
import { randomUUID } from 'node:crypto';
import type { OrderJson } from '@shop/contracts';
import { api, e2eEnv, login, SHIPPING_ADDRESS, uniqueEmail, variantsFor, variantStock, type E2eEnv } from './support';

jest.setTimeout(90_000);

describe('PayPal webhooks through the gateway', () => {
  let env: E2eEnv;
  let adminToken: string;
  let customerToken = '';
  let productId = '';
  const tag = randomUUID().slice(0, 8);

  const call = (method: string, url: string, token?: string, json?: unknown) =>
    api(env.baseUrl, method, url, { token, json });
  const until = async <T>(what: string, read: () => Promise<T | undefined>, timeoutMs = 20_000): Promise<T> => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const value = await read();
      if (value !== undefined) return value;
      if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms`);
      await new Promise((r) => setTimeout(r, 250));
    }
  };
  const stockOfM = async () => variantStock((await call('GET', `/api/products/${productId}`)).body, 'M', 'Navy');

  /** A checkout of 2 × M/Navy for the journey's customer. */
  async function newCheckout(): Promise<{ _id: string; totalPrice: number }> {
    const res = await call('POST', '/api/checkout', customerToken, {
      checkoutItems: [{ productId, quantity: 2, size: 'M', color: 'Navy' }],
      shippingAddress: SHIPPING_ADDRESS,
      paymentMethod: 'Paypal',
    });
    expect(res.status).toBe(201);
    return res.body;
  }

  /** What PayPal's buttons do in the browser (the SPA's test button too): create naming the checkout, capture. */
  async function approveAtPayPal(checkout: { _id: string; totalPrice: number }, declined = false): Promise<string> {
    const post = (path: string, body: unknown) =>
      fetch(`${env.paypalUrl}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      }).then((r) => r.json() as Promise<{ id: string }>);
    const order = await post('/v2/checkout/orders', {
      intent: 'CAPTURE',
      purchase_units: [
        { custom_id: checkout._id, amount: { currency_code: 'GBP', value: checkout.totalPrice.toFixed(2) } },
      ],
    });
    if (declined) await post('/__fake/mode', { mode: 'declined', orderId: order.id });
    await post(`/v2/checkout/orders/${order.id}/capture`, {});
    return order.id;
  }

  const myOrderOf = (checkoutId: string) =>
    until(`the order of checkout ${checkoutId}`, async () => {
      const mine = (await call('GET', '/api/orders/my-orders', customerToken)).body as OrderJson[];
      const found = mine.filter((o) => o.checkoutId === checkoutId);
      return found.length ? found : undefined;
    });

  beforeAll(async () => {
    env = e2eEnv();
    adminToken = (await call('POST', '/api/users/login', undefined, login(env, 'admin'))).body.token;
    const seeded = (await call('GET', '/api/products')).body as Array<{ images: Array<{ url: string }> }>;
    const image = seeded.flatMap((p) => p.images).find((i) => i.url.startsWith('/uploads/seed/'));
    const made = await call('POST', '/api/admin/products', adminToken, {
      name: `Webhook Journey Hoodie ${tag}`,
      description: 'A hoodie PayPal’s webhooks journey buys.',
      price: 30,
      variants: variantsFor(['M'], ['Navy'], 10),
      sku: `E2E-WH-${tag}`,
      category: 'Top Wear',
      gender: 'Men',
      brand: 'Baltimore Ravens',
      sizes: ['M'],
      colors: ['Navy'],
      material: 'Fleece',
      images: [image],
    });
    expect(made.status).toBe(201);
    productId = made.body._id;
    const customer = { name: `Webhook Buyer ${tag}`, email: uniqueEmail('webhook.buyer'), password: 'Buyer!2345' };
    customerToken = (await call('POST', '/api/users/register', undefined, customer)).body.token;
  });

  it('a capture the browser never reports becomes one order; a dashboard refund flags it for the admin until reviewed', async () => {
    const checkout = await newCheckout();
    const paypalOrderId = await approveAtPayPal(checkout);
    // no PUT /pay, no finalize: the webhook alone
    const [order] = await myOrderOf(checkout._id);
    expect(order).toMatchObject({ isPaid: true, totalPrice: 60, paymentDetails: { id: paypalOrderId } });
    await new Promise((r) => setTimeout(r, 1000));
    expect(await myOrderOf(checkout._id)).toHaveLength(1);
    // the browser's late finalize finds the same order
    const finalized = await call('POST', `/api/checkout/${checkout._id}/finalize`, customerToken);
    expect(finalized.body._id).toBe(order._id);

    const captureId = order.paymentDetails!.captureId;
    const refund = await fetch(`${env.paypalUrl}/__fake/captures/${captureId}/refund`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ value: '10.00' }),
    });
    expect(refund.status).toBe(201);
    const flagged = await until('the refund on the order', async () => {
      const o = (await call('GET', `/api/orders/${order._id}`, adminToken)).body as OrderJson;
      return o.externalRefunds?.length ? o : undefined;
    });
    expect(flagged.externalRefunds).toEqual([expect.objectContaining({ kind: 'refund', amount: 10, currency: 'GBP' })]);
    expect(flagged.statusHistory.at(-1)?.note).toMatch(/^Refunded in PayPal, outside the shop: £10\.00/);
    const stats = (await call('GET', '/api/admin/stats', adminToken)).body;
    expect(stats.paymentAlerts.orders.map((o: OrderJson) => o._id)).toContain(order._id);

    // the admin looks at it and marks it reviewed: off the dashboard, the refund kept on the order
    const reviewed = await call('POST', `/api/admin/orders/${order._id}/payment-alert/review`, adminToken, {
      refunds: 1,
    });
    expect(reviewed.status).toBe(200);
    expect((reviewed.body as OrderJson).externalRefunds).toHaveLength(1);
    const after = (await call('GET', '/api/admin/stats', adminToken)).body;
    expect(after.paymentAlerts.orders.map((o: OrderJson) => o._id)).not.toContain(order._id);
  });

  it('a denied capture gives the checkout’s stock back', async () => {
    const before = await stockOfM();
    const checkout = await newCheckout();
    await until('the units held', async () => ((await stockOfM()) === before! - 2 ? true : undefined));
    await approveAtPayPal(checkout, true);
    await until('the stock back', async () => ((await stockOfM()) === before ? true : undefined));
  });

  it('an unsigned event is refused 400 with a message', async () => {
    const res = await api(env.baseUrl, 'POST', '/api/paypal/webhooks', {
      json: { id: 'WH-UNSIGNED', event_type: 'PAYMENT.CAPTURE.COMPLETED', resource: {} },
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ statusCode: 400, message: 'The webhook signature could not be verified' });
  });
});
