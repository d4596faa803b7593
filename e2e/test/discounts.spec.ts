// Discount codes through the gateway of the running shop (issue 24): an admin makes a code, a shopper quotes and buys
// with it through the fake PayPal at the discounted total, the order shows the discount, a second use is refused; the
// newsletter's welcome code arrives by email (again on a second sign-up) and takes 10 % off a first order only.
import { DISCOUNT_MESSAGES } from '@shop/contracts';
import { randomUUID } from 'node:crypto';
import { api, e2eEnv, emailsTo, login, orderCart, uniqueEmail, waitForEmail, type E2eEnv } from './support';

jest.setTimeout(120_000);

describe('discount codes through the gateway', () => {
  let env: E2eEnv;
  let adminToken: string;
  let productId: string;

  const call = (method: string, path: string, token?: string, json?: unknown) =>
    api(env.baseUrl, method, path, { token, json });

  async function register(tag: string) {
    const email = uniqueEmail(`discounts.${tag}`);
    const res = await call('POST', '/api/users/register', undefined, {
      name: `Buyer ${tag}`,
      email,
      password: 'Discount!2345',
    });
    expect(res.status).toBe(201);
    return { token: res.body.token as string, email: res.body.user.email as string };
  }
  const line = (quantity = 1) => ({ productId, quantity, size: 'M', color: 'Green' });
  /** A cart of `quantity` caps at £24.99 each, as orderCart takes it (the client's total: the undiscounted one). */
  const cart = (quantity = 2) => ({ products: [line(quantity)], totalPrice: 24.99 * quantity });

  beforeAll(async () => {
    env = e2eEnv();
    adminToken = (await call('POST', '/api/users/login', undefined, login(env, 'admin'))).body.token;
    const [seeded] = (await call('GET', '/api/products?limit=1')).body;
    const created = await call('POST', '/api/admin/products', adminToken, {
      name: `Discount Test Cap ${randomUUID().slice(0, 8)}`,
      description: 'Bought with discount codes.',
      price: 24.99,
      countInStock: 100,
      sku: `E2E-DISC-${randomUUID().slice(0, 8)}`,
      category: 'Accessories',
      gender: 'Men',
      brand: 'Green Bay Packers',
      sizes: ['M'],
      colors: ['Green'],
      material: 'Cotton',
      images: [seeded.images[0]],
    });
    expect(created.status).toBe(201);
    productId = created.body._id;
  });

  it('admin makes a code; a shopper quotes, pays the discounted total, the order shows it; a second use is refused', async () => {
    const code = `E2E-${randomUUID().slice(0, 8)}`.toUpperCase();
    const made = await call('POST', '/api/admin/discounts', adminToken, {
      code: code.toLowerCase(),
      type: 'percent',
      value: 20,
      minSubtotal: 30,
      usageLimit: 1,
      active: true,
    });
    expect(made.status).toBe(201);
    expect(made.body).toEqual(expect.objectContaining({ code, uses: 0, held: 0, status: 'active' }));

    const shopper = await register('code');
    // Customers and strangers cannot see or make codes.
    expect((await call('GET', '/api/admin/discounts', shopper.token)).status).toBe(403);
    expect((await call('GET', '/api/admin/discounts')).status).toBe(401);

    // 49.98 less 20 % (9.996 → 10.00) = 39.98
    const quote = await call('POST', '/api/checkout/quote', shopper.token, {
      checkoutItems: [line(2)],
      discountCode: code.toLowerCase(),
    });
    expect(quote.body).toEqual({ subtotal: 49.98, discount: { code, amount: 10 }, totalPrice: 39.98 });
    const below = await call('POST', '/api/checkout/quote', shopper.token, {
      checkoutItems: [line(1)],
      discountCode: code,
    });
    expect(below.body).toEqual({ statusCode: 400, message: DISCOUNT_MESSAGES.belowMinimum('30.00') });

    // orderCart pays the fake PayPal the checkout's total: 39.98, which the server verifies.
    const order = await orderCart(env, shopper.token, cart(2), undefined, code);
    expect(order).toEqual(
      expect.objectContaining({ subtotal: 49.98, discount: { code, amount: 10 }, totalPrice: 39.98 }),
    );
    expect(order.paymentDetails.amount).toBe('39.98');
    for (const token of [shopper.token, adminToken]) {
      const seen = await call('GET', `/api/orders/${order._id}`, token);
      expect(seen.body).toEqual(expect.objectContaining({ subtotal: 49.98, discount: { code, amount: 10 } }));
    }
    const mail = await waitForEmail(env, shopper.email, { subject: 'is confirmed' });
    expect(mail.Text).toContain(`Discount (${code}): −£10.00`);
    expect(mail.Text).toContain('Total: £39.98');

    const again = await call('POST', '/api/checkout', shopper.token, {
      checkoutItems: [line(2)],
      shippingAddress: {
        firstName: 'A',
        lastName: 'B',
        address: 'C',
        city: 'D',
        postalCode: 'E',
        country: 'F',
        phone: 'G',
      },
      discountCode: code,
    });
    expect(again.body).toEqual({ statusCode: 400, message: DISCOUNT_MESSAGES.usedUp });

    const listed = (await call('GET', '/api/admin/discounts', adminToken)).body.find(
      (c: { _id: string }) => c._id === made.body._id,
    );
    expect(listed).toEqual(expect.objectContaining({ uses: 1, held: 0, status: 'used up' }));
    const gone = await call('DELETE', `/api/admin/discounts/${made.body._id}`, adminToken);
    expect(gone.body).toEqual({ message: DISCOUNT_MESSAGES.deactivated });
  });

  it('the newsletter’s welcome code arrives by email, again on a second sign-up, and takes 10 % off a first order only', async () => {
    const fan = await register('welcome');
    expect((await call('POST', '/api/subscribe', undefined, { email: fan.email })).status).toBe(201);
    const mail = await waitForEmail(env, fan.email, { subject: 'newsletter' });
    const code = /WELCOME-[A-Z0-9]{6}/.exec(mail.Text)?.[0];
    expect(code).toBeDefined();
    expect(mail.Text).toContain(`10% off your first order with this code at checkout: ${code}`);

    const again = await call('POST', '/api/subscribe', undefined, { email: fan.email });
    expect(again.body).toEqual({ statusCode: 400, message: 'Email is already subscribed' });
    for (let i = 0; ; i++) {
      const newsletters = (await emailsTo(env, fan.email)).filter((m) => m.Subject.includes('newsletter'));
      if (newsletters.length === 2) break;
      if (i > 100) throw new Error('no second newsletter email');
      await new Promise((r) => setTimeout(r, 200));
    }

    const stranger = await register('stranger');
    const notYours = await call('POST', '/api/checkout/quote', stranger.token, {
      checkoutItems: [line()],
      discountCode: code,
    });
    expect(notYours.body).toEqual({ statusCode: 400, message: DISCOUNT_MESSAGES.notYours });

    const order = await orderCart(env, fan.token, cart(2), undefined, code);
    // 49.98 less 10 % (4.998 → 5.00) = 44.98: paid through the fake PayPal, verified by the server.
    expect(order).toEqual(
      expect.objectContaining({ subtotal: 49.98, discount: { code, amount: 5 }, totalPrice: 44.98 }),
    );
    const second = await call('POST', '/api/checkout/quote', fan.token, {
      checkoutItems: [line()],
      discountCode: code,
    });
    expect(second.body).toEqual({ statusCode: 400, message: DISCOUNT_MESSAGES.notFirstOrder });
  });
});
