// Returns of delivered orders and their partial refunds (issue 38), against the real orders, checkout, catalog and
// identity in one RabbitMQ namespace and the fake PayPal: an order bought end to end with a discount code, delivered,
// returned line by line. Each return refunds its paid share once (checkout, one PayPal-Request-Id per return), catalog
// restocks once per return, several returns never exceed what was paid, and only the buyer returns, only admins decide.
import { getModelToken } from '@nestjs/mongoose';
import {
  EVENTS,
  PATTERNS,
  RETURN_MESSAGES,
  type EventEnvelope,
  type OrderJson,
  type RefundReturnResponse,
  type ReturnStatusChangedEvent,
} from '@shop/contracts';
import { EventBus, namespacedExchange, RpcClient } from '@shop/nest-common';
import { deleteConsumerTopology, request, waitFor } from '@shop/nest-common/testing';
import type { Model } from 'mongoose';
import {
  addProduct,
  address,
  checkoutApi,
  line,
  newUserId,
  startShop,
  type Shop,
} from '../../checkout/test/checkout.fixtures';
import { Order } from '../src/orders/order.schema';
import { PaymentReversals } from '../src/payments/payment-reversals.service';
import { ADMIN, sleep } from './orders.fixtures';

const SECOND_ADMIN = { id: '64b7f9f9f9f9f9f9f9f9f9fc', role: 'admin' as const, name: 'Bea Boss' };
const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined };

describe('orders: returns and partial refunds', () => {
  let shop: Shop;
  let bus: EventBus;
  const returnEvents: Array<EventEnvelope<ReturnStatusChangedEvent>> = [];
  let n = 0;

  beforeAll(async () => {
    shop = await startShop({
      ordersEnv: { REFUND_TIMEOUT_MS: '1500', REFUND_CHECK_MS: '300' },
      checkoutEnv: { FINALIZE_SWEEP_MS: '600000' },
    });
    bus = new EventBus({
      url: shop.orders.config.RABBITMQ_URL,
      service: 'returns-tap',
      exchange: namespacedExchange(shop.orders.namespace),
      logger: quiet,
    });
    await bus.start();
    await bus.subscribe(
      { [EVENTS.orders.returnStatusChanged]: async (e) => void returnEvents.push(e as never) },
      { queue: `${shop.orders.namespace}returns-tap.events` },
    );
  }, 90_000);
  afterAll(async () => {
    await bus?.close();
    await deleteConsumerTopology(shop.orders.config.RABBITMQ_URL, `${shop.orders.namespace}returns-tap.events`);
    await shop?.close();
  });
  afterEach(() => shop.paypal.setMode('normal'));

  const orders = () => shop.orders.app.get<Model<Order>>(getModelToken(Order.name));
  const adminToken = (as = ADMIN) => shop.orders.token(as);
  const returnsOf = (orderId: string) =>
    request(`${shop.orders.url}/api/orders/${orderId}`, { token: adminToken() }).then(
      (r) => (r.body as OrderJson).returns ?? [],
    );
  const ask = (orderId: string, body: unknown, token: string) =>
    request(`${shop.orders.url}/api/orders/${orderId}/returns`, { method: 'POST', body, token });
  const decide = (orderId: string, returnId: string, body: unknown, token = adminToken()) =>
    request(`${shop.orders.url}/api/admin/orders/${orderId}/returns/${returnId}`, { method: 'PUT', body, token });
  const atPayPal = (paypalOrderId: string) => {
    const payments = shop.paypal.orders.get(paypalOrderId)?.purchase_units[0].payments;
    return { refunds: payments?.refunds ?? [], captureStatus: payments?.captures[0].status };
  };
  const eventsOf = (returnId: string) => returnEvents.filter((e) => e.data.returnId === returnId);

  /** [countInStock, soldCount] of the product's M/Purple variant (what `line()` buys). */
  async function variant(productId: string) {
    const products = shop.catalog.app.get<
      Model<{ variants: Array<{ size: string; color: string; countInStock: number; soldCount: number }> }>
    >(getModelToken('Product'));
    const v = (await products.findById(productId).lean().exec())!.variants.find(
      (x) => x.size === 'M' && x.color === 'Purple',
    )!;
    return [v.countInStock, v.soldCount];
  }

  /**
   * A delivered order, bought end to end: 2 × £20 of product A and 1 × £10 of product B with a £5.00 code, so £45.00
   * paid. The code is shared out £4.00 / £1.00, so A's units were paid £18.00 each and B's £9.00.
   */
  async function delivered() {
    const buyer = { id: newUserId(), name: `Ray Lewis ${++n}` };
    const buyerToken = shop.checkout.token(buyer);
    const code = `RET-${Date.now().toString(36)}-${n}`.toUpperCase();
    const made = await request(`${shop.checkout.url}/api/admin/discounts`, {
      method: 'POST',
      body: { code, type: 'fixed', value: 5, active: true },
      token: shop.checkout.token({ id: ADMIN.id, role: 'admin', name: ADMIN.name }),
    });
    expect(made.status).toBe(201);
    const a = await addProduct(shop, { price: 20, countInStock: 5 });
    const b = await addProduct(shop, { price: 10, countInStock: 5 });
    const api = checkoutApi(shop);
    const created = await api.create(
      { checkoutItems: [line(a, 2), line(b, 1)], shippingAddress: address(), discountCode: code },
      buyerToken,
    );
    expect(created.status).toBe(201);
    expect(created.body.totalPrice).toBe(45);
    const paypalOrderId = shop.paypal.createCompletedOrder({ value: '45.00' });
    expect((await api.pay(created.body._id, paypalOrderId, buyerToken)).status).toBe(200);
    const finalized = await api.finalize(created.body._id, buyerToken);
    expect(finalized.status).toBe(201);
    const order = finalized.body as OrderJson;
    await waitFor('the units committed as sold', async () => (await variant(a))[1] === 2);
    const set = await request(`${shop.orders.url}/api/admin/orders/${order._id}`, {
      method: 'PUT',
      body: { status: 'Delivered' },
      token: adminToken(),
    });
    expect(set.status).toBe(200);
    // The lines in the order as bought: A first.
    const lineOf = (productId: string) => order.orderItems.findIndex((l) => l.productId === productId);
    return { order, a, b, lineA: lineOf(a), lineB: lineOf(b), paypalOrderId, buyer, buyerToken };
  }

  it('a return goes Requested → Approved → Received (restocked) → Refunded: the exact share, refunded once though admins click Received at once, restocked once, each step in the history and announced once', async () => {
    const { order, a, lineA, paypalOrderId, buyerToken } = await delivered();
    const asked = await ask(order._id, { lines: [{ line: lineA, quantity: 1 }], reason: 'Too small' }, buyerToken);
    expect(asked.status).toBe(201);
    const ret = (asked.body as OrderJson).returns![0];
    expect(ret).toEqual(
      expect.objectContaining({ status: 'Requested', reason: 'Too small', amount: 18, steps: [expect.any(Object)] }),
    );
    expect(ret.lines).toEqual([expect.objectContaining({ line: lineA, productId: a, quantity: 1, refund: 18 })]);
    expect((asked.body as OrderJson).statusHistory.at(-1)).toEqual(
      expect.objectContaining({ status: 'Delivered', return: { id: ret._id, status: 'Requested', amount: 18 } }),
    );

    const approved = await decide(order._id, ret._id, { status: 'Approved', note: 'Send it back within 14 days' });
    expect(approved.status).toBe(200);
    expect((approved.body as OrderJson).returns![0].status).toBe('Approved');
    const stockBefore = await variant(a);

    // Five "Received" clicks by two admins at once: one refund at PayPal, one Refunded, one restock.
    const clicks = await Promise.all(
      [ADMIN, SECOND_ADMIN, ADMIN, SECOND_ADMIN, ADMIN].map((as) =>
        decide(order._id, ret._id, { status: 'Received', restock: [lineA] }, adminToken(as)),
      ),
    );
    expect(clicks.map((c) => c.status)).toEqual([200, 200, 200, 200, 200]);
    await waitFor('the return refunded', async () => (await returnsOf(order._id))[0].status === 'Refunded');
    const [done] = await returnsOf(order._id);
    expect(done.refund).toEqual({ id: expect.any(String), amount: 18 });
    expect(done.lines[0].restock).toBe(true);
    expect(done.steps.map((s) => s.status)).toEqual(['Requested', 'Approved', 'Received', 'Refunded']);
    expect(atPayPal(paypalOrderId)).toEqual({
      refunds: [expect.objectContaining({ id: done.refund!.id, amount: { currency_code: 'GBP', value: '18.00' } })],
      captureStatus: 'PARTIALLY_REFUNDED',
    });
    await waitFor('the unit back on sale', async () => (await variant(a))[0] === stockBefore[0] + 1);
    expect(await variant(a)).toEqual([stockBefore[0] + 1, stockBefore[1] - 1]);
    await waitFor('the refunded event', async () => eventsOf(ret._id).some((e) => e.data.status === 'Refunded'));
    await sleep(500);
    expect(eventsOf(ret._id).map((e) => e.data.status)).toEqual(['Requested', 'Approved', 'Received', 'Refunded']);
    expect(eventsOf(ret._id)[3].data.refund).toEqual({ amount: 18, currency: 'GBP' });
    // A redelivered Received event restocks nothing more.
    await bus.publish(EVENTS.orders.returnStatusChanged, eventsOf(ret._id)[2].data, {
      eventId: `${eventsOf(ret._id)[2].eventId}:again`,
    });
    await sleep(800);
    expect((await variant(a))[0]).toBe(stockBefore[0] + 1);
    // The history shows each step; the order still reads Delivered, with what was refunded.
    const read = (await request(`${shop.orders.url}/api/orders/${order._id}`, { token: buyerToken })).body as OrderJson;
    expect(read.status).toBe('Delivered');
    expect(read.refunded).toBe(18);
    expect(read.statusHistory.filter((e) => e.return).map((e) => e.return!.status)).toEqual([
      'Requested',
      'Approved',
      'Received',
      'Refunded',
    ]);
    expect(read.statusHistory.find((e) => e.return?.status === 'Approved')?.return?.note).toBe(
      'Send it back within 14 days',
    );
    // The buyer is not shown the admins' names.
    expect(JSON.stringify(read.returns)).not.toContain(ADMIN.name);
    // Received again after the refund changes nothing.
    expect((await decide(order._id, ret._id, { status: 'Received' })).status).toBe(200);
    await sleep(300);
    expect(atPayPal(paypalOrderId).refunds).toHaveLength(1);
  });

  it('several returns never exceed what was paid: the last units refund all that is left, no unit twice, and concurrent requests claim each unit once', async () => {
    const { order, lineA, lineB, paypalOrderId, buyerToken } = await delivered();
    // Five requests at once for both units of A: one gets them.
    const racing = await Promise.all(
      Array.from({ length: 5 }, () =>
        ask(order._id, { lines: [{ line: lineA, quantity: 2 }], reason: 'Changed my mind' }, buyerToken),
      ),
    );
    expect(racing.filter((r) => r.status === 201)).toHaveLength(1);
    for (const r of racing.filter((x) => x.status !== 201)) {
      expect([400, 409]).toContain(r.status);
      expect(typeof r.body.message).toBe('string');
    }
    const [first] = await returnsOf(order._id);
    expect(first.amount).toBe(36);
    // A rejected return frees its units; B is then returned with A's again.
    const rejected = await decide(order._id, first._id, { status: 'Rejected', note: 'Worn' });
    expect(rejected.status).toBe(200);
    const second = await ask(
      order._id,
      {
        lines: [
          { line: lineA, quantity: 1 },
          { line: lineB, quantity: 1 },
        ],
        reason: 'Not as described',
      },
      buyerToken,
    );
    expect(second.status).toBe(201);
    expect((second.body as OrderJson).returns![1].amount).toBe(27);
    const third = await ask(order._id, { lines: [{ line: lineA, quantity: 1 }], reason: 'Too large' }, buyerToken);
    expect(third.status).toBe(201);
    expect((third.body as OrderJson).returns![2].amount).toBe(18);
    const beyond = await ask(order._id, { lines: [{ line: lineA, quantity: 1 }], reason: 'Too large' }, buyerToken);
    expect(beyond.status).toBe(400);
    expect(beyond.body.message).toBe(RETURN_MESSAGES.tooMany((order.orderItems[lineA] as { name: string }).name, 0));
    for (const r of (await returnsOf(order._id)).filter((x) => x.status === 'Requested')) {
      expect((await decide(order._id, r._id, { status: 'Approved' })).status).toBe(200);
      expect((await decide(order._id, r._id, { status: 'Received', restock: [] })).status).toBe(200);
    }
    await waitFor(
      'both refunded',
      async () => (await returnsOf(order._id)).filter((r) => r.status === 'Refunded').length === 2,
    );
    const paid = atPayPal(paypalOrderId);
    expect(paid.captureStatus).toBe('REFUNDED');
    expect(paid.refunds.map((r) => r.amount.value).sort()).toEqual(['18.00', '27.00']);
    const read = (await request(`${shop.orders.url}/api/orders/${order._id}`, { token: buyerToken })).body as OrderJson;
    expect(read.refunded).toBe(45);
    // Checkout refuses a refund above what remains, whatever asks.
    const rpc = new RpcClient('checkout', {
      url: shop.checkout.config.RABBITMQ_URL,
      namespace: shop.checkout.namespace,
      timeoutMs: 20_000,
    });
    try {
      const req = {
        orderId: order._id,
        returnId: newUserId(),
        checkoutId: order.checkoutId,
        paypalOrderId,
        captureId: order.paymentDetails!.captureId,
        amountPence: 1,
      };
      await expect(rpc.send<RefundReturnResponse>(PATTERNS.checkout.refundReturn, req)).rejects.toMatchObject({
        status: 409,
        message: RETURN_MESSAGES.overPaid,
      });
      await expect(rpc.send(PATTERNS.checkout.refundReturn, { ...req, amountPence: { $gt: 0 } })).rejects.toMatchObject(
        { status: 400 },
      );
    } finally {
      await rpc.onApplicationShutdown();
    }
    expect(atPayPal(paypalOrderId).refunds).toHaveLength(2);
  });

  it('a refund PayPal refuses leaves the return Received with the reason for the admin, and is tried again, each time later, until it is made, once', async () => {
    const { order, lineB, paypalOrderId, buyerToken } = await delivered();
    const asked = await ask(
      order._id,
      { lines: [{ line: lineB, quantity: 1 }], reason: 'Arrived damaged' },
      buyerToken,
    );
    const ret = (asked.body as OrderJson).returns![0];
    await decide(order._id, ret._id, { status: 'Approved' });
    shop.paypal.setMode('refund-refused');
    const clicked = Date.now();
    const received = await decide(order._id, ret._id, { status: 'Received', restock: [] });
    expect(received.status).toBe(200);
    const shown = (received.body as OrderJson).returns![0];
    expect(shown.status).toBe('Received');
    expect(shown.refundError).toMatch(/^Refund refused by PayPal: /);
    const queue = await request(`${shop.orders.url}/api/admin/returns?status=Received`, { token: adminToken() });
    expect(queue.status).toBe(200);
    expect(queue.body).toContainEqual(
      expect.objectContaining({ _id: ret._id, orderId: order._id, refundError: shown.refundError }),
    );
    // Tried again REFUND_TIMEOUT_MS (1.5 s) after the click, then twice as long after that try failed.
    const stored = async () => (await orders().findById(order._id).lean())!;
    const firstDue = (await stored()).returnRefundDueAt!.getTime() - clicked;
    expect(firstDue).toBeGreaterThan(1000);
    expect(firstDue).toBeLessThanOrEqual(1500 + (Date.now() - clicked));
    await waitFor(
      'the first retry, refused too',
      async () => (await stored()).returns![0].refundAttempts === 2,
      10_000,
    );
    const secondDue = (await stored()).returnRefundDueAt!.getTime() - Date.now();
    expect(secondDue).toBeGreaterThan(2000);
    expect(secondDue).toBeLessThanOrEqual(3000);
    shop.paypal.setMode('normal');
    await waitFor('the retry refunds it', async () => (await returnsOf(order._id))[0].status === 'Refunded', 15_000);
    expect(atPayPal(paypalOrderId).refunds.map((r) => r.amount.value)).toEqual(['9.00']);
    const after = await request(`${shop.orders.url}/api/admin/returns?status=Received`, { token: adminToken() });
    expect((after.body as Array<{ _id: string }>).some((r) => r._id === ret._id)).toBe(false);
    expect((await orders().findById(order._id).lean())!.returnRefundDueAt).toBeUndefined();
  });

  it('refuses returns of an order not delivered, after 45 days, of units not bought, and bad requests, with a message', async () => {
    const { order, lineA, buyerToken } = await delivered();
    const body = { lines: [{ line: lineA, quantity: 1 }], reason: 'Too small' };
    const tooMany = await ask(order._id, { ...body, lines: [{ line: lineA, quantity: 3 }] }, buyerToken);
    expect(tooMany).toEqual(
      expect.objectContaining({
        status: 400,
        body: expect.objectContaining({ message: RETURN_MESSAGES.tooMany(order.orderItems[lineA].name, 2) }),
      }),
    );
    for (const bad of [
      {},
      { ...body, lines: [] },
      { ...body, lines: [{ line: 9, quantity: 1 }] },
      {
        ...body,
        lines: [
          { line: lineA, quantity: 1 },
          { line: lineA, quantity: 1 },
        ],
      },
      { ...body, lines: [{ line: lineA, quantity: 0 }] },
      { ...body, lines: [{ line: '0', quantity: 1 }] },
      { ...body, lines: 'all' },
      { ...body, reason: 'Because' },
      { ...body, comment: 'x'.repeat(501) },
      { ...body, comment: { $ne: 1 } },
    ]) {
      const res = await ask(order._id, bad, buyerToken);
      expect({ bad, status: res.status }).toEqual({ bad, status: 400 });
      expect(typeof res.body.message).toBe('string');
    }
    // 46 days after the delivery.
    await orders().updateOne({ _id: order._id }, { $set: { deliveredAt: new Date(Date.now() - 46 * 86_400_000) } });
    const late = await ask(order._id, body, buyerToken);
    expect(late.status).toBe(400);
    expect(late.body.message).toMatch(/^Returns are accepted within 45 days of delivery: this order was delivered on /);
    // Not delivered (back to Shipped) → refused.
    await orders().updateOne({ _id: order._id }, { $set: { status: 'Shipped', isDelivered: false } });
    expect((await ask(order._id, body, buyerToken)).body.message).toBe(RETURN_MESSAGES.notDelivered);
    expect(await returnsOf(order._id)).toEqual([]);
  });

  it('only the buyer returns their order (404 for others), only admins decide (401/403), and bad admin input is a 400', async () => {
    const { order, lineA, buyerToken } = await delivered();
    const body = { lines: [{ line: lineA, quantity: 1 }], reason: 'Too small' };
    const stranger = shop.orders.token({ id: newUserId(), role: 'customer', name: 'Olly Other' });
    expect((await ask(order._id, body, stranger)).status).toBe(404);
    expect((await ask(order._id, body, adminToken())).status).toBe(404);
    expect((await request(`${shop.orders.url}/api/orders/${order._id}/returns`, { method: 'POST', body })).status).toBe(
      401,
    );
    expect((await ask('nope', body, buyerToken)).body).toEqual({ statusCode: 400, message: 'Invalid order id' });
    const asked = await ask(order._id, body, buyerToken);
    const ret = (asked.body as OrderJson).returns![0];
    // The buyer cannot decide, nor read the queue.
    expect((await decide(order._id, ret._id, { status: 'Approved' }, buyerToken)).status).toBe(403);
    expect((await request(`${shop.orders.url}/api/admin/returns`, { token: buyerToken })).status).toBe(403);
    expect((await request(`${shop.orders.url}/api/admin/returns`)).status).toBe(401);
    expect((await decide(order._id, ret._id, { status: 'Approved' }, '')).status).toBe(401);
    // Bad admin input.
    for (const [bad, id, message] of [
      [{ status: 'Refunded' }, ret._id, RETURN_MESSAGES.badStatus],
      [{ status: 'Received' }, ret._id, RETURN_MESSAGES.transition('Requested', 'Received')],
      [{ status: 'Approved', note: 5 }, ret._id, RETURN_MESSAGES.badNote],
      [{ status: 'Approved', restock: 'all' }, ret._id, RETURN_MESSAGES.badRestock],
      [{ status: 'Approved' }, 'nope', RETURN_MESSAGES.invalidId],
    ] as const) {
      const res = await decide(order._id, id, bad);
      expect({ bad, status: res.status, message: res.body.message }).toEqual({ bad, status: 400, message });
    }
    expect((await decide(order._id, newUserId(), { status: 'Approved' })).body.message).toBe(RETURN_MESSAGES.notFound);
    expect((await request(`${shop.orders.url}/api/admin/returns?status=Lost`, { token: adminToken() })).status).toBe(
      400,
    );
    expect((await decide(order._id, ret._id, { status: 'Approved' })).status).toBe(200);
    expect(
      (await decide(order._id, ret._id, { status: 'Received', restock: [lineA === 0 ? 1 : 0] })).body.message,
    ).toBe(RETURN_MESSAGES.badRestock);
    // An order with returns stays Delivered.
    const cancel = await request(`${shop.orders.url}/api/admin/orders/${order._id}`, {
      method: 'PUT',
      body: { status: 'Shipped' },
      token: adminToken(),
    });
    expect(cancel.status).toBe(400);
    expect(cancel.body.message).toBe(RETURN_MESSAGES.withReturnsStayDelivered);
  });

  it("money given back outside the shop, recorded from a read of the order taken before a return's step was written, keeps that step", async () => {
    const { order, lineA, paypalOrderId, buyerToken } = await delivered();
    // The webhook of a refund can be handled while a return is being written (the shop's own refund, reported before
    // its return records it): its read of the order is then older than the return's step.
    const before = await orders().findById(order._id).lean().exec();
    const asked = await ask(order._id, { lines: [{ line: lineA, quantity: 1 }], reason: 'Too small' }, buyerToken);
    expect(asked.status).toBe(201);
    const reversals = shop.orders.app.get(PaymentReversals);
    const read = jest.spyOn(orders(), 'findById').mockReturnValueOnce({
      lean: () => ({ exec: async () => before }),
    } as never);
    try {
      const recorded = await reversals.record({
        checkoutId: before!.checkoutId,
        paypalOrderId,
        captureId: before!.paymentDetails!.captureId,
        refundId: 'OUTSIDE-1',
        kind: 'refund',
        amountPence: 500,
        currency: 'GBP',
        at: new Date().toISOString(),
      });
      expect(recorded).toEqual({ orderId: order._id, recorded: true });
    } finally {
      read.mockRestore();
    }
    const history = (await orders().findById(order._id).lean().exec())!.statusHistory!;
    expect(history.map((e) => e.return?.status ?? e.note ?? e.status)).toEqual([
      'Processing',
      'Delivered',
      'Requested',
      expect.stringContaining('OUTSIDE-1'),
    ]);
  });
});
