// Discount codes (issue 24) against the real catalog, identity and orders, the test servers and the fake PayPal:
// the admin's routes, every refusal at quote and checkout, the discounted total paid and kept on the order, a limited
// code's use held (one conditional counter: 20 buyers on one use left → one order; one customer racing themselves →
// one hold), given back once when an unpaid checkout expires, counted once per placed order whatever repeats, codes
// made before counters backfilled, and the newsletter's welcome code.
import { getModelToken } from '@nestjs/mongoose';
import {
  DISCOUNT_MESSAGES,
  EVENTS,
  type DiscountCodeBody,
  type EventEnvelope,
  type OrderPlacedEvent,
  type WelcomeCodeIssuedEvent,
} from '@shop/contracts';
import { EventBus, namespacedExchange } from '@shop/nest-common';
import { deleteConsumerTopology, request, waitFor } from '@shop/nest-common/testing';
import { Types, type Model } from 'mongoose';
import { DiscountBackfill } from '../src/discounts/discount-backfill';
import type { UnitCounter } from '../src/discounts/discount.schema';
import { CheckoutsService } from '../src/checkouts/checkouts.service';
import { DiscountsService } from '../src/discounts/discounts.service';
import { WELCOME_CODE } from '../src/discounts/welcome-codes';
import { addProduct, address, checkoutApi, line, newUserId, startShop, type Shop } from './checkout.fixtures';

describe('discount codes', () => {
  let shop: Shop;
  let api: ReturnType<typeof checkoutApi>;
  let adminToken: string;
  let bus: EventBus;
  const received: EventEnvelope[] = [];
  let n = 0;

  beforeAll(async () => {
    shop = await startShop({ checkoutEnv: { FINALIZE_SWEEP_MS: '600000' } });
    api = checkoutApi(shop);
    adminToken = shop.checkout.token({ id: newUserId(), role: 'admin', name: 'Ada Admin' });
    const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined };
    bus = new EventBus({
      url: shop.checkout.config.RABBITMQ_URL,
      service: 'listener',
      queuePrefix: shop.checkout.namespace,
      exchange: namespacedExchange(shop.checkout.namespace),
      logger: quiet,
    });
    await bus.start();
    await bus.subscribe({
      [EVENTS.checkout.welcomeCodeIssued]: async (e: EventEnvelope) => void received.push(e),
    });
  }, 90_000);
  afterAll(async () => {
    await bus?.close();
    await deleteConsumerTopology(shop.checkout.config.RABBITMQ_URL, `${shop.checkout.namespace}listener.events`);
    await shop?.close();
  });

  const admin = (method: string, path = '', body?: unknown, token: string | undefined = adminToken) =>
    request(`${shop.checkout.url}/api/admin/discounts${path}`, { method, body, token });
  const uniqueCode = (prefix = 'CODE') => `${prefix}-${Date.now().toString(36)}-${++n}`.toUpperCase();
  async function newCode(body: Partial<DiscountCodeBody> = {}) {
    const res = await admin('POST', '', { code: uniqueCode(), type: 'percent', value: 10, active: true, ...body });
    expect(res.status).toBe(201);
    return res.body as { _id: string; code: string };
  }
  const customer = (name = 'Ray Lewis') => {
    const id = newUserId();
    return { id, token: shop.checkout.token({ id, name }) };
  };
  async function registered() {
    const email = `fan.${Date.now()}.${++n}@example.com`;
    const res = await request(`${shop.identity.url}/api/users/register`, {
      body: { name: 'Lamar Jackson', email, password: 'Ravens!2345' },
    });
    expect(res.status).toBe(201);
    return { id: res.body.user._id as string, email, token: res.body.token as string };
  }
  const quote = (body: unknown, token: string) =>
    request(`${shop.checkout.url}/api/checkout/quote`, { method: 'POST', body, token });
  /** Pays a checkout its total through the fake PayPal and finalizes it: the order. */
  async function buy(checkout: { _id: string; totalPrice: number }, token: string) {
    const paid = await api.pay(
      checkout._id,
      shop.paypal.createCompletedOrder({ value: checkout.totalPrice.toFixed(2) }),
      token,
    );
    expect(paid.status).toBe(200);
    const order = await api.finalize(checkout._id, token);
    expect(order.status).toBe(201);
    return order.body;
  }
  const codes = () => shop.checkout.app.get<Model<UnitCounter & { _id: unknown }>>(getModelToken('DiscountCode'));
  const customerCounters = () =>
    shop.checkout.app.get<Model<UnitCounter & { _id: string }>>(getModelToken('DiscountCustomer'));
  /** Ends an unpaid checkout's hold of the code now (as its reservation's end would). */
  const endHold = (codeId: string, checkoutId: string) =>
    codes()
      .updateOne({ _id: codeId }, { $set: { [`unpaidUntil.${checkoutId}`]: new Date(Date.now() - 1000) } })
      .exec();
  const codeOf = async (id: string) =>
    ((await admin('GET')).body as Array<{ _id: string; uses: number; held: number; status: string }>).find(
      (c) => c._id === id,
    )!;

  describe('admin', () => {
    it('creates, lists newest first with uses and status, edits and deactivates a code', async () => {
      const body = {
        code: ` ${uniqueCode('kickoff').toLowerCase()} `,
        type: 'fixed',
        value: 5.5,
        minSubtotal: 20,
        startsAt: '2026-01-01T00:00:00.000Z',
        endsAt: '2099-01-01T00:00:00.000Z',
        usageLimit: 100,
        perCustomerLimit: 2,
        firstOrderOnly: false,
        active: true,
      };
      const created = await admin('POST', '', body);
      expect(created.status).toBe(201);
      expect(created.body).toEqual({
        ...body,
        _id: expect.stringMatching(/^[0-9a-f]{24}$/),
        code: body.code.trim().toUpperCase(),
        uses: 0,
        held: 0,
        status: 'active',
        createdAt: expect.any(String),
        updatedAt: expect.any(String),
      });
      const later = await newCode();
      const list = await admin('GET');
      expect(list.status).toBe(200);
      const ids = list.body.map((c: { _id: string }) => c._id);
      expect(ids.indexOf(later._id)).toBeLessThan(ids.indexOf(created.body._id));

      const edited = await admin('PUT', `/${created.body._id}`, { ...body, type: 'percent', value: 25 });
      expect(edited.status).toBe(200);
      expect(edited.body).toEqual(expect.objectContaining({ type: 'percent', value: 25, minSubtotal: 20 }));

      const gone = await admin('DELETE', `/${created.body._id}`);
      expect(gone).toEqual(expect.objectContaining({ status: 200, body: { message: DISCOUNT_MESSAGES.deactivated } }));
      expect(await codeOf(created.body._id)).toEqual(expect.objectContaining({ active: false, status: 'inactive' }));
    });

    it('refuses a taken code (any case) with 400, on create and on edit', async () => {
      const first = await newCode();
      const again = await admin('POST', '', {
        code: first.code.toLowerCase(),
        type: 'percent',
        value: 5,
        active: true,
      });
      expect(again.body).toEqual({ statusCode: 400, message: DISCOUNT_MESSAGES.duplicate });
      const other = await newCode();
      const renamed = await admin('PUT', `/${other._id}`, {
        code: first.code,
        type: 'percent',
        value: 5,
        active: true,
      });
      expect(renamed.body).toEqual({ statusCode: 400, message: DISCOUNT_MESSAGES.duplicate });
    });

    it('answers 404 for an unknown code and 400 for a malformed id', async () => {
      const body = { code: uniqueCode(), type: 'percent', value: 5, active: true };
      expect((await admin('PUT', `/${newUserId()}`, body)).body).toEqual({
        statusCode: 404,
        message: DISCOUNT_MESSAGES.notFound,
      });
      expect((await admin('DELETE', `/${newUserId()}`)).status).toBe(404);
      expect((await admin('DELETE', '/nope')).body).toEqual({ statusCode: 400, message: 'Invalid discount code id' });
      expect((await admin('PUT', '/123', body)).status).toBe(400);
    });

    it('is for admins only: a customer gets 403, no token 401', async () => {
      const { token } = customer();
      for (const [method, path] of [
        ['GET', ''],
        ['POST', ''],
        ['PUT', `/${newUserId()}`],
        ['DELETE', `/${newUserId()}`],
      ]) {
        const body = method === 'GET' ? undefined : { code: 'X' };
        expect((await admin(method, path, body, token)).status).toBe(403);
        expect((await admin(method, path, body, '')).status).toBe(401);
      }
    });

    const valid = { code: 'VALID-1', type: 'percent', value: 10, active: true };
    it.each([
      [{ ...valid, code: 'AB' }, 'Code must be 3 to 32 letters, digits, - or _'],
      [{ ...valid, code: 'A'.repeat(33) }, 'Code must be 3 to 32 letters, digits, - or _'],
      [{ ...valid, code: 'NO SPACE' }, 'Code must be 3 to 32 letters, digits, - or _'],
      [{ ...valid, code: { $ne: null } }, 'Code must be 3 to 32 letters, digits, - or _'],
      [{ ...valid, code: undefined }, 'Code is required'],
      [{ ...valid, type: 'bogo' }, 'Type must be percent or fixed'],
      [{ ...valid, value: 0 }, 'A percentage must be a whole number from 1 to 100'],
      [{ ...valid, value: 101 }, 'A percentage must be a whole number from 1 to 100'],
      [{ ...valid, value: 12.5 }, 'A percentage must be a whole number from 1 to 100'],
      [{ ...valid, value: '10' }, 'Value must be a number'],
      [{ ...valid, type: 'fixed', value: 0 }, expect.stringMatching(/^A fixed amount must be pounds greater than 0/)],
      [{ ...valid, type: 'fixed', value: 1.005 }, expect.stringMatching(/with at most two decimals$/)],
      [{ ...valid, type: 'fixed', value: -5 }, expect.stringMatching(/^A fixed amount/)],
      [{ ...valid, minSubtotal: -1 }, 'Minimum subtotal must be greater than 0 (null for none)'],
      [{ ...valid, minSubtotal: 0 }, 'Minimum subtotal must be greater than 0 (null for none)'],
      [{ ...valid, minSubtotal: 1.234 }, 'Minimum subtotal must be pounds with at most two decimals'],
      [{ ...valid, startsAt: 'tomorrow' }, 'startsAt must be an ISO date and time'],
      [{ ...valid, startsAt: '2026-05-01T00:00:00Z', endsAt: '2026-04-01T00:00:00Z' }, 'endsAt must be after startsAt'],
      [{ ...valid, usageLimit: 0 }, 'Usage limit must be a whole number from 1 to 1000000'],
      [{ ...valid, usageLimit: 1.5 }, 'Usage limit must be a whole number from 1 to 1000000'],
      [{ ...valid, perCustomerLimit: -1 }, 'Per-customer limit must be a whole number from 1 to 1000000'],
      [{ ...valid, firstOrderOnly: 'yes' }, 'firstOrderOnly must be true or false'],
      [{ ...valid, active: undefined }, 'active is required'],
    ])('refuses %j with a clear 400', async (body, message) => {
      const res = await admin('POST', '', body);
      expect(res.status).toBe(400);
      expect(res.body.message).toEqual(message);
    });
  });

  describe('quote and checkout', () => {
    it('quotes the server’s price with the code, holding nothing; case-insensitive', async () => {
      const code = await newCode({ type: 'percent', value: 10, usageLimit: 1 });
      const productId = await addProduct(shop, { price: 29.99 });
      const { token } = customer();
      const res = await quote(
        { checkoutItems: [{ ...line(productId, 3), price: 0.01 }], discountCode: code.code.toLowerCase() },
        token,
      );
      // 89.97 less 10 % (8.997 → 9.00, half-up) = 80.97
      expect(res).toEqual(
        expect.objectContaining({
          status: 200,
          body: { subtotal: 89.97, discount: { code: code.code, amount: 9 }, totalPrice: 80.97 },
        }),
      );
      expect(await codeOf(code._id)).toEqual(expect.objectContaining({ uses: 0, held: 0 }));
      const plain = await quote({ checkoutItems: [line(productId, 3)] }, token);
      expect(plain.body).toEqual({ subtotal: 89.97, totalPrice: 89.97 });
      expect((await quote({ checkoutItems: [line(productId)] }, '')).status).toBe(401);
    });

    it('checks out at the discounted total, is paid that, and the order keeps subtotal and discount', async () => {
      const code = await newCode({ type: 'fixed', value: 7.5 });
      const productId = await addProduct(shop, { price: 20 });
      const { token } = customer();
      const created = await api.create(
        {
          checkoutItems: [line(productId, 2)],
          shippingAddress: address(),
          discountCode: code.code,
          totalPrice: 32.5,
        },
        token,
      );
      expect(created.status).toBe(201);
      expect(created.body).toEqual(
        expect.objectContaining({
          subtotal: 40,
          discount: { code: code.code, amount: 7.5 },
          totalPrice: 32.5,
          priceAdjusted: false,
        }),
      );
      // The undiscounted total is not what is charged: PayPal must be paid 32.50, and 40.00 is refused.
      const wrong = await api.pay(created.body._id, shop.paypal.createCompletedOrder({ value: '40.00' }), token);
      expect(wrong.status).toBe(402);
      const order = await buy(created.body, token);
      expect(order).toEqual(
        expect.objectContaining({ subtotal: 40, discount: { code: code.code, amount: 7.5 }, totalPrice: 32.5 }),
      );
      expect((await codeOf(code._id)).uses).toBe(1); // counted when the order was placed
    });

    it('flags priceAdjusted when the client sent the undiscounted total', async () => {
      const code = await newCode({ type: 'percent', value: 50 });
      const productId = await addProduct(shop, { price: 10 });
      const res = await api.create(
        { checkoutItems: [line(productId)], shippingAddress: address(), discountCode: code.code, totalPrice: 10 },
        customer().token,
      );
      expect(res.body).toEqual(expect.objectContaining({ totalPrice: 5, priceAdjusted: true }));
    });

    it('never takes a fixed amount below zero', async () => {
      const code = await newCode({ type: 'fixed', value: 500 });
      const productId = await addProduct(shop, { price: 12.34 });
      const res = await quote({ checkoutItems: [line(productId)], discountCode: code.code }, customer().token);
      expect(res.body).toEqual({ subtotal: 12.34, discount: { code: code.code, amount: 12.34 }, totalPrice: 0 });
    });

    describe('refuses, with a 400 the shopper understands and nothing held', () => {
      let productId: string;
      beforeAll(async () => {
        productId = await addProduct(shop, { price: 25, countInStock: 50 });
      });
      const day = 86_400_000;
      async function refused(code: string, message: string, token = customer().token) {
        const quoted = await quote({ checkoutItems: [line(productId)], discountCode: code }, token);
        expect(quoted.body).toEqual(expect.objectContaining({ statusCode: 400, message }));
        const created = await api.create(
          { checkoutItems: [line(productId)], shippingAddress: address(), discountCode: code },
          token,
        );
        expect(created.body).toEqual(expect.objectContaining({ statusCode: 400, message }));
      }

      it('an unknown code', () => refused('NO-SUCH-CODE', DISCOUNT_MESSAGES.unknown));
      it('a code that is not even well-formed', () => refused('x'.repeat(65), DISCOUNT_MESSAGES.unknown));
      it('an inactive code', async () => refused((await newCode({ active: false })).code, DISCOUNT_MESSAGES.inactive));
      it('a code not valid yet', async () =>
        refused(
          (await newCode({ startsAt: new Date(Date.now() + day).toISOString() })).code,
          DISCOUNT_MESSAGES.notYetValid,
        ));
      it('an expired code', async () =>
        refused(
          (
            await newCode({
              startsAt: new Date(Date.now() - 2 * day).toISOString(),
              endsAt: new Date(Date.now() - day).toISOString(),
            })
          ).code,
          DISCOUNT_MESSAGES.expired,
        ));
      it('a subtotal below the minimum, naming it in pounds', async () =>
        refused((await newCode({ minSubtotal: 25.01 })).code, DISCOUNT_MESSAGES.belowMinimum('25.01')));

      it('a used-up code (its uses and the holds of unpaid checkouts reach the limit)', async () => {
        const code = await newCode({ usageLimit: 1 });
        const holder = await api.create(
          { checkoutItems: [line(productId)], shippingAddress: address(), discountCode: code.code },
          customer().token,
        );
        expect(holder.status).toBe(201);
        expect(await codeOf(code._id)).toEqual(expect.objectContaining({ uses: 0, held: 1 }));
        await refused(code.code, DISCOUNT_MESSAGES.usedUp);
      });

      it('a first-order code for a customer who has placed an order', async () => {
        const code = await newCode({ firstOrderOnly: true });
        const { token } = customer();
        const first = await api.create({ checkoutItems: [line(productId)], shippingAddress: address() }, token);
        await buy(first.body, token);
        await refused(code.code, DISCOUNT_MESSAGES.notFirstOrder, token);
      });

      it('a code the customer has used as often as allowed', async () => {
        const code = await newCode({ perCustomerLimit: 1 });
        const { token } = customer();
        const first = await api.create(
          { checkoutItems: [line(productId)], shippingAddress: address(), discountCode: code.code },
          token,
        );
        await buy(first.body, token);
        await refused(code.code, DISCOUNT_MESSAGES.perCustomerLimit, token);
        // Another customer still may.
        const other = await quote({ checkoutItems: [line(productId)], discountCode: code.code }, customer().token);
        expect(other.status).toBe(200);
      });

      it('another customer’s personal code', async () => {
        const owner = await registered();
        const intruder = await registered();
        const code = await shop.checkout.app.get(getModelToken('DiscountCode')).create({
          code: uniqueCode('PERSONAL'),
          type: 'percent',
          percent: 10,
          usageLimit: 1,
          firstOrderOnly: true,
          active: true,
          email: owner.email,
        });
        await refused(code.code, DISCOUNT_MESSAGES.notYours, intruder.token);
        const mine = await quote({ checkoutItems: [line(productId)], discountCode: code.code }, owner.token);
        expect(mine.body).toEqual({ subtotal: 25, discount: { code: code.code, amount: 2.5 }, totalPrice: 22.5 });
      });

      it('lets the shopper pay without the code after a refusal', async () => {
        const res = await api.create(
          { checkoutItems: [line(productId)], shippingAddress: address(), discountCode: '  ' },
          customer().token,
        );
        expect(res.status).toBe(201);
        expect(res.body.discount).toBeUndefined();
        expect(res.body).toEqual(expect.objectContaining({ subtotal: 25, totalPrice: 25 }));
      });
    });

    it.each([
      [{ discountCode: 7 }],
      [{ discountCode: ['A'] }],
      [{ discountCode: { $ne: null } }],
      [{ discountCode: 'a\u0000b' }],
      [{ discountCode: 'WELCOME 10%' }],
      [{}],
    ])('answers a bad quote body %j with 400, never a 500', async (extra) => {
      const productId = await addProduct(shop);
      const body = 'discountCode' in extra ? { checkoutItems: [line(productId)], ...extra } : extra;
      const res = await quote(body, customer().token);
      expect(res.status).toBe(400);
      expect(typeof res.body.message).toBe('string');
    });
  });

  describe('used exactly once', () => {
    it('20 buyers at once on a code with one use left: exactly one checkout holds it, one order has it', async () => {
      const code = await newCode({ usageLimit: 2 });
      const productId = await addProduct(shop, { price: 10, countInStock: 100 });
      const earlier = customer();
      const first = await api.create(
        { checkoutItems: [line(productId)], shippingAddress: address(), discountCode: code.code },
        earlier.token,
      );
      await buy(first.body, earlier.token);
      const buyers = Array.from({ length: 20 }, () => customer());
      // Each buyer on a product of their own: no product's stock hold puts them in a queue before the code.
      const products = await Promise.all(buyers.map(() => addProduct(shop, { price: 10, countInStock: 5 })));
      const results = await Promise.all(
        buyers.map((b, i) =>
          api.create(
            { checkoutItems: [line(products[i])], shippingAddress: address(), discountCode: code.code },
            b.token,
          ),
        ),
      );
      const won = results.filter((r) => r.status === 201);
      expect(won).toHaveLength(1);
      for (const r of results.filter((r) => r.status !== 201))
        expect(r.body).toEqual({ statusCode: 400, message: DISCOUNT_MESSAGES.usedUp });
      const winner = buyers[results.indexOf(won[0])];
      const order = await buy(won[0].body, winner.token);
      expect(order.discount).toEqual({ code: code.code, amount: 1 });
      const orders = shop.orders.app.get<Model<{ discount?: { code: string } }>>(getModelToken('Order'));
      expect(await orders.countDocuments({ 'discount.code': code.code }).exec()).toBe(2);
      expect((await codeOf(code._id)).uses).toBe(2);
      expect(await codeOf(code._id)).toEqual(expect.objectContaining({ held: 0, status: 'used up' }));
    });

    it('20 holds at once on a code’s last use, straight at its counter: one holds it, whatever the limit', async () => {
      const discounts = shop.checkout.app.get(DiscountsService);
      for (const usageLimit of [1, 100_000]) {
        const code = await newCode({ usageLimit, perCustomerLimit: 1 });
        // All but one of its uses used already: a counter, so the last use costs what the first did.
        await codes()
          .updateOne({ _id: code._id }, { $set: { taken: usageLimit - 1, used: usageLimit - 1 } })
          .exec();
        const applied = await discounts.check(code.code, { userId: newUserId() }, 10_000);
        const until = new Date(Date.now() + 60_000);
        const holds = await Promise.allSettled(
          Array.from({ length: 20 }, () =>
            discounts.hold(applied, { userId: newUserId() }, new Types.ObjectId().toHexString(), until),
          ),
        );
        expect(holds.filter((h) => h.status === 'fulfilled')).toHaveLength(1);
        for (const h of holds.filter((h) => h.status === 'rejected'))
          expect((h as PromiseRejectedResult).reason.message).toBe(DISCOUNT_MESSAGES.usedUp);
        const counter = await codes().findById(code._id).lean().exec();
        expect(counter).toEqual(expect.objectContaining({ taken: usageLimit, used: usageLimit - 1 }));
        expect(counter?.unpaid).toHaveLength(1);
        // Only the winner holds a unit of their own allowance too.
        expect(
          await customerCounters()
            .countDocuments({ _id: { $regex: `^${code._id}:` }, taken: 1 })
            .exec(),
        ).toBe(1);
      }
    });

    it('10 checkouts at once by one customer on a code they may use once: one holds it', async () => {
      const code = await newCode({ perCustomerLimit: 1 });
      const products = await Promise.all(Array.from({ length: 10 }, () => addProduct(shop, { price: 10 })));
      const buyer = customer();
      const results = await Promise.all(
        products.map((productId) =>
          api.create(
            { checkoutItems: [line(productId)], shippingAddress: address(), discountCode: code.code },
            buyer.token,
          ),
        ),
      );
      expect(results.filter((r) => r.status === 201)).toHaveLength(1);
      for (const r of results.filter((r) => r.status !== 201))
        expect(r.body).toEqual({ statusCode: 400, message: DISCOUNT_MESSAGES.perCustomerLimit });
      const counter = await customerCounters().findById(`${code._id}:${buyer.id}`).lean().exec();
      expect(counter).toEqual(expect.objectContaining({ taken: 1, used: 0 }));
      expect(counter?.unpaid).toHaveLength(1);
    });

    it('counts one use per placed order: a finalize repeated or raced, and order events redelivered or replayed, change nothing', async () => {
      const code = await newCode({ usageLimit: 5, perCustomerLimit: 2 });
      const productId = await addProduct(shop, { price: 10 });
      const { token, id: userId } = customer();
      const created = await api.create(
        { checkoutItems: [line(productId)], shippingAddress: address(), discountCode: code.code },
        token,
      );
      const order = await buy(created.body, token);
      expect(await codeOf(code._id)).toEqual(expect.objectContaining({ uses: 1, held: 0 }));
      // Checkout counts the use itself, when it places the order: an orders.order.placed event (redelivered, or
      // replayed with a new id) counts nothing, and neither does a finalize again, or three at once.
      const placed: OrderPlacedEvent = { orderId: order._id, checkoutId: created.body._id, userId, items: [] };
      for (const eventId of ['redelivered-1', 'redelivered-1', 'replayed-2'])
        await bus.publish(EVENTS.orders.orderPlaced, placed, { eventId: `${eventId}:${created.body._id}` });
      const again = await Promise.all([1, 2, 3].map(() => api.finalize(created.body._id, token)));
      expect(again.map((r) => [r.status, r.body._id])).toEqual([1, 2, 3].map(() => [200, order._id]));
      await new Promise((r) => setTimeout(r, 500));
      expect(await codeOf(code._id)).toEqual(expect.objectContaining({ uses: 1, held: 0 }));
      const counter = await codes().findById(code._id).lean().exec();
      expect(counter).toEqual(expect.objectContaining({ taken: 1, used: 1, unpaid: [], paid: [] }));
      expect(await customerCounters().findById(`${code._id}:${userId}`).lean().exec()).toEqual(
        expect.objectContaining({ taken: 1, used: 1, unpaid: [], paid: [] }),
      );
    });

    it('a use left uncounted (pay stopped after placing the order) is counted once by the sweeper of claimed payments', async () => {
      const code = await newCode({ usageLimit: 5 });
      const productId = await addProduct(shop, { price: 10 });
      const { token } = customer();
      const created = await api.create(
        { checkoutItems: [line(productId)], shippingAddress: address(), discountCode: code.code },
        token,
      );
      const order = await buy(created.body, token);
      // As if pay had stopped after placing the order: the unit still held for the paid checkout, the payment claimed.
      await codes()
        .updateOne({ _id: code._id }, { $inc: { used: -1 }, $push: { paid: created.body._id } })
        .exec();
      await shop.checkout.app
        .get<Model<unknown>>(getModelToken('Payment'))
        .updateOne({ checkoutId: created.body._id }, { $set: { status: 'claimed' } })
        .exec();
      expect(await codeOf(code._id)).toEqual(expect.objectContaining({ uses: 0, held: 1 }));
      // A finalize does not count it (the order was not placed by it); the sweeper does, once, even twice at once.
      expect((await api.finalize(created.body._id, token)).body._id).toBe(order._id);
      expect(await codeOf(code._id)).toEqual(expect.objectContaining({ uses: 0, held: 1 }));
      const checkouts = shop.checkout.app.get(CheckoutsService);
      const later = Date.now() + 10 * 60_000;
      await Promise.all([checkouts.settleStalePayments(later), checkouts.settleStalePayments(later)]);
      expect(await codeOf(code._id)).toEqual(expect.objectContaining({ uses: 1, held: 0 }));
      expect(
        await shop.checkout.app
          .get<Model<{ status: string }>>(getModelToken('Payment'))
          .findOne({ checkoutId: created.body._id })
          .lean()
          .exec(),
      ).toMatchObject({ status: 'captured' });
    });

    it('frees the hold of an unpaid checkout that expired: the next buyer gets the use', async () => {
      const code = await newCode({ usageLimit: 1 });
      const productId = await addProduct(shop, { price: 10 });
      const first = customer();
      const held = await api.create(
        { checkoutItems: [line(productId)], shippingAddress: address(), discountCode: code.code },
        first.token,
      );
      expect(held.status).toBe(201);
      const next = customer();
      const create = () =>
        api.create(
          { checkoutItems: [line(productId)], shippingAddress: address(), discountCode: code.code },
          next.token,
        );
      expect((await create()).body.message).toBe(DISCOUNT_MESSAGES.usedUp);
      // The first checkout's hold ends unpaid (as RESERVATION_SECONDS would end it).
      await endHold(code._id, held.body._id);
      expect(await codeOf(code._id)).toEqual(expect.objectContaining({ held: 0, uses: 0 }));
      const taken = await create();
      expect(taken.status).toBe(201);
      expect(await codeOf(code._id)).toEqual(expect.objectContaining({ held: 1 }));
      expect(await codes().findById(code._id).lean().exec()).toEqual(
        expect.objectContaining({ taken: 1, unpaid: [taken.body._id] }),
      );

      // The first buyer pays late: the use is gone, so the payment is refunded and the checkout stays unpaid.
      const late = await api.pay(
        held.body._id,
        shop.paypal.createCompletedOrder({ value: held.body.totalPrice.toFixed(2) }),
        first.token,
      );
      expect(late.status).toBe(409);
      expect(late.body.message).toMatch(/used up/);
      expect((await api.get(held.body._id, first.token)).body.isPaid).toBe(false);
      expect(await codes().findById(code._id).lean().exec()).toEqual(expect.objectContaining({ taken: 1 }));
    });

    it('the sweeper frees expired holds once, and keeps the unit of a checkout paid meanwhile', async () => {
      const code = await newCode({ usageLimit: 3 });
      const productId = await addProduct(shop, { price: 10 });
      const a = customer();
      const b = customer();
      const unpaid = await api.create(
        { checkoutItems: [line(productId)], shippingAddress: address(), discountCode: code.code },
        a.token,
      );
      const paid = await api.create(
        { checkoutItems: [line(productId)], shippingAddress: address(), discountCode: code.code },
        b.token,
      );
      const ok = await api.pay(
        paid.body._id,
        shop.paypal.createCompletedOrder({ value: paid.body.totalPrice.toFixed(2) }),
        b.token,
      );
      expect(ok.status).toBe(200);
      // pay placed the order: the paid checkout's unit is a use
      expect(await codes().findById(code._id).lean().exec()).toEqual(
        expect.objectContaining({ taken: 2, used: 1, unpaid: [unpaid.body._id], paid: [] }),
      );
      await endHold(code._id, unpaid.body._id);
      const discounts = shop.checkout.app.get(DiscountsService);
      // Two sweeps at once (two replicas): the hold is given back once.
      await Promise.all([discounts.releaseExpired(), discounts.releaseExpired()]);
      expect(await codes().findById(code._id).lean().exec()).toEqual(
        expect.objectContaining({ taken: 1, used: 1, unpaid: [], paid: [] }),
      );
      // pay placed the paid checkout's order: its use is counted, no longer held
      expect(await codeOf(code._id)).toEqual(expect.objectContaining({ held: 0, uses: 1 }));
    });
  });

  describe('codes made before counters (discount_slots and discount_uses)', () => {
    it('a code made without a counter after start (a rolling deploy) is backfilled by its first hold', async () => {
      const codeId = new Types.ObjectId();
      const name = uniqueCode('ROLLING');
      await codes().collection.insertOne({
        _id: codeId,
        code: name,
        type: 'percent',
        percent: 10,
        minSubtotalPence: null,
        startsAt: null,
        endsAt: null,
        usageLimit: 1,
        perCustomerLimit: null,
        firstOrderOnly: false,
        active: true,
        createdAt: new Date(),
        updatedAt: new Date(),
      });
      const productId = await addProduct(shop, { price: 10 });
      const create = () =>
        api.create(
          { checkoutItems: [line(productId)], shippingAddress: address(), discountCode: name },
          customer().token,
        );
      const held = await create();
      expect(held.status).toBe(201);
      expect(await codes().findById(codeId).lean().exec()).toEqual(
        expect.objectContaining({ taken: 1, used: 0, unpaid: [held.body._id] }),
      );
      expect((await create()).body).toEqual({ statusCode: 400, message: DISCOUNT_MESSAGES.usedUp });
    });

    it('are backfilled at start once: their uses and live holds read as before, and their holders go on from there', async () => {
      const raw = codes().collection;
      const slots = shop.checkout.app.get<Model<unknown>>(getModelToken('DiscountSlot')).collection;
      const uses = shop.checkout.app.get<Model<unknown>>(getModelToken('DiscountUse')).collection;
      const codeId = new Types.ObjectId();
      const [usedBy, unpaidBy, paidBy, expiredBy] = [1, 2, 3, 4].map(() => new Types.ObjectId().toHexString());
      const userId = newUserId();
      const now = Date.now();
      await raw.insertOne({
        _id: codeId,
        code: uniqueCode('LEGACY'),
        type: 'percent',
        percent: 10,
        minSubtotalPence: null,
        startsAt: null,
        endsAt: null,
        usageLimit: 10,
        perCustomerLimit: 3,
        firstOrderOnly: false,
        active: true,
        createdAt: new Date(),
        updatedAt: new Date(),
      });
      const slot = (n: number, checkoutId: string, expiresAt: Date | null, usedAt: Date | null) => [
        { _id: `${codeId}:${n}`, codeId: String(codeId), kind: 'total', userId, checkoutId, expiresAt, usedAt },
        {
          _id: `${codeId}:${userId}:${n}`,
          codeId: String(codeId),
          kind: 'customer',
          userId,
          checkoutId,
          expiresAt,
          usedAt,
        },
      ];
      await slots.insertMany([
        ...slot(1, usedBy, null, new Date(now - 60_000)),
        ...slot(2, unpaidBy, new Date(now + 600_000), null),
        ...slot(3, paidBy, null, null),
        ...slot(4, expiredBy, new Date(now - 1000), null),
      ] as never[]);
      await uses.insertOne({
        _id: usedBy,
        codeId: String(codeId),
        code: 'LEGACY',
        userId,
        amountPence: 100,
        usedAt: new Date(),
      } as never);

      const backfill = shop.checkout.app.get(DiscountBackfill);
      const [first, second] = await Promise.all([backfill.run(), backfill.run()]);
      expect(first + second).toBeGreaterThanOrEqual(1);
      expect(await backfill.run()).toBe(0);
      expect(await codes().findById(codeId).lean().exec()).toEqual(
        expect.objectContaining({ taken: 3, used: 1, unpaid: [unpaidBy], paid: [paidBy] }),
      );
      expect(await codeOf(String(codeId))).toEqual(expect.objectContaining({ uses: 1, held: 2, status: 'active' }));
      expect(await customerCounters().findById(`${codeId}:${userId}`).lean().exec()).toEqual(
        expect.objectContaining({ taken: 3, used: 1, unpaid: [unpaidBy], paid: [paidBy] }),
      );

      // The paid checkout's order is placed: its use counted once on both counters (its slots name them, old style).
      const discounts = shop.checkout.app.get(DiscountsService);
      const legacy = (checkoutId: string, n: number) => ({
        _id: new Types.ObjectId(checkoutId),
        user: { _id: userId, name: 'Old Timer' },
        discount: {
          codeId: String(codeId),
          code: 'LEGACY',
          amountPence: 100,
          slots: [`${codeId}:${n}`, `${codeId}:${userId}:${n}`],
        },
      });
      expect(await discounts.countUse(legacy(paidBy, 3))).toBe(true);
      expect(await discounts.countUse(legacy(paidBy, 3))).toBe(false);
      await discounts.release(legacy(unpaidBy, 2));
      await discounts.release(legacy(unpaidBy, 2));
      expect(await codes().findById(codeId).lean().exec()).toEqual(
        expect.objectContaining({ taken: 2, used: 2, unpaid: [], paid: [] }),
      );
      expect(await customerCounters().findById(`${codeId}:${userId}`).lean().exec()).toEqual(
        expect.objectContaining({ taken: 2, used: 2, unpaid: [], paid: [] }),
      );
    });
  });

  describe('the newsletter’s welcome code', () => {
    const subscribe = (email: string) => request(`${shop.identity.url}/api/subscribe`, { body: { email } });
    const issuedTo = (email: string) =>
      received.filter((e) => (e.data as WelcomeCodeIssuedEvent).email === email) as Array<
        EventEnvelope<WelcomeCodeIssuedEvent>
      >;

    it('issues one personal code per address, sent again on a second sign-up, usable once on a first order', async () => {
      const fan = await registered();
      expect((await subscribe(fan.email.toUpperCase())).status).toBe(201);
      await waitFor('the welcome code issued', async () => issuedTo(fan.email).length === 1);
      const [first] = issuedTo(fan.email);
      expect(first.eventId).toMatch(/^checkout\.welcome-code\.issued:identity\.subscriber\.subscribed:[0-9a-f]{24}$/);
      expect(first.data).toEqual({
        email: fan.email,
        code: expect.stringMatching(WELCOME_CODE),
        percentOff: 10,
        usable: true,
      });

      expect((await subscribe(fan.email)).body).toEqual({ statusCode: 400, message: 'Email is already subscribed' });
      await waitFor('the same code sent again', async () => issuedTo(fan.email).length === 2);
      const [, second] = issuedTo(fan.email);
      expect(second.data.code).toBe(first.data.code);
      expect(second.eventId).not.toBe(first.eventId);

      const list = (await admin('GET')).body as Array<{ code: string; email?: string }>;
      expect(list.filter((c) => c.email === fan.email)).toEqual([
        expect.objectContaining({
          code: first.data.code,
          type: 'percent',
          value: 10,
          usageLimit: 1,
          firstOrderOnly: true,
          active: true,
        }),
      ]);

      const productId = await addProduct(shop, { price: 30 });
      const someoneElse = await registered();
      expect(
        (await quote({ checkoutItems: [line(productId)], discountCode: first.data.code }, someoneElse.token)).body,
      ).toEqual({ statusCode: 400, message: DISCOUNT_MESSAGES.notYours });
      const created = await api.create(
        { checkoutItems: [line(productId)], shippingAddress: address(), discountCode: first.data.code.toLowerCase() },
        fan.token,
      );
      expect(created.body).toEqual(expect.objectContaining({ subtotal: 30, totalPrice: 27 }));
      const order = await buy(created.body, fan.token);
      expect(order.discount).toEqual({ code: first.data.code, amount: 3 });
      const again = await api.create(
        { checkoutItems: [line(productId)], shippingAddress: address(), discountCode: first.data.code },
        fan.token,
      );
      expect(again.body).toEqual({ statusCode: 400, message: DISCOUNT_MESSAGES.notFirstOrder });

      // A third sign-up still sends the same code, now marked as no longer usable.
      await subscribe(fan.email);
      await waitFor('the code sent a third time', async () => issuedTo(fan.email).length === 3);
      expect(issuedTo(fan.email)[2].data).toEqual(expect.objectContaining({ code: first.data.code, usable: false }));
    });

    it('handles a redelivered subscribed event once, and the same address racing itself with one code', async () => {
      const email = `race.${Date.now()}@example.com`;
      await Promise.all(
        ['s-1', 's-1', 's-2', 's-3'].map((id) =>
          bus.publish(EVENTS.identity.subscriberSubscribed, { email }, { eventId: `${id}:${email}` }),
        ),
      );
      await waitFor('three issued events', async () => issuedTo(email).length === 3);
      await new Promise((r) => setTimeout(r, 500));
      expect(issuedTo(email)).toHaveLength(3);
      expect(new Set(issuedTo(email).map((e) => e.data.code)).size).toBe(1);
      const codes = shop.checkout.app.get<Model<unknown>>(getModelToken('DiscountCode'));
      expect(await codes.countDocuments({ email }).exec()).toBe(1);
    });
  });
});
