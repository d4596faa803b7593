// Cancelling a paid order refunds its PayPal payment exactly once (issue 25), against the real orders, checkout,
// catalog and identity in one RabbitMQ namespace and the fake PayPal: orders asks checkout (which owns payments and
// talks to PayPal) over RabbitMQ, then cancels with the refund on the order's history and in its status-changed
// event, and catalog gives the units back. Two admins at once, a retry after a timeout, a refund PayPal made whose
// answer was lost: one refund. A refund PayPal refuses leaves the order paid, the refusal on its history.
import { getModelToken } from '@nestjs/mongoose';
import {
  EVENTS,
  ORDER_MESSAGES,
  PATTERNS,
  type OrderJson,
  type RefundOrderPaymentRequest,
  type RefundOrderPaymentResponse,
} from '@shop/contracts';
import { RpcClient } from '@shop/nest-common';
import { request, waitFor } from '@shop/nest-common/testing';
import type { Model } from 'mongoose';
// The whole purchase (catalog, identity, orders, checkout and the fake PayPal) as checkout's suites start it.
import {
  addProduct,
  address,
  checkoutApi,
  line,
  newUserId,
  startShop,
  stockOf,
  type Shop,
} from '../../checkout/test/checkout.fixtures';
import { Payment } from '../../checkout/src/checkouts/payment.schema';
import { Order } from '../src/orders/order.schema';
import { OrdersService } from '../src/orders/orders.service';
import { ADMIN, CUSTOMER, sleep, tapEvents, type EventsTap } from './orders.fixtures';

/** Shorter than the fake's 2 s per slow call, so a slow PayPal makes the admin's cancel time out. */
const REFUND_TIMEOUT_MS = 1500;
const SECOND_ADMIN = { id: '64b7f9f9f9f9f9f9f9f9f9fc', role: 'admin' as const, name: 'Bea Boss' };
const INSUFFICIENT_FUNDS = 'Refund refused by PayPal: Capture could not be refunded due to insufficient funds.';
const NOT_CONFIRMED = ORDER_MESSAGES.refundNotConfirmed;

describe('orders: cancelling a paid order refunds it, once', () => {
  let shop: Shop;
  let events: EventsTap;
  let buyer: { id: string; name: string };
  let buyerToken: string;

  beforeAll(async () => {
    shop = await startShop({
      ordersEnv: { REFUND_TIMEOUT_MS: String(REFUND_TIMEOUT_MS), REFUND_CHECK_MS: '300' },
      checkoutEnv: { FINALIZE_SWEEP_MS: '600000' },
    });
    events = await tapEvents(shop.orders.config.RABBITMQ_URL, shop.orders.namespace);
    buyer = { id: newUserId(), name: 'Ray Lewis' };
    buyerToken = shop.checkout.token(buyer);
  }, 90_000);
  afterAll(async () => {
    await events?.close();
    await shop?.close();
  });
  afterEach(() => shop.paypal.setMode('normal'));

  const adminPut = (id: string, status: string, as: { id: string; role: 'admin' | 'customer'; name: string } = ADMIN) =>
    request(`${shop.orders.url}/api/admin/orders/${id}`, {
      method: 'PUT',
      body: { status },
      token: shop.orders.token(as),
    });
  const read = async (id: string) =>
    (await request(`${shop.orders.url}/api/orders/${id}`, { token: shop.orders.token(ADMIN) })).body as OrderJson;
  const by = (admin: { id: string; name: string } = ADMIN) => ({ _id: admin.id, name: admin.name });

  /** The refunds PayPal itself records on the order's capture, and the capture's status. */
  const atPayPal = (paypalOrderId: string) => {
    const payments = shop.paypal.orders.get(paypalOrderId)?.purchase_units[0].payments;
    return { refunds: payments?.refunds ?? [], captureStatus: payments?.captures[0].status };
  };
  const payments = () => shop.checkout.app.get<Model<Payment>>(getModelToken(Payment.name));
  const orders = () => shop.orders.app.get<Model<Order>>(getModelToken(Order.name));
  /** As an admin's cancel whose refund got no answer leaves the order: marked, a minute ago. */
  const markRefundPending = async (id: string) => {
    await waitFor('the placed event out', async () => !(await orders().findById(id).lean())!.outboxPending);
    const at = new Date(Date.now() - 60_000);
    await orders().updateOne({ _id: id }, { $set: { refundPending: { at, by: by() }, refundPendingAt: at } });
  };
  /** Refunds the capture at PayPal with checkout's request id, as if checkout's request went and its answer was lost. */
  async function refundLostAtPayPal(captureId: string, paypalOrderId: string): Promise<string> {
    const basic = Buffer.from(`${shop.paypal.clientId}:${shop.paypal.clientSecret}`).toString('base64');
    const lost = await fetch(`${shop.paypal.url}/v2/payments/captures/${captureId}/refund`, {
      method: 'POST',
      headers: {
        authorization: `Basic ${basic}`,
        'content-type': 'application/json',
        'PayPal-Request-Id': `refund-${paypalOrderId}`,
      },
      body: '{}',
    });
    expect(lost.status).toBe(201);
    return ((await lost.json()) as { id: string }).id;
  }
  const eventsOf = (type: typeof EVENTS.orders.orderCancelled | typeof EVENTS.orders.orderStatusChanged, id: string) =>
    events.of(type).filter((e) => e.data.orderId === id);

  /** What a shopper sees of each variant of the product: [size, color, countInStock, soldCount]. */
  async function variantsOf(productId: string) {
    const products = shop.catalog.app.get<
      Model<{ variants: Array<{ size: string; color: string; countInStock: number; soldCount: number }> }>
    >(getModelToken('Product'));
    const product = await products.findById(productId).lean().exec();
    return product!.variants.map((v) => [v.size, v.color, v.countInStock, v.soldCount]);
  }

  /**
   * A paid order, bought end to end: 2 × £20 of the product's M/Purple variant (stock 5, and 3 of every other
   * variant), paid through the fake PayPal, finalized, its units committed as sold by catalog.
   */
  async function buy() {
    const productId = await addProduct(shop, { price: 20, countInStock: 5, otherStock: 3 });
    const before = await variantsOf(productId);
    const api = checkoutApi(shop);
    const created = await api.create({ checkoutItems: [line(productId, 2)], shippingAddress: address() }, buyerToken);
    expect(created.status).toBe(201);
    const paypalOrderId = shop.paypal.createCompletedOrder({ value: '40.00' });
    expect((await api.pay(created.body._id, paypalOrderId, buyerToken)).status).toBe(200);
    const finalized = await api.finalize(created.body._id, buyerToken);
    expect(finalized.status).toBe(201);
    const order = finalized.body as OrderJson;
    await waitFor('the units committed as sold', async () =>
      (await variantsOf(productId)).some(([size, color, , sold]) => size === 'M' && color === 'Purple' && sold === 2),
    );
    expect(await stockOf(shop, productId)).toBe(before.reduce((n, v) => n + Number(v[2]), 0) - 2);
    return { order, productId, before, paypalOrderId, captureId: order.paymentDetails!.captureId };
  }

  /** The cancellation's effects, once: one refund at PayPal, the stock back per variant, one of each event. */
  async function expectCancelledOnce(bought: Awaited<ReturnType<typeof buy>>, refundId: string) {
    const { order, productId, before, paypalOrderId } = bought;
    expect(atPayPal(paypalOrderId)).toEqual({
      refunds: [
        expect.objectContaining({
          id: refundId,
          status: 'COMPLETED',
          amount: { currency_code: 'GBP', value: '40.00' },
        }),
      ],
      captureStatus: 'REFUNDED',
    });
    expect(await payments().findOne({ paypalOrderId }).lean()).toMatchObject({
      status: 'refunded',
      refundId,
      refundedPence: 4000,
      refundedOrderId: order._id,
    });
    await waitFor(
      'the stock back',
      async () => (await stockOf(shop, productId)) === before.reduce((n, v) => n + Number(v[2]), 0),
    );
    await sleep(500); // anything announced twice would have arrived by now
    expect(await variantsOf(productId)).toEqual(before);
    expect(eventsOf(EVENTS.orders.orderCancelled, order._id)).toHaveLength(1);
    const changes = eventsOf(EVENTS.orders.orderStatusChanged, order._id);
    expect(changes).toHaveLength(1);
    return changes[0];
  }

  it('refunds the payment once when two admins and a double click cancel at once; the refund is on the history, in the event, and the stock is back', async () => {
    const bought = await buy();
    const { order } = bought;
    const answers = await Promise.all([
      adminPut(order._id, 'Cancelled'),
      adminPut(order._id, 'Cancelled', SECOND_ADMIN),
      adminPut(order._id, 'Cancelled'),
      adminPut(order._id, 'Cancelled', SECOND_ADMIN),
      adminPut(order._id, 'Cancelled'),
    ]);
    for (const res of answers) expect(res).toMatchObject({ status: 200, body: { status: 'Cancelled', isPaid: true } });

    const cancelled = await read(order._id);
    expect(cancelled.statusHistory).toEqual([
      { status: 'Processing', at: order.createdAt },
      {
        status: 'Cancelled',
        at: expect.any(String),
        by: expect.objectContaining({ _id: expect.stringMatching(new RegExp(`^(${ADMIN.id}|${SECOND_ADMIN.id})$`)) }),
        refund: { id: expect.any(String), amount: 40 },
      },
    ]);
    for (const res of answers) expect(res.body.statusHistory).toEqual(cancelled.statusHistory);
    const [, entry] = cancelled.statusHistory;
    expect(entry.by).toEqual(entry.by!._id === ADMIN.id ? by() : by(SECOND_ADMIN));

    const change = await expectCancelledOnce(bought, entry.refund!.id);
    expect(change).toMatchObject({
      eventId: `orders.order.status-changed:${order._id}:1`,
      data: {
        orderId: order._id,
        status: 'Cancelled',
        previousStatus: 'Processing',
        changedAt: entry.at,
        customer: { name: buyer.name },
        refund: { amount: 40, currency: 'GBP' },
      },
    });
    // PayPal was asked once, with the payment's one request id.
    const refundCalls = shop.paypal.calls().filter((c) => c.captureId === bought.captureId);
    expect(refundCalls.map((c) => [c.status, c.requestId])).toEqual([[201, `refund-${bought.paypalOrderId}`]]);
  });

  it('makes one refund of concurrent requests that reach checkout itself, each answered with it', async () => {
    const bought = await buy();
    const rpc = new RpcClient('checkout', {
      url: shop.checkout.config.RABBITMQ_URL,
      namespace: shop.checkout.namespace,
      timeoutMs: 20_000,
    });
    try {
      const req: RefundOrderPaymentRequest = {
        orderId: bought.order._id,
        checkoutId: bought.order.checkoutId,
        paypalOrderId: bought.paypalOrderId,
        captureId: bought.captureId,
      };
      const answers = await Promise.all(
        Array.from({ length: 6 }, () =>
          rpc.send<RefundOrderPaymentResponse>(PATTERNS.checkout.refundOrderPayment, req),
        ),
      );
      const refundId = atPayPal(bought.paypalOrderId).refunds[0]?.id;
      expect(refundId).toEqual(expect.any(String));
      for (const answer of answers)
        expect(answer).toEqual({ refunded: true, refundId, amountPence: 4000, currency: 'GBP' });
      expect(atPayPal(bought.paypalOrderId).refunds).toHaveLength(1);

      // Another checkout's payment, or a capture that is not the payment's: refused, nothing refunded.
      for (const wrong of [
        { ...req, checkoutId: newUserId() },
        { ...req, captureId: 'CAPTURE-NOT-OURS' },
        { ...req, paypalOrderId: 'UNKNOWNPAYPAL' },
      ])
        await expect(rpc.send(PATTERNS.checkout.refundOrderPayment, wrong)).rejects.toMatchObject({
          status: 409,
          message: 'No PayPal payment of this order is on record',
        });
      await expect(
        rpc.send(PATTERNS.checkout.refundOrderPayment, { ...req, captureId: { $ne: '' } }),
      ).rejects.toMatchObject({ status: 400, message: 'captureId must be a PayPal capture id' });
      expect(atPayPal(bought.paypalOrderId).refunds).toHaveLength(1);
    } finally {
      await rpc.onApplicationShutdown();
    }
  });

  it('refunds once across a retry after the first cancel timed out while PayPal was slow', async () => {
    const bought = await buy();
    const { order, paypalOrderId } = bought;
    shop.paypal.setOrderMode(paypalOrderId, 'slow'); // each PayPal call about this order takes 2 s
    const first = await adminPut(order._id, 'Cancelled');
    expect(first).toMatchObject({ status: 503, body: { statusCode: 503, message: NOT_CONFIRMED } });
    // Nothing changed on the order meanwhile: still paid, still Processing.
    expect(await read(order._id)).toMatchObject({
      status: 'Processing',
      isPaid: true,
      statusHistory: [expect.anything()],
    });

    // The admin tries again: PayPal may still be slow; the refund made meanwhile is answered, not made again.
    await waitFor(
      'the first refund recorded by checkout',
      async () => (await payments().findOne({ paypalOrderId }).lean())?.status === 'refunded',
      15_000,
    );
    shop.paypal.setOrderMode(paypalOrderId, 'normal');
    const retry = await adminPut(order._id, 'Cancelled');
    expect(retry).toMatchObject({ status: 200, body: { status: 'Cancelled' } });
    const entry = (retry.body as OrderJson).statusHistory[1];
    expect(entry).toEqual({
      status: 'Cancelled',
      at: expect.any(String),
      by: by(),
      refund: { id: expect.any(String), amount: 40 },
    });
    await expectCancelledOnce(bought, entry.refund!.id);
  }, 40_000);

  it('cancels by itself, once, an order whose refund was made after the admin stopped waiting', async () => {
    const bought = await buy();
    const { order, paypalOrderId } = bought;
    shop.paypal.setOrderMode(paypalOrderId, 'slow');
    expect(await adminPut(order._id, 'Cancelled', SECOND_ADMIN)).toMatchObject({
      status: 503,
      body: { message: NOT_CONFIRMED },
    });
    expect((await orders().findById(order._id).lean())!.refundPending).toMatchObject({ by: by(SECOND_ADMIN) });
    // Meanwhile the order may not be shipped: its money may be back with the buyer already.
    expect(await adminPut(order._id, 'Shipped')).toMatchObject({
      status: 409,
      body: { statusCode: 409, message: ORDER_MESSAGES.refundPending },
    });
    // Nobody asks again: the pending-refund check finds the refund made, and cancels in the admin's name.
    await waitFor(
      'the order cancelled by the check',
      async () => (await read(order._id)).status === 'Cancelled',
      20_000,
    );
    const entry = (await read(order._id)).statusHistory[1];
    expect(entry).toEqual({
      status: 'Cancelled',
      at: expect.any(String),
      by: by(SECOND_ADMIN),
      refund: { id: expect.any(String), amount: 40 },
    });
    await expectCancelledOnce(bought, entry.refund!.id);
    expect((await orders().findById(order._id).lean())!.refundPending).toBeUndefined();
  }, 40_000);

  it('an order marked before the check read refundPendingAt gets it, once per database, and is checked', async () => {
    const bought = await buy();
    await waitFor(
      'the placed event out',
      async () => !(await orders().findById(bought.order._id).lean())!.outboxPending,
    );
    const at = new Date(Date.now() - 60_000);
    await orders().updateOne({ _id: bought.order._id }, { $set: { refundPending: { at, by: by() } } }); // the old mark
    await orders()
      .db.collection('migrations')
      .deleteOne({ _id: 'orders.refund-pending-at' as never });
    const service = shop.orders.app.get(OrdersService);
    expect(await service.backfillRefundPendingAt()).toBeGreaterThanOrEqual(1);
    expect((await orders().findById(bought.order._id).lean())!.refundPendingAt).toEqual(at);
    expect(await service.backfillRefundPendingAt()).toBe(0); // recorded: never read the whole collection again
    // The check finds it now: no refund was made, so the mark goes and the order stays paid.
    await waitFor('the mark cleared', async () => !(await orders().findById(bought.order._id).lean())!.refundPending);
    expect((await orders().findById(bought.order._id).lean())!.refundPendingAt).toBeUndefined();
    expect(await read(bought.order._id)).toMatchObject({ status: 'Processing', isPaid: true });
  }, 40_000);

  it('the check: a refund PayPal made but nobody recorded cancels the order with it; no refund made leaves it paid', async () => {
    const made = await buy();
    const refundId = await refundLostAtPayPal(made.captureId, made.paypalOrderId);
    await markRefundPending(made.order._id);
    const notMade = await buy();
    await markRefundPending(notMade.order._id);

    await waitFor('the made refund found', async () => (await read(made.order._id)).status === 'Cancelled', 15_000);
    expect((await read(made.order._id)).statusHistory[1]).toMatchObject({
      by: by(),
      refund: { id: refundId, amount: 40 },
    });
    await expectCancelledOnce(made, refundId);

    await waitFor('the mark cleared', async () => !(await orders().findById(notMade.order._id).lean())!.refundPending);
    expect(await read(notMade.order._id)).toMatchObject({
      status: 'Processing',
      isPaid: true,
      statusHistory: [expect.anything()],
    });
    expect(atPayPal(notMade.paypalOrderId)).toEqual({ refunds: [], captureStatus: 'COMPLETED' });
    expect(await payments().findOne({ paypalOrderId: notMade.paypalOrderId }).lean()).toMatchObject({
      status: 'captured',
    });
  }, 40_000);

  it('refunds once when PayPal made the refund but its answer was lost: asked again with the same request id, PayPal answers that refund', async () => {
    const bought = await buy();
    // As if checkout's earlier request reached PayPal and the answer never came back.
    const refundId = await refundLostAtPayPal(bought.captureId, bought.paypalOrderId);

    const res = await adminPut(bought.order._id, 'Cancelled');
    expect(res).toMatchObject({ status: 200, body: { status: 'Cancelled' } });
    expect((res.body as OrderJson).statusHistory[1].refund).toEqual({ id: refundId, amount: 40 });
    await expectCancelledOnce(bought, refundId);
  });

  it('leaves the order paid, with the refusal on its history, when PayPal refuses the refund; a later cancel refunds', async () => {
    const bought = await buy();
    const { order, paypalOrderId, productId } = bought;
    const stockBefore = await stockOf(shop, productId);
    shop.paypal.setOrderMode(paypalOrderId, 'refund-refused');

    const refused = await adminPut(order._id, 'Cancelled', SECOND_ADMIN);
    expect(refused).toMatchObject({ status: 502, body: { statusCode: 502, message: INSUFFICIENT_FUNDS } });
    const kept = await read(order._id);
    expect(kept).toMatchObject({ status: 'Processing', isPaid: true, paymentStatus: 'paid' });
    expect(kept.statusHistory).toEqual([
      { status: 'Processing', at: order.createdAt },
      { status: 'Processing', at: expect.any(String), by: by(SECOND_ADMIN), note: INSUFFICIENT_FUNDS },
    ]);
    // Its buyer sees neither the note nor who looked at the order: the shop's business.
    const asBuyer = await request(`${shop.orders.url}/api/orders/${order._id}`, { token: shop.orders.token(buyer) });
    expect(asBuyer.body.statusHistory).toEqual([{ status: 'Processing', at: order.createdAt }]);
    await sleep(500);
    expect(eventsOf(EVENTS.orders.orderCancelled, order._id)).toEqual([]);
    expect(eventsOf(EVENTS.orders.orderStatusChanged, order._id)).toEqual([]);
    expect(await stockOf(shop, productId)).toBe(stockBefore);
    expect(atPayPal(paypalOrderId)).toEqual({ refunds: [], captureStatus: 'COMPLETED' });
    expect(await payments().findOne({ paypalOrderId }).lean()).toMatchObject({ status: 'captured' });

    // Once PayPal takes it, the admin cancels: refunded, the refusal kept in the history before it.
    shop.paypal.setOrderMode(paypalOrderId, 'normal');
    const cancelled = await adminPut(order._id, 'Cancelled');
    expect(cancelled).toMatchObject({ status: 200, body: { status: 'Cancelled' } });
    const history = (cancelled.body as OrderJson).statusHistory;
    expect(history).toEqual([
      ...kept.statusHistory,
      { status: 'Cancelled', at: expect.any(String), by: by(), refund: { id: expect.any(String), amount: 40 } },
    ]);
    const change = await expectCancelledOnce(bought, history[2].refund!.id);
    // The buyer's own reads show the cancellation and its refund, without the note or the admins' names.
    const mine = await request(`${shop.orders.url}/api/orders/my-orders`, { token: shop.orders.token(buyer) });
    expect((mine.body as unknown as OrderJson[]).find((o) => o._id === order._id)!.statusHistory).toEqual([
      { status: 'Processing', at: order.createdAt },
      { status: 'Cancelled', at: history[2].at, refund: history[2].refund },
    ]);
    // The note took the history's place 1: the cancellation is its change 2.
    expect(change).toMatchObject({
      eventId: `orders.order.status-changed:${order._id}:2`,
      data: { status: 'Cancelled', previousStatus: 'Processing', refund: { amount: 40, currency: 'GBP' } },
    });
  });

  it('refuses to cancel a delivered order, refunding nothing; a shipped one cancels with the admins named', async () => {
    const delivered = await buy();
    expect(await adminPut(delivered.order._id, 'Delivered')).toMatchObject({ status: 200 });
    expect(await adminPut(delivered.order._id, 'Cancelled')).toMatchObject({
      status: 400,
      body: { statusCode: 400, message: 'A delivered order cannot be cancelled' },
    });
    expect(await read(delivered.order._id)).toMatchObject({ status: 'Delivered', isDelivered: true });
    expect(shop.paypal.calls().filter((c) => c.captureId === delivered.captureId)).toEqual([]);

    const shipped = await buy();
    expect(await adminPut(shipped.order._id, 'Shipped', SECOND_ADMIN)).toMatchObject({ status: 200 });
    const cancelled = await adminPut(shipped.order._id, 'Cancelled');
    expect(cancelled).toMatchObject({ status: 200, body: { status: 'Cancelled' } });
    expect((cancelled.body as OrderJson).statusHistory).toEqual([
      { status: 'Processing', at: shipped.order.createdAt },
      { status: 'Shipped', at: expect.any(String), by: by(SECOND_ADMIN) },
      { status: 'Cancelled', at: expect.any(String), by: by(), refund: { id: expect.any(String), amount: 40 } },
    ]);
    expect(atPayPal(shipped.paypalOrderId).refunds).toHaveLength(1);
  });

  it('lets only admins cancel: 401 without a token, 403 for the buyer; nothing refunded', async () => {
    const { order, paypalOrderId } = await buy();
    const put = (token?: string) =>
      request(`${shop.orders.url}/api/admin/orders/${order._id}`, {
        method: 'PUT',
        body: { status: 'Cancelled' },
        token,
      });
    expect(await put()).toMatchObject({ status: 401, body: { statusCode: 401, message: 'Not authorized, no token' } });
    expect(await put(shop.orders.token(CUSTOMER))).toMatchObject({
      status: 403,
      body: { statusCode: 403, message: 'Not authorized as an admin' },
    });
    expect(await put(shop.orders.token({ ...buyer, role: 'customer' }))).toMatchObject({ status: 403 });
    expect(await read(order._id)).toMatchObject({ status: 'Processing', isPaid: true });
    expect(atPayPal(paypalOrderId).refunds).toEqual([]);
  });
});
