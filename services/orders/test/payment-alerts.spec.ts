// The dashboard's payment alerts (money PayPal gave back outside the shop, recorded from checkout's webhooks): an admin
// marks an order's reviewed, it leaves the list with a note in its history, and a refund recorded after the admin
// looked keeps it listed. Against the real orders service, its database and RabbitMQ.
import { ORDER_MESSAGES, type AdminStatsJson, type OrderJson } from '@shop/contracts';
import { PaymentReversals } from '../src/payments/payment-reversals.service';
import { ADMIN, CUSTOMER, newId, paidCheckout, startOrders, type OrdersHarness } from './orders.fixtures';

const SECOND_ADMIN = { id: '64b7f9f9f9f9f9f9f9f9f9fc', role: 'admin' as const, name: 'Bea Boss' };

describe('orders: payment alerts reviewed', () => {
  let h: OrdersHarness;
  beforeAll(async () => {
    // The dashboard asks the catalog for its product count: none runs here, so it gives up soon.
    h = await startOrders({ RPC_TIMEOUT_MS: '300' });
  }, 60_000);
  afterAll(async () => {
    await h?.close();
  });

  /** A paid order, and a function recording money PayPal gave back on it (as checkout's webhook does). */
  const paidOrder = async () => {
    const req = paidCheckout();
    const { order } = await h.create(req);
    const giveBack = (refundId: string, kind: 'refund' | 'reversal' = 'refund') =>
      h.svc.app.get(PaymentReversals).record({
        checkoutId: req.checkoutId,
        paypalOrderId: req.paymentDetails!.id,
        captureId: req.paymentDetails!.captureId!,
        refundId,
        kind,
        amountPence: 500,
        currency: 'GBP',
        at: new Date().toISOString(),
      });
    return { order, giveBack };
  };
  const alerted = async () => {
    const res = await h.http('GET', '/api/admin/stats', ADMIN);
    expect(res.status).toBe(200);
    return (res.body as AdminStatsJson).paymentAlerts!.orders.map((o) => o._id);
  };
  const review = (id: string, body: unknown, as = ADMIN) =>
    h.http('POST', `/api/admin/orders/${id}/payment-alert/review`, as, body);
  const notes = async (id: string) =>
    (await h.orders.findById(id).lean())!.statusHistory!.filter((e) => e.note).map((e) => ({ note: e.note, by: e.by }));

  it('takes a reviewed order off the alerts with a note naming the admin, keeps its refunds, and flags it again on the next one', async () => {
    const { order, giveBack } = await paidOrder();
    await giveBack('OUT-1');
    expect(await alerted()).toContain(order._id);

    const reviewed = await review(order._id, { refunds: 1 });
    expect(reviewed.status).toBe(200);
    const body = reviewed.body as OrderJson;
    expect(body._id).toBe(order._id);
    expect(body.externalRefunds?.map((r) => r.id)).toEqual(['OUT-1']);
    expect(await alerted()).not.toContain(order._id);
    expect((await notes(order._id)).at(-1)).toEqual({
      note: ORDER_MESSAGES.paymentAlertReviewed(1),
      by: { _id: ADMIN.id, name: ADMIN.name },
    });

    // Again: answered as it is, no second note.
    const again = await review(order._id, { refunds: 1 });
    expect(again.status).toBe(200);
    expect(await notes(order._id)).toHaveLength(2); // the refund's, the review's

    await giveBack('OUT-2', 'reversal');
    expect(await alerted()).toContain(order._id);
    // Reviewed as the admin saw it before the reversal: it stays listed.
    const stale = await review(order._id, { refunds: 1 });
    expect(stale.status).toBe(409);
    expect(stale.body).toMatchObject({ message: ORDER_MESSAGES.paymentChangedSinceSeen });
    expect(await alerted()).toContain(order._id);
    const both = await review(order._id, { refunds: 2 });
    expect(both.status).toBe(200);
    expect(await alerted()).not.toContain(order._id);
    expect((await notes(order._id)).at(-1)?.note).toBe(ORDER_MESSAGES.paymentAlertReviewed(2));
  });

  it('two admins reviewing at once: both answered, one note', async () => {
    const { order, giveBack } = await paidOrder();
    await giveBack('OUT-3');
    const answers = await Promise.all([
      review(order._id, { refunds: 1 }),
      review(order._id, { refunds: 1 }, SECOND_ADMIN),
    ]);
    expect(answers.map((a) => a.status)).toEqual([200, 200]);
    const reviews = (await notes(order._id)).filter((n) => n.note === ORDER_MESSAGES.paymentAlertReviewed(1));
    expect(reviews).toHaveLength(1);
    expect(await alerted()).not.toContain(order._id);
  });

  it('only admins review (401/403); a bad id is 400, an unknown order 404, and a bad count 400 with a message, the alert kept', async () => {
    const { order, giveBack } = await paidOrder();
    await giveBack('OUT-4');
    expect(
      (await h.http('POST', `/api/admin/orders/${order._id}/payment-alert/review`, undefined, { refunds: 1 })).status,
    ).toBe(401);
    expect((await review(order._id, { refunds: 1 }, CUSTOMER)).status).toBe(403);
    const badId = await review('not-an-id', { refunds: 1 });
    expect(badId.status).toBe(400);
    expect(badId.body).toMatchObject({ message: ORDER_MESSAGES.invalidId });
    const unknown = await review(newId(), { refunds: 1 });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ message: ORDER_MESSAGES.notFound });
    for (const body of [
      {},
      { refunds: 'one' },
      { refunds: -1 },
      { refunds: 1.5 },
      { refunds: 5000 },
      { refunds: null },
      [],
      'x',
    ]) {
      const res = await review(order._id, body);
      expect([JSON.stringify(body), res.status]).toEqual([JSON.stringify(body), 400]);
      expect((res.body as { message: string }).message).toEqual(expect.any(String));
    }
    // More than the order has: not a count the admin can have seen.
    const tooMany = await review(order._id, { refunds: 3 });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body).toMatchObject({ message: ORDER_MESSAGES.invalidRefundsSeen });
    expect(await alerted()).toContain(order._id);
    expect(await notes(order._id)).toHaveLength(1);
  });
});
