// The checkout against the real catalog, identity and orders and a fake PayPal: server prices, stock held,
// payments verified with PayPal (every tampering refused with nothing changed), orders made exactly once.
import { ServiceUnavailableException } from '@nestjs/common';
import { getModelToken } from '@nestjs/mongoose';
import { CHECKOUT_MESSAGES, SHIPPING_ADDRESS_FIELDS, SHIPPING_ADDRESS_LABELS } from '@shop/contracts';
import type { RpcClient } from '@shop/nest-common';
import { request, waitFor } from '@shop/nest-common/testing';
import fc from 'fast-check';
import type { Model } from 'mongoose';
import { StockService } from '../../catalog/src/stock/stock.service';
import { CheckoutsService } from '../src/checkouts/checkouts.service';
import { IDENTITY } from '../src/peers/peers';
import {
  addProduct,
  address,
  checkoutApi,
  expireHolds,
  line,
  newUserId,
  startShop,
  stockOf,
  type Shop,
} from './checkout.fixtures';

describe('checkout', () => {
  let shop: Shop;
  let api: ReturnType<typeof checkoutApi>;
  let buyer: string;
  let token: string;

  beforeAll(async () => {
    shop = await startShop({
      checkoutEnv: { PAYPAL_TIMEOUT_MS: '1000', RESERVE_TIMEOUT_MS: '3000', FINALIZE_SWEEP_MS: '600000' },
    });
    api = checkoutApi(shop);
    buyer = newUserId();
    token = shop.checkout.token({ id: buyer, name: 'Ray Lewis' });
  }, 90_000);
  afterAll(() => shop?.close());
  afterEach(() => shop.paypal.setMode('normal'));

  /** A checkout of `quantity` units at `price` each, for the buyer. */
  async function newCheckout(price = 20, quantity = 2, stock = 10) {
    const productId = await addProduct(shop, { price, countInStock: stock });
    const res = await api.create({ checkoutItems: [line(productId, quantity)], shippingAddress: address() }, token);
    expect(res.status).toBe(201);
    return { productId, checkout: res.body };
  }
  const paypalOrder = (value: string, mode?: Parameters<Shop['paypal']['createCompletedOrder']>[0]['mode']) =>
    shop.paypal.createCompletedOrder({ value, ...(mode ? { mode } : {}) });

  it('tells the SPA the currency and where the fake PayPal is', async () => {
    const res = await request(`${shop.checkout.url}/api/config`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      currency: 'GBP',
      paypal: { clientId: shop.paypal.clientId, mode: 'fake', apiBase: shop.paypal.url },
    });
  });

  describe('create', () => {
    it('prices every line from the catalog, never from the client, and holds the stock', async () => {
      const productId = await addProduct(shop, { price: 39.99, countInStock: 5 });
      const res = await api.create(
        {
          checkoutItems: [{ ...line(productId, 2), price: 0.01, name: 'Free stuff' }],
          shippingAddress: address(),
          paymentMethod: 'Paypal',
          totalPrice: 0.02,
        },
        token,
      );
      expect(res.status).toBe(201);
      expect(res.body).toEqual(
        expect.objectContaining({
          user: buyer,
          checkoutItems: [
            expect.objectContaining({ productId, quantity: 2, price: 39.99, size: 'M', color: 'Purple' }),
          ],
          shippingAddress: address(),
          paymentMethod: 'PayPal',
          totalPrice: 79.98,
          priceAdjusted: true,
          isPaid: false,
          paymentStatus: 'pending',
          isFinalized: false,
        }),
      );
      expect(res.body.checkoutItems[0].name).toMatch(/^Ravens Hoodie/);
      const holdLeft = Date.parse(res.body.reservationExpiresAt) - Date.now();
      expect(holdLeft).toBeGreaterThan(14 * 60_000);
      expect(holdLeft).toBeLessThanOrEqual(15 * 60_000);
      expect(await stockOf(shop, productId)).toBe(3);
    });

    it('says the total was not adjusted when the client had it right, and adds up repeated lines', async () => {
      const productId = await addProduct(shop, { price: 10.1 });
      const res = await api.create(
        { checkoutItems: [line(productId, 1), line(productId, 2)], shippingAddress: address(), totalPrice: 30.3 },
        token,
      );
      expect(res.status).toBe(201);
      expect(res.body).toEqual(expect.objectContaining({ totalPrice: 30.3, priceAdjusted: false }));
      expect(res.body.checkoutItems).toEqual([expect.objectContaining({ quantity: 3 })]);
    });

    it('requires each of the seven address fields, by name', async () => {
      const productId = await addProduct(shop);
      for (const field of SHIPPING_ADDRESS_FIELDS) {
        for (const value of [undefined, '', '   ', null, 42, { $gt: '' }]) {
          const res = await api.create(
            { checkoutItems: [line(productId)], shippingAddress: { ...address(), [field]: value } },
            token,
          );
          expect({ field, value, status: res.status, message: res.body.message }).toEqual({
            field,
            value,
            status: 400,
            message: `${SHIPPING_ADDRESS_LABELS[field]} is required`,
          });
        }
      }
      expect(await stockOf(shop, productId)).toBe(50);
    });

    it.each([
      ['no items', { shippingAddress: address() }, 400, CHECKOUT_MESSAGES.noItems],
      ['an empty list', { checkoutItems: [], shippingAddress: address() }, 400, CHECKOUT_MESSAGES.noItems],
      [
        'items that are not a list',
        { checkoutItems: 'all', shippingAddress: address() },
        400,
        CHECKOUT_MESSAGES.noItems,
      ],
      ['no address', { checkoutItems: [line('64b7f9f9f9f9f9f9f9f9f9f9')] }, 400, 'Shipping address is required'],
      [
        'another payment method',
        { checkoutItems: [line('64b7f9f9f9f9f9f9f9f9f9f9')], shippingAddress: address(), paymentMethod: 'Card' },
        400,
        CHECKOUT_MESSAGES.paymentMethod,
      ],
      [
        'an operator for a product id',
        { checkoutItems: [{ ...line('x'), productId: { $gt: '' } }], shippingAddress: address() },
        400,
        'Invalid product id',
      ],
      [
        'an unknown product',
        { checkoutItems: [line('64b7f9f9f9f9f9f9f9f9f9f9')], shippingAddress: address() },
        404,
        'Product not found',
      ],
    ])('refuses %s', async (_what, body, status, message) => {
      const res = await api.create(body, token);
      expect({ status: res.status, message: res.body.message, statusCode: res.body.statusCode }).toEqual({
        status,
        message,
        statusCode: status,
      });
    });

    it.each([0, -1, 100, 1.5, '2', null])('refuses a quantity of %p', async (quantity) => {
      const productId = await addProduct(shop);
      const res = await api.create(
        { checkoutItems: [{ ...line(productId), quantity }], shippingAddress: address() },
        token,
      );
      expect(res.status).toBe(400);
      expect(res.body.message).toBe('Quantity must be a whole number from 1 to 99');
    });

    it('refuses a size the product does not come in, an unpublished product, and more than the stock — holding nothing', async () => {
      const productId = await addProduct(shop, { countInStock: 2 });
      const draft = await addProduct(shop, { isPublished: false });
      const size = await api.create(
        { checkoutItems: [{ ...line(productId), size: 'XXL' }], shippingAddress: address() },
        token,
      );
      expect(size.status).toBe(400);
      expect(size.body.message).toMatch(/^Line 1 \(Ravens Hoodie \w+\): size XXL is not offered$/);
      const unpublished = await api.create({ checkoutItems: [line(draft)], shippingAddress: address() }, token);
      expect(unpublished.status).toBe(404);
      const tooMany = await api.create({ checkoutItems: [line(productId, 3)], shippingAddress: address() }, token);
      expect(tooMany.status).toBe(409);
      expect(tooMany.body.message).toMatch(/^Only 2 left in stock for Ravens Hoodie \w+ \(M, Purple\)$/);
      expect(await stockOf(shop, productId)).toBe(2);
    });

    it.each<[string, Record<string, unknown>, string]>([
      ['no size and no colour', { size: undefined, color: undefined }, 'please choose a size'],
      ['a null size', { size: null }, 'please choose a size'],
      ['an empty size', { size: '' }, 'please choose a size'],
      ['no colour', { color: undefined }, 'please choose a color'],
      ['a null colour', { color: null }, 'please choose a color'],
      ['a size not offered', { size: 'XS' }, 'size XS is not offered'],
      ['a colour not offered', { color: 'Green' }, 'color Green is not offered'],
    ])('refuses a line with %s (400 naming the line), holding nothing', async (_what, options, problem) => {
      const [good, bad] = [await addProduct(shop, { countInStock: 4 }), await addProduct(shop, { countInStock: 4 })];
      const res = await api.create(
        { checkoutItems: [line(good), { ...line(bad), ...options }], shippingAddress: address() },
        token,
      );
      expect(res.status).toBe(400);
      expect(res.body.message).toMatch(new RegExp(`^Line 2 \\(Ravens Hoodie \\w+\\): ${problem}$`));
      expect([await stockOf(shop, good), await stockOf(shop, bad)]).toEqual([4, 4]);
    });

    it('answers any variant fields of any line with a 201 or a 4xx JSON message, never a 5xx', async () => {
      const productId = await addProduct(shop, { countInStock: 999, otherStock: 999 });
      const option = fc.oneof(
        fc.constantFrom<unknown>('S', 'M', 'L', 'Purple', 'Black', 'XS', 'Green', '', ' M ', 'm', 'purple', null),
        fc.integer(),
        fc.boolean(),
        fc.constant({ $ne: null }),
        fc.constant(['M']),
        fc.string({ maxLength: 60 }),
      );
      const item = fc.record(
        {
          productId: fc.constantFrom<unknown>(productId, productId.toUpperCase(), '64b7f9f9f9f9f9f9f9f9f9f9'),
          quantity: fc.constantFrom<unknown>(1, 2),
          size: option,
          color: option,
          sku: fc.oneof(fc.string({ maxLength: 10 }), fc.constant({ $gt: '' })),
        },
        { requiredKeys: ['productId', 'quantity'] },
      );
      await fc.assert(
        fc.asyncProperty(fc.array(item, { minLength: 1, maxLength: 4 }), async (checkoutItems) => {
          const res = await api.create({ checkoutItems, shippingAddress: address() }, token);
          const fine = res.status === 201 || (res.status < 500 && typeof res.body.message === 'string');
          if (!fine) throw new Error(`${res.status} ${JSON.stringify(res.body)} for ${JSON.stringify(checkoutItems)}`);
          // A checkout made names a variant on every line: a size and a colour, both offered.
          if (res.status === 201)
            for (const l of res.body.checkoutItems as Array<{ size: string; color: string }>) {
              expect(['S', 'M', 'L']).toContain(l.size);
              expect(['Purple', 'Black']).toContain(l.color);
            }
        }),
        { numRuns: 40, seed: Number(process.env.FUZZ_SEED ?? 20260522) },
      );
    }, 120_000);

    it('holds each variant apart, and carries the variant SKU on to the checkout lines', async () => {
      const productId = await addProduct(shop, { countInStock: 1, otherStock: 3 });
      const res = await api.create(
        {
          checkoutItems: [line(productId), { ...line(productId, 2), size: 'L', color: 'Black' }],
          shippingAddress: address(),
        },
        token,
      );
      expect(res.status).toBe(201);
      const sku = `SKU-${productId}`.toUpperCase();
      expect(res.body.checkoutItems).toEqual([
        expect.objectContaining({ quantity: 1, size: 'M', color: 'Purple', sku: `${sku}-M-PURPLE` }),
        expect.objectContaining({ quantity: 2, size: 'L', color: 'Black', sku: `${sku}-L-BLACK` }),
      ]);
      // M in purple is gone now; L in black has one left; the product's others are untouched.
      const other = await api.create({ checkoutItems: [line(productId)], shippingAddress: address() }, token);
      expect([other.status, other.body.message]).toEqual([
        409,
        expect.stringMatching(/\(M, Purple\) is out of stock$/),
      ]);
      expect(await stockOf(shop, productId)).toBe(1 + 3 * 5 - 1 - 2);
    });

    it('needs a signed-in buyer', async () => {
      const res = await api.create({ checkoutItems: [], shippingAddress: address() });
      expect(res.status).toBe(401);
      expect(res.body.message).toBe('Not authorized, no token');
    });

    it('keeps the buyer name and email identity knows', async () => {
      const registered = await request(`${shop.identity.url}/api/users/register`, {
        body: { name: 'Lamar Jackson', email: `lamar.${Date.now()}@example.com`, password: 'Ravens!2345' },
      });
      expect(registered.status).toBe(201);
      const productId = await addProduct(shop, { price: 5 });
      const created = await api.create(
        { checkoutItems: [line(productId)], shippingAddress: address() },
        registered.body.token,
      );
      const paid = await api.pay(created.body._id, paypalOrder('5.00'), registered.body.token);
      expect(paid.status).toBe(200);
      const order = await api.finalize(created.body._id, registered.body.token);
      expect(order.status).toBe(201);
      expect(order.body.user).toEqual({
        _id: registered.body.user._id,
        name: 'Lamar Jackson',
        email: registered.body.user.email,
      });
    });
  });

  describe('read', () => {
    it('shows a checkout to its buyer only: anyone else, an admin too, gets 404', async () => {
      const { checkout } = await newCheckout();
      expect((await api.get(checkout._id, token)).body).toEqual(checkout);
      const other = shop.checkout.token({ id: newUserId() });
      const admin = shop.checkout.token({ id: newUserId(), role: 'admin' });
      for (const t of [other, admin]) {
        const res = await api.get(checkout._id, t);
        expect({ status: res.status, message: res.body.message }).toEqual({
          status: 404,
          message: CHECKOUT_MESSAGES.notFound,
        });
      }
      expect((await api.get('not-an-id', token)).body).toEqual({
        message: CHECKOUT_MESSAGES.invalidId,
        statusCode: 400,
      });
    });
  });

  describe('pay', () => {
    it('marks the checkout paid once PayPal confirms the capture, keeping sanitised details', async () => {
      const { checkout } = await newCheckout(24.5, 2);
      const paypalOrderId = paypalOrder('49.00');
      const res = await api.pay(checkout._id, paypalOrderId, token);
      expect(res.status).toBe(200);
      expect(res.body).toEqual(
        expect.objectContaining({
          isPaid: true,
          paymentStatus: 'paid',
          paidAt: expect.any(String),
          isFinalized: false,
        }),
      );
      expect(res.body.paymentDetails).toEqual({
        provider: 'paypal',
        id: paypalOrderId,
        status: 'COMPLETED',
        captureId: expect.any(String),
        captureStatus: 'COMPLETED',
        amount: '49.00',
        currency: 'GBP',
        payerEmail: expect.stringContaining('@'),
        payerId: expect.any(String),
        capturedAt: expect.any(String),
      });
      // The answer is the checkout as stored (pay answers from what it wrote, without reading it back).
      expect((await api.get(checkout._id, token)).body).toEqual(res.body);
      // PayPal was asked with the server's own credentials.
      const asked = shop.paypal.calls().filter((c) => c.orderId === paypalOrderId && c.method === 'GET');
      expect(asked.map((c) => c.auth)).toEqual(['bearer']);

      const again = await api.pay(checkout._id, paypalOrderId, token);
      expect(again.status).toBe(200);
      expect(again.body.paidAt).toBe(res.body.paidAt);
      const other = await api.pay(checkout._id, paypalOrder('49.00'), token);
      expect({ status: other.status, message: other.body.message }).toEqual({
        status: 409,
        message: CHECKOUT_MESSAGES.alreadyPaid,
      });
    });

    it.each([
      ['an unknown PayPal order', () => 'UNKNOWN0000000000'],
      ['a declined capture', () => paypalOrder('40.00', 'declined')],
      ['an uncaptured order', () => paypalOrder('40.00', 'uncaptured')],
      ['a capture 1p over (amount mismatch)', () => paypalOrder('40.00', 'amount-mismatch')],
      ['another currency', () => paypalOrder('40.00', 'currency-mismatch')],
      ['1p short', () => paypalOrder('39.99')],
      ['1p over', () => paypalOrder('40.01')],
      ['a different amount', () => paypalOrder('0.01')],
    ])('refuses %s with 402 and changes nothing', async (_what, makeOrder) => {
      const { checkout } = await newCheckout(20, 2);
      const res = await api.pay(checkout._id, makeOrder(), token);
      expect({ status: res.status, message: res.body.message }).toEqual({
        status: 402,
        message: CHECKOUT_MESSAGES.paymentNotVerified,
      });
      expect((await api.get(checkout._id, token)).body).toEqual(checkout);
      expect((await api.finalize(checkout._id, token)).body).toEqual({
        message: CHECKOUT_MESSAGES.notPaid,
        statusCode: 400,
      });
    });

    it('refuses a PayPal order that already paid another checkout, the same buyer or another', async () => {
      const first = await newCheckout(20, 1);
      const paypalOrderId = paypalOrder('20.00');
      expect((await api.pay(first.checkout._id, paypalOrderId, token)).status).toBe(200);

      const mine = await newCheckout(20, 1);
      const someoneElse = shop.checkout.token({ id: newUserId() });
      const productId = await addProduct(shop, { price: 20 });
      const theirs = await api.create({ checkoutItems: [line(productId)], shippingAddress: address() }, someoneElse);
      for (const [id, t] of [
        [mine.checkout._id, token],
        [theirs.body._id, someoneElse],
      ]) {
        const res = await api.pay(id, paypalOrderId, t);
        expect({ status: res.status, message: res.body.message }).toEqual({
          status: 409,
          message: CHECKOUT_MESSAGES.paymentUsed,
        });
        expect((await api.get(id, t)).body.isPaid).toBe(false);
      }
    });

    it('lets one of two checkouts racing for the same PayPal order have it', async () => {
      const a = await newCheckout(15, 1);
      const b = await newCheckout(15, 1);
      const paypalOrderId = paypalOrder('15.00');
      const results = await Promise.all([a, b].map(({ checkout }) => api.pay(checkout._id, paypalOrderId, token)));
      expect(results.map((r) => r.status).sort((x, y) => x - y)).toEqual([200, 409]);
    });

    it('answers 503, leaving the checkout unpaid, when PayPal fails or is too slow; a retry then pays', async () => {
      const { checkout } = await newCheckout(20, 1);
      const paypalOrderId = paypalOrder('20.00');
      shop.paypal.setMode('error-500');
      const failed = await api.pay(checkout._id, paypalOrderId, token);
      expect({ status: failed.status, message: failed.body.message }).toEqual({
        status: 503,
        message: CHECKOUT_MESSAGES.paypalUnavailable,
      });
      shop.paypal.setMode('slow', { latencyMs: 1500 });
      expect((await api.pay(checkout._id, paypalOrderId, token)).status).toBe(503);
      expect((await api.get(checkout._id, token)).body.isPaid).toBe(false);
      shop.paypal.setMode('normal');
      expect((await api.pay(checkout._id, paypalOrderId, token)).status).toBe(200);
    });

    it.each([
      ['no payment details', {}],
      ['no PayPal order id', { paymentDetails: {} }],
      ['an id that is not text', { paymentDetails: { id: { $ne: '' } } }],
      ['an id PayPal never makes', { paymentDetails: { id: '../../v1/oauth2/token' } }],
    ])('refuses %s with 400', async (_what, body) => {
      const { checkout } = await newCheckout();
      const res = await request(`${shop.checkout.url}/api/checkout/${checkout._id}/pay`, {
        method: 'PUT',
        body,
        token,
      });
      expect({ status: res.status, message: res.body.message }).toEqual({
        status: 400,
        message: CHECKOUT_MESSAGES.paypalOrderId,
      });
    });

    it("answers 404 for someone else's checkout and pays nothing", async () => {
      const { checkout } = await newCheckout(20, 1);
      const res = await api.pay(checkout._id, paypalOrder('20.00'), shop.checkout.token({ id: newUserId() }));
      expect(res.status).toBe(404);
      expect((await api.get(checkout._id, token)).body.isPaid).toBe(false);
    });

    describe('after the reservation expired', () => {
      const expire = (checkoutId: string) => expireHolds(shop, checkoutId);

      it('holds the stock again when it is still there', async () => {
        const { checkout, productId } = await newCheckout(20, 2, 5);
        await expire(checkout._id);
        await waitForStock(productId, 5);
        const res = await api.pay(checkout._id, paypalOrder('40.00'), token);
        expect(res.status).toBe(200);
        expect(await stockOf(shop, productId)).toBe(3);
      });

      it('refunds the payment and stays unpaid when the stock was sold meanwhile', async () => {
        const { checkout, productId } = await newCheckout(20, 2, 2);
        await expire(checkout._id);
        await waitForStock(productId, 2);
        const rival = await api.create({ checkoutItems: [line(productId, 2)], shippingAddress: address() }, token);
        expect(rival.status).toBe(201);

        const paypalOrderId = paypalOrder('40.00');
        const res = await api.pay(checkout._id, paypalOrderId, token);
        expect(res.status).toBe(409);
        expect(res.body.message).toMatch(
          /is out of stock\. Your reservation had expired, so the payment was refunded\.$/,
        );
        expect((await api.get(checkout._id, token)).body.isPaid).toBe(false);
        expect(shop.paypal.orders.get(paypalOrderId)?.purchase_units[0].payments?.captures?.[0].status).toBe(
          'REFUNDED',
        );
        // The refunded PayPal order can never pay anything again: PayPal itself now says REFUNDED.
        expect((await api.pay(checkout._id, paypalOrderId, token)).status).toBe(402);
      });

      it('pays with its units or refunds, never paid without them, while pays race the sweeper and a rival', async () => {
        const productId = await addProduct(shop, { price: 10, countInStock: 6 });
        const created = await Promise.all(
          Array.from({ length: 6 }, () =>
            api.create({ checkoutItems: [line(productId, 1)], shippingAddress: address() }, token),
          ),
        );
        const ids = created.map((c) => c.body._id as string);
        for (const id of ids) await expire(id);
        // The sweeper (every 200 ms) asks about each expired hold while the buyers pay and a rival takes what comes back.
        const rival: string[] = [];
        const rivalry = (async () => {
          const until = Date.now() + 2500;
          while (Date.now() < until) {
            const res = await api.create({ checkoutItems: [line(productId, 1)], shippingAddress: address() }, token);
            if (res.status === 201) rival.push(res.body._id);
            await new Promise((r) => setTimeout(r, 20));
          }
        })();
        const paid = await Promise.all(
          ids.map(async (id, i) => {
            await new Promise((r) => setTimeout(r, i * 60));
            return api.pay(id, paypalOrder('10.00'), token);
          }),
        );
        await rivalry;
        // each paid (200) or refunded for want of stock (409); anything else shown with its message
        const others = paid.filter((res) => res.status !== 200 && res.status !== 409);
        expect(others.map((res) => [res.status, res.body.message])).toEqual([]);
        const buyers = ids.filter((_, i) => paid[i].status === 200);
        for (const id of buyers) expect((await api.finalize(id, token)).status).toBe(201);

        // Every unit is in one place: on the shelf, sold to a paying buyer, or held by a rival's checkout.
        const products = shop.catalog.app.get<Model<{ countInStock: number; soldCount: number }>>(
          getModelToken('Product'),
        );
        await waitFor(
          'the sales committed',
          async () => (await products.findById(productId).lean())?.soldCount === buyers.length,
        );
        const product = (await products.findById(productId).lean())!;
        expect(product.countInStock + product.soldCount + rival.length).toBe(6);
      }, 30_000);

      async function waitForStock(productId: string, count: number) {
        const deadline = Date.now() + 10_000;
        while ((await stockOf(shop, productId)) !== count) {
          if (Date.now() > deadline) throw new Error(`stock of ${productId} never came back to ${count}`);
          await new Promise((r) => setTimeout(r, 50));
        }
      }
    });
  });

  describe('when the catalog is too slow to answer', () => {
    it('holds nothing for a checkout that timed out, and pays one whose hold is there without asking it', async () => {
      const { checkout, productId } = await newCheckout(20, 1, 5);
      expect(await stockOf(shop, productId)).toBe(4);
      // The catalog takes longer to answer than checkout waits for a reservation (3 s here): a fault injected
      // in front of its real stock requests, which then run as they would.
      const stock = shop.catalog.app.get(StockService);
      const real = stock.reserve.bind(stock);
      const spy = jest.spyOn(stock, 'reserve').mockImplementation(async (raw: unknown) => {
        await new Promise((r) => setTimeout(r, 4500));
        return real(raw);
      });

      const paypalOrderId = paypalOrder('20.00');
      const [created, paid] = await Promise.all([
        api.create({ checkoutItems: [line(productId, 2)], shippingAddress: address() }, token),
        api.pay(checkout._id, paypalOrderId, token),
      ]);
      // Pay writes no stock while the hold is there: the catalog's slowness does not reach it.
      expect([created.status, paid.status]).toEqual([503, 200]);
      expect((await api.get(checkout._id, token)).body.isPaid).toBe(true);

      // The catalog gets to the late reservation after its caller gave up: it holds nothing; the paid hold is intact
      // and, once the order is placed, sold.
      await new Promise((r) => setTimeout(r, 2500));
      spy.mockRestore();
      expect(await stockOf(shop, productId)).toBe(4);
      expect((await api.finalize(checkout._id, token)).status).toBe(201);
      expect(await stockOf(shop, productId)).toBe(4);
    }, 30_000);

    it('refunds a verified payment the sweeper cannot settle because the stock is gone', async () => {
      const { checkout, productId } = await newCheckout(20, 1, 1);
      const paypalOrderId = paypalOrder('20.00');
      // As a timed-out pay leaves it: the payment verified and claimed, the checkout unpaid; then the hold expires
      // and another buyer takes the last unit.
      const payments = shop.checkout.app.get<Model<unknown>>(getModelToken('Payment'));
      const order = shop.paypal.orders.get(paypalOrderId)!;
      await payments.create({
        paypalOrderId,
        checkoutId: checkout._id,
        userId: buyer,
        amountPence: 2000,
        status: 'claimed',
        details: {
          provider: 'paypal',
          id: paypalOrderId,
          status: 'COMPLETED',
          captureId: order.purchase_units[0].payments!.captures![0].id,
          captureStatus: 'COMPLETED',
          amount: '20.00',
          currency: 'GBP',
        },
      });
      await expireHolds(shop, checkout._id, new Date(0));
      const deadline = Date.now() + 10_000;
      while ((await stockOf(shop, productId)) !== 1 && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 50));
      expect((await api.create({ checkoutItems: [line(productId)], shippingAddress: address() }, token)).status).toBe(
        201,
      );

      const service = shop.checkout.app.get(CheckoutsService);
      await service.settleStalePayments(Date.now() + 10 * 60_000);
      expect(shop.paypal.orders.get(paypalOrderId)?.purchase_units[0].payments?.captures?.[0].status).toBe('REFUNDED');
      expect((await api.get(checkout._id, token)).body.isPaid).toBe(false);
      expect(await payments.findOne({ paypalOrderId }).lean()).toEqual(expect.objectContaining({ status: 'refunded' }));
    });
  });

  describe('finalize', () => {
    it('refuses an unpaid checkout, and someone else’s', async () => {
      const { checkout } = await newCheckout();
      expect((await api.finalize(checkout._id, token)).body).toEqual({
        message: CHECKOUT_MESSAGES.notPaid,
        statusCode: 400,
      });
      expect((await api.pay(checkout._id, paypalOrder('40.00'), token)).status).toBe(200);
      const res = await api.finalize(checkout._id, shop.checkout.token({ id: newUserId() }));
      expect(res.status).toBe(404);
    });

    it('makes the order once: 201 first, 200 with the same order after', async () => {
      const { checkout, productId } = await newCheckout(12.5, 2, 4);
      await api.pay(checkout._id, paypalOrder('25.00'), token);
      const first = await api.finalize(checkout._id, token);
      expect(first.status).toBe(201);
      expect(first.body).toEqual(
        expect.objectContaining({
          user: { _id: buyer, name: 'Ray Lewis' },
          checkoutId: checkout._id,
          orderItems: [
            expect.objectContaining({
              productId,
              quantity: 2,
              price: 12.5,
              size: 'M',
              color: 'Purple',
              sku: `SKU-${productId}-M-PURPLE`.toUpperCase(),
            }),
          ],
          shippingAddress: address(),
          paymentMethod: 'PayPal',
          totalPrice: 25,
          isPaid: true,
          paidAt: expect.any(String),
          isDelivered: false,
          status: 'Processing',
        }),
      );
      const again = await api.finalize(checkout._id, token);
      expect(again.status).toBe(200);
      expect(again.body._id).toBe(first.body._id);
      expect((await api.get(checkout._id, token)).body).toEqual(
        expect.objectContaining({ isFinalized: true, finalizedAt: expect.any(String) }),
      );
      // The order's event committed the held units of the variant: sold, never given back.
      await new Promise((r) => setTimeout(r, 500));
      expect(await stockOf(shop, productId)).toBe(2);
      const products = shop.catalog.app.get<
        Model<{ variants: Array<{ size: string; color: string; soldCount: number }> }>
      >(getModelToken('Product'));
      const sold = (await products.findById(productId).lean())!.variants.filter((v) => v.soldCount > 0);
      expect(sold).toEqual([expect.objectContaining({ size: 'M', color: 'Purple', soldCount: 2 })]);
    });

    it('makes one order from ten concurrent finalizes', async () => {
      const { checkout } = await newCheckout(10, 1);
      await api.pay(checkout._id, paypalOrder('10.00'), token);
      const results = await Promise.all(Array.from({ length: 10 }, () => api.finalize(checkout._id, token)));
      expect(results.filter((r) => r.status === 201)).toHaveLength(1);
      expect(results.filter((r) => r.status === 200)).toHaveLength(9);
      expect(new Set(results.map((r) => r.body._id)).size).toBe(1);
    });

    it('keeps the buyer’s email on the order when identity could not say it as the checkout was made', async () => {
      const email = `ray.${newUserId()}@example.com`;
      const registered = await request(`${shop.identity.url}/api/users/register`, {
        method: 'POST',
        body: { name: 'Ray Rice', email, password: 'Secret!2345' },
      });
      expect(registered.status).toBe(201);
      const me = { id: registered.body.user._id as string, name: 'Ray Rice' };
      const identity = shop.checkout.app.get<RpcClient>(IDENTITY);
      // identity away for the checkout's one lookup (a fault in front of the real client), back for the rest
      jest
        .spyOn(identity, 'send')
        .mockRejectedValueOnce(new ServiceUnavailableException('Identity service is unavailable'));
      const productId = await addProduct(shop, { price: 10, countInStock: 2 });
      const created = await api.create(
        { checkoutItems: [line(productId)], shippingAddress: address() },
        shop.checkout.token(me),
      );
      const checkouts = shop.checkout.app.get<Model<{ user: unknown }>>(getModelToken('Checkout'));
      expect((await checkouts.findById(created.body._id).lean())?.user).toEqual({ _id: me.id, name: 'Ray Rice' });
      expect((await api.pay(created.body._id, paypalOrder('10.00'), shop.checkout.token(me))).status).toBe(200);
      const orders = shop.orders.app.get<Model<{ checkoutId: string; user: { email?: string } }>>(
        getModelToken('Order'),
      );
      expect((await orders.findOne({ checkoutId: created.body._id }).lean())?.user).toMatchObject({ email });
    });

    it('is placed by pay: a buyer who closes the browser once paid has the order, and finalize answers it', async () => {
      const { checkout } = await newCheckout(10, 1);
      expect((await api.pay(checkout._id, paypalOrder('10.00'), token)).status).toBe(200);
      const orders = shop.orders.app.get<Model<{ checkoutId: string }>>(getModelToken('Order'));
      const placed = await orders.find({ checkoutId: checkout._id }).lean();
      expect(placed).toHaveLength(1);
      const payments = shop.checkout.app.get<Model<{ status: string }>>(getModelToken('Payment'));
      expect(await payments.findOne({ checkoutId: checkout._id }).lean()).toMatchObject({ status: 'captured' });
      const first = await api.finalize(checkout._id, token);
      expect({ status: first.status, id: first.body._id }).toEqual({ status: 201, id: String(placed[0]._id) });
      expect((await api.finalize(checkout._id, token)).status).toBe(200);
      expect(await orders.countDocuments({ checkoutId: checkout._id })).toBe(1);
    });
  });
});
