// An order per paid checkout, made once whatever races, announced once, and read by its buyer and admins only.
import { EVENTS, SHIPPING_METHOD, type OrderJson } from '@shop/contracts';
import { waitFor } from '@shop/nest-common/testing';
import {
  ADMIN,
  CUSTOMER,
  errorOf,
  newId,
  OTHER_CUSTOMER,
  paidCheckout,
  sleep,
  startOrders,
  type OrdersHarness,
} from './orders.fixtures';
import { toOrderJson } from '../src/orders/order.mapper';
import { NEWEST_FIRST, ORDER_PROJECTION, type LeanOrder } from '../src/orders/order.schema';

describe('orders: placing and reading', () => {
  let h: OrdersHarness;
  beforeAll(async () => {
    h = await startOrders();
  });
  afterAll(() => h?.close());

  it('makes the order of a paid checkout, in pounds, readable by its buyer and by admins', async () => {
    const checkout = paidCheckout();
    const { order, created } = await h.create(checkout);
    expect(created).toBe(true);
    expect(order).toEqual({
      _id: expect.stringMatching(/^[0-9a-f]{24}$/),
      user: { _id: CUSTOMER.id, name: CUSTOMER.name, email: 'casey@example.com' },
      checkoutId: checkout.checkoutId,
      orderItems: [
        {
          productId: '65a000000000000000000001',
          name: 'Packers Home Jersey',
          image: '/uploads/seed/packers-home.svg',
          price: 89.99,
          quantity: 2,
          size: 'M',
          color: 'Green',
          sku: 'GB-HOME-M-GREEN',
        },
        {
          productId: '65a000000000000000000002',
          name: 'Ravens Beanie',
          image: '/uploads/seed/ravens-beanie.svg',
          price: 19.99,
          quantity: 1,
          size: '',
          color: 'Purple',
        },
      ],
      shippingAddress: checkout.shippingAddress,
      paymentMethod: 'PayPal',
      shippingMethod: 'Free international shipping',
      totalPrice: 199.97,
      isPaid: true,
      paidAt: checkout.paidAt,
      paymentStatus: 'paid',
      paymentDetails: checkout.paymentDetails,
      isDelivered: false,
      status: 'Processing',
      statusHistory: [{ status: 'Processing', at: order.createdAt }],
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });

    // updatedAt moves when the outbox relay marks the order's event published.
    const stored = { ...order, updatedAt: expect.any(String) };
    for (const reader of [CUSTOMER, ADMIN]) {
      const res = await h.http('GET', `/api/orders/${order._id}`, reader);
      expect(res.status).toBe(200);
      expect(res.body).toEqual(stored);
    }
  });

  it("answers 404 for another customer's order and for an unknown one, 400 for a malformed id", async () => {
    const { order } = await h.create(paidCheckout());
    const notFound = { statusCode: 404, message: 'Order not found' };
    expect(await h.http('GET', `/api/orders/${order._id}`, OTHER_CUSTOMER)).toMatchObject({
      status: 404,
      body: notFound,
    });
    expect(await h.http('GET', `/api/orders/${newId()}`, ADMIN)).toMatchObject({ status: 404, body: notFound });
    for (const bad of ['not-an-id', '123', `${order._id}0`, '%24ne']) {
      expect(await h.http('GET', `/api/orders/${bad}`, CUSTOMER)).toMatchObject({
        status: 400,
        body: { statusCode: 400, message: 'Invalid order id' },
      });
    }
  });

  it('makes one order and announces it once, with what the customer is told, when a checkout is finalized ten times at once', async () => {
    const checkout = paidCheckout();
    const answers = await Promise.all(Array.from({ length: 10 }, () => h.create(checkout)));
    expect(answers.filter((a) => a.created)).toHaveLength(1);
    const orderId = answers[0].order._id;
    for (const a of answers) expect(a.order).toEqual(answers.find((x) => x.created)!.order);
    expect(await h.orders.countDocuments({ checkoutId: checkout.checkoutId })).toBe(1);

    const placed = () =>
      h.events.of(EVENTS.orders.orderPlaced).filter((e) => e.data.checkoutId === checkout.checkoutId);
    await waitFor('orders.order.placed', () => placed().length > 0);
    // Finalizing again later answers the same order and announces nothing more.
    const again = await h.create(checkout);
    expect(again).toEqual({ order: { ...answers[0].order, updatedAt: again.order.updatedAt }, created: false });
    await sleep(500);
    expect(placed()).toEqual([
      expect.objectContaining({
        eventId: `orders.order.placed:${checkout.checkoutId}`,
        type: EVENTS.orders.orderPlaced,
        data: {
          orderId,
          checkoutId: checkout.checkoutId,
          userId: CUSTOMER.id,
          items: [
            { productId: '65a000000000000000000001', quantity: 2, size: 'M', color: 'Green', sku: 'GB-HOME-M-GREEN' },
            { productId: '65a000000000000000000002', quantity: 1, size: '', color: 'Purple' },
          ],
          summary: {
            customer: { name: CUSTOMER.name, email: 'casey@example.com' },
            lines: [
              {
                name: 'Packers Home Jersey',
                quantity: 2,
                price: 89.99,
                size: 'M',
                color: 'Green',
                sku: 'GB-HOME-M-GREEN',
              },
              { name: 'Ravens Beanie', quantity: 1, price: 19.99, color: 'Purple' },
            ],
            totalPrice: 199.97,
            shippingAddress: checkout.shippingAddress,
            placedAt: answers[0].order.createdAt,
          },
        },
        occurredAt: answers[0].order.createdAt,
      }),
    ]);
    await waitFor('the outbox emptied', async () => !(await h.orders.findById(orderId).lean())!.outboxPending);
  });

  it('keeps the subtotal and discount of an order placed with a code, shows them and tells the customer', async () => {
    const base = paidCheckout();
    const checkout = {
      ...base,
      subtotalPence: 19997,
      discount: { code: 'WELCOME-7KQ2M9', amountPence: 2000 },
      totalPence: 17997,
    };
    const { order } = await h.create(checkout);
    expect(order).toEqual(
      expect.objectContaining({
        subtotal: 199.97,
        discount: { code: 'WELCOME-7KQ2M9', amount: 20 },
        totalPrice: 179.97,
      }),
    );
    expect((await h.http('GET', `/api/orders/${order._id}`, CUSTOMER)).body).toEqual(
      expect.objectContaining({ subtotal: 199.97, discount: { code: 'WELCOME-7KQ2M9', amount: 20 } }),
    );
    await waitFor('orders.order.placed', () =>
      h.events.of(EVENTS.orders.orderPlaced).some((e) => e.data.checkoutId === checkout.checkoutId),
    );
    const placed = h.events.of(EVENTS.orders.orderPlaced).find((e) => e.data.checkoutId === checkout.checkoutId)!;
    expect(placed.data.summary).toEqual(
      expect.objectContaining({
        subtotal: 199.97,
        discount: { code: 'WELCOME-7KQ2M9', amount: 20 },
        totalPrice: 179.97,
      }),
    );
    // An order without a code keeps neither; a total that is not the subtotal less the discount is refused.
    const plain = (await h.create(paidCheckout())).order;
    expect(plain).not.toHaveProperty('discount');
    expect(plain).not.toHaveProperty('subtotal');
    expect(await errorOf(h.create({ ...checkout, checkoutId: newId(), totalPence: 19997 }))).toEqual({
      status: 400,
      message: 'totalPence must be subtotalPence less the discount',
    });
    expect(
      await errorOf(h.create({ ...checkout, checkoutId: newId(), discount: { code: '', amountPence: -1 } as never })),
    ).toEqual(expect.objectContaining({ status: 400 }));
  });

  it("lists a customer's own orders, newest first, and every order for admins", async () => {
    const buyer = { id: newId(), role: 'customer' as const, name: 'Nina Newbuyer' };
    const mine: OrderJson[] = [];
    for (let i = 0; i < 3; i++) mine.push((await h.create(paidCheckout(buyer))).order);
    const theirs = (await h.create(paidCheckout(OTHER_CUSTOMER))).order;

    const own = await h.http('GET', '/api/orders/my-orders', buyer);
    expect(own.status).toBe(200);
    expect((own.body as OrderJson[]).map((o) => o._id)).toEqual(mine.map((o) => o._id).reverse());

    const all = await h.http('GET', '/api/admin/orders', ADMIN);
    expect(all.status).toBe(200);
    const ids = (all.body as OrderJson[]).map((o) => o._id);
    expect(ids.slice(0, 4)).toEqual([theirs._id, ...mine.map((o) => o._id).reverse()]);
    const times = (all.body as OrderJson[]).map((o) => Date.parse(o.createdAt));
    expect(times).toEqual([...times].sort((a, b) => b - a));
    expect(all.body[0].user).toEqual({ _id: OTHER_CUSTOMER.id, name: OTHER_CUSTOMER.name, email: 'olly@example.com' });

    const none = await h.http('GET', '/api/orders/my-orders', { ...buyer, id: newId() });
    expect(none).toMatchObject({ status: 200, body: [] });
  });

  it('streams the list of every order whole and newest first, however many batches it takes', async () => {
    // Written straight to the collection (createdAt one minute apart): 250 orders are three of the stream's batches.
    const start = Date.now() - 86_400_000;
    const docs = Array.from({ length: 250 }, (_, i) => {
      const { paidAt, ...order } = paidCheckout({ id: newId(), name: `Batch Buyer ${i}` });
      const at = new Date(start + i * 60_000);
      return {
        ...order,
        paidAt: new Date(paidAt),
        paymentMethod: 'PayPal',
        shippingMethod: SHIPPING_METHOD,
        isPaid: true,
        paymentStatus: 'paid',
        isDelivered: false,
        status: 'Processing',
        outbox: [],
        outboxPending: false,
        createdAt: at,
        updatedAt: at,
      };
    });
    await h.orders.collection.insertMany(docs);

    const all = await h.http('GET', '/api/admin/orders', ADMIN);
    expect(all.status).toBe(200);
    expect(all.headers.get('content-type')).toBe('application/json; charset=utf-8');
    const stored = await h.orders.find({}, ORDER_PROJECTION).sort(NEWEST_FIRST).lean<LeanOrder[]>().exec();
    expect(stored.length).toBeGreaterThanOrEqual(250);
    expect(all.body).toEqual(JSON.parse(JSON.stringify(stored.map(toOrderJson))));
    const ours = (all.body as OrderJson[]).filter((o) => o.user.name.startsWith('Batch Buyer '));
    expect(ours.map((o) => o.user.name)).toEqual(docs.map((d) => d.user.name).reverse());
  });

  it.each<[string, Record<string, unknown>, string]>([
    ['no checkout id', { checkoutId: undefined }, 'checkoutId is required'],
    ['no items', { orderItems: [] }, 'No items in order'],
    ['items that are not a list', { orderItems: { $gt: '' } }, 'No items in order'],
    [
      'a quantity of 0',
      { orderItems: [{ ...paidCheckout().orderItems[0], quantity: 0 }] },
      'Quantity must be a whole number from 1 to 99',
    ],
    [
      'a price in pounds',
      { orderItems: [{ ...paidCheckout().orderItems[0], pricePence: 89.99 }] },
      'pricePence must be a whole number of pence',
    ],
    [
      'a malformed product id',
      { orderItems: [{ ...paidCheckout().orderItems[0], productId: 'x' }] },
      'Invalid product id',
    ],
    ['no buyer', { user: undefined }, 'user must be an object'],
    ['a malformed buyer id', { user: { _id: { $ne: null }, name: 'Eve' } }, 'Invalid user id'],
    ['a missing city', { shippingAddress: { ...paidCheckout().shippingAddress, city: '' } }, 'City is required'],
    ['a total that is not pence', { totalPence: '199.97' }, 'totalPence must be a whole number of pence'],
    ['no payment time', { paidAt: 'yesterday' }, 'paidAt must be an ISO date'],
  ])('refuses a create request with %s: 400 and a message', async (_what, change, message) => {
    expect(await errorOf(h.create({ ...paidCheckout(), ...change } as never))).toEqual({ status: 400, message });
  });

  it('answers 401 without a valid token and 403 to customers on every admin route', async () => {
    const { order } = await h.create(paidCheckout());
    const admin: Array<[string, string, unknown?]> = [
      ['GET', '/api/admin/orders'],
      ['PUT', `/api/admin/orders/${order._id}`, { status: 'Shipped' }],
      ['DELETE', `/api/admin/orders/${order._id}`],
      ['GET', '/api/admin/stats'],
    ];
    for (const [method, path, body] of admin) {
      expect(await h.http(method, path, undefined, body)).toMatchObject({
        status: 401,
        body: { statusCode: 401, message: 'Not authorized, no token' },
      });
      expect(await h.http(method, path, CUSTOMER, body)).toMatchObject({
        status: 403,
        body: { statusCode: 403, message: 'Not authorized as an admin' },
      });
    }
    for (const path of ['/api/orders/my-orders', `/api/orders/${order._id}`]) {
      expect(await h.http('GET', path)).toMatchObject({ status: 401, body: { message: 'Not authorized, no token' } });
    }
    const forged = await fetch(`${h.svc.url}/api/orders/my-orders`, { headers: { authorization: 'Bearer x.y.z' } });
    expect(forged.status).toBe(401);
    expect(await forged.json()).toEqual({ statusCode: 401, message: 'Not authorized, token failed' });
    // Nothing an unauthorised caller sent was applied.
    expect((await h.http('GET', `/api/orders/${order._id}`, ADMIN)).body.status).toBe('Processing');
  });
});
