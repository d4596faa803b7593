// Returns and partial refunds (issue 38), in a real browser (Debian's chromium via playwright-core) through the gateway
// of the e2e stack: a customer returns one of the two lines of a delivered order from its page; the seeded admin
// approves it, marks it received with its units back on sale, and the shop refunds the line's paid share (the order's
// discount shared out across its lines) to the fake PayPal once; the variant's stock rises by the returned quantity
// once; three emails arrive (requested, approved, refunded). A return beyond the bought quantity, or after 45 days, is
// refused with a message. It makes its own product, customer, code and orders, so journeys beside it are undisturbed.
import { randomUUID } from 'node:crypto';
import { MongoClient, ObjectId } from 'mongodb';
import { chromium, type Browser, type Page } from 'playwright-core';
import { RETURN_MESSAGES, type OrderJson } from '@shop/contracts';
import {
  api,
  e2eEnv,
  emailsTo,
  expectAccessible,
  login,
  orderCart,
  uniqueEmail,
  variantsFor,
  variantStock,
  waitForEmail,
  type E2eEnv,
} from './support';

jest.setTimeout(120_000);

describe('returns and partial refunds (browser)', () => {
  let env: E2eEnv;
  let browser: Browser;
  let shopper: Page;
  let admin: Page;
  let adminToken: string;
  const problems: string[] = [];
  const tag = randomUUID().slice(0, 8);
  const customer = { name: `Returns Buyer ${tag}`, email: uniqueEmail('returns.buyer'), password: 'Buyer!2345' };
  let customerToken = '';
  let productId = '';
  const productName = `Returns Journey Jersey ${tag}`;

  const call = (method: string, url: string, token?: string, json?: unknown) =>
    api(env.baseUrl, method, url, { token, json });
  const stockOf = async (size: string) =>
    variantStock((await call('GET', `/api/products/${productId}`)).body, size, 'Green');
  const atPayPal = async (paypalOrderId: string) => {
    const res = await fetch(`${env.paypalUrl}/__fake/orders/${paypalOrderId}`);
    const payments = ((await res.json()) as { order: any }).order.purchase_units[0].payments;
    return {
      captureStatus: payments.captures[0].status as string,
      refunds: (payments.refunds ?? []) as Array<{ amount: { value: string } }>,
    };
  };
  const until = async (what: string, check: () => Promise<boolean>, timeoutMs = 20_000) => {
    const deadline = Date.now() + timeoutMs;
    while (!(await check())) {
      if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms`);
      await new Promise((r) => setTimeout(r, 200));
    }
  };
  const shot = (page: Page, name: string) =>
    env.screenshotDir ? page.screenshot({ path: `${env.screenshotDir}/returns-${name}.png`, fullPage: true }) : null;

  /** A delivered order of 1 × M/Green and 1 × L/Green (£45 each) with a £10 code: £80 paid, £40 a line. */
  async function deliveredOrder(code?: string): Promise<OrderJson> {
    await call('DELETE', '/api/cart', customerToken, { productId, size: 'M', color: 'Green' });
    await call('DELETE', '/api/cart', customerToken, { productId, size: 'L', color: 'Green' });
    await call('POST', '/api/cart', customerToken, { productId, quantity: 1, size: 'M', color: 'Green' });
    const cart = await call('POST', '/api/cart', customerToken, { productId, quantity: 1, size: 'L', color: 'Green' });
    expect(cart.status).toBeLessThan(300);
    const order = (await orderCart(env, customerToken, cart.body, undefined, code)) as OrderJson;
    const delivered = await call('PUT', `/api/admin/orders/${order._id}`, adminToken, { status: 'Delivered' });
    expect(delivered.status).toBe(200);
    return delivered.body as OrderJson;
  }

  async function signIn(page: Page, who: { email: string; password: string }, redirect: string) {
    await page.goto(`${env.baseUrl}/login?redirect=${redirect}`, { waitUntil: 'networkidle' });
    await page.getByLabel('Email', { exact: true }).fill(who.email);
    await page.getByLabel('Password', { exact: true }).fill(who.password);
    await page.getByRole('button', { name: 'Sign In', exact: true }).click();
  }

  beforeAll(async () => {
    env = e2eEnv();
    adminToken = (await call('POST', '/api/users/login', undefined, login(env, 'admin'))).body.token;
    expect(adminToken).toBeTruthy();
    const seeded = (await call('GET', '/api/products')).body as Array<{ images: Array<{ url: string }> }>;
    const image = seeded.flatMap((p) => p.images).find((i) => i.url.startsWith('/uploads/seed/'));
    const made = await call('POST', '/api/admin/products', adminToken, {
      name: productName,
      description: 'A jersey the returns journey buys and sends back.',
      price: 45,
      variants: variantsFor(['M', 'L'], ['Green'], 10),
      sku: `E2E-RET-${tag}`,
      category: 'Top Wear',
      gender: 'Men',
      brand: 'Green Bay Packers',
      sizes: ['M', 'L'],
      colors: ['Green'],
      material: 'Polyester',
      images: [image],
    });
    expect(made.status).toBe(201);
    productId = made.body._id;
    const registered = await call('POST', '/api/users/register', undefined, customer);
    expect(registered.status).toBe(201);
    customerToken = registered.body.token;

    browser = await chromium.launch({ executablePath: env.chromium.path, args: env.chromium.args, headless: true });
    shopper = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
    admin = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
    for (const page of [shopper, admin]) {
      page.on('console', (m) => {
        if (m.type() === 'error' && !/status of 4\d\d/.test(m.text())) problems.push(`console.error: ${m.text()}`);
      });
      page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
    }
    await signIn(shopper, customer, 'profile');
    await shopper.waitForURL(/\/profile$/);
    await signIn(admin, login(env, 'admin'), 'admin');
    await admin.waitForURL(/\/admin$/);
  });

  afterAll(async () => {
    await browser?.close();
  });

  it('a customer returns one of two lines; the admin approves, receives and restocks; the exact share is refunded once, the stock rises once, three emails', async () => {
    const code = `RET-${tag}`.toUpperCase();
    expect(
      (await call('POST', '/api/admin/discounts', adminToken, { code, type: 'fixed', value: 10, active: true })).status,
    ).toBe(201);
    const order = await deliveredOrder(code);
    expect(order.totalPrice).toBe(80);
    const paypalOrderId = order.paymentDetails!.id;
    const mLine = order.orderItems.findIndex((l) => l.size === 'M');
    const mBefore = (await stockOf('M')) ?? 0;
    const lBefore = await stockOf('L');

    // The customer asks, from the order's page.
    await shopper.goto(`${env.baseUrl}/order/${order._id}`, { waitUntil: 'networkidle' });
    await shopper.getByRole('button', { name: 'Return items' }).click();
    await shopper.getByLabel(new RegExp(`${productName}.*Size: M`)).selectOption('1');
    await shopper.getByLabel('Reason').selectOption('Too small');
    await shopper.getByLabel(/Anything else/).fill('The M runs small.');
    await expectAccessible(shopper, 'the return form');
    await shot(shopper, '1-form');
    await shopper.getByRole('button', { name: 'Request return' }).click();
    const card = shopper.getByTestId('order-return');
    await card.waitFor();
    await expect(card.getByTestId('return-status').textContent()).resolves.toBe('Requested');
    await expect(card.textContent()).resolves.toContain('Refund once we receive the items: £40.00');
    await expect(shopper.getByTestId('order-return-step').first().textContent()).resolves.toBe(
      'Return requested (£40.00)',
    );

    // The admin: the queue, approve with a note, then receive with the unit back on sale.
    await admin.goto(`${env.baseUrl}/admin/returns`, { waitUntil: 'networkidle' });
    const item = admin.getByTestId('admin-return').filter({ hasText: order._id });
    await item.waitFor();
    await expectAccessible(admin, 'the returns queue');
    await shot(admin, '2-queue');
    await item.getByLabel(/Note to the customer/).fill('Thanks: please post it within 14 days.');
    await item.getByRole('button', { name: 'Approve' }).click();
    await until('approved', async () => (await item.getByTestId('admin-return-status').textContent()) === 'Approved');
    await expect(item.getByTestId(`restock-${mLine}`).isChecked()).resolves.toBe(true);
    await item.getByRole('button', { name: 'Mark received and refund £40.00' }).click();
    await until('refunded', async () => (await item.getByTestId('admin-return-status').textContent()) === 'Refunded');
    await expect(item.textContent()).resolves.toContain('Refunded £40.00');
    await shot(admin, '3-refunded');

    // Exactly once: one refund of £40.00 at PayPal, M's stock up by one (L's unchanged), and it stays so.
    await until('the unit back on sale', async () => (await stockOf('M')) === mBefore + 1);
    const paid = await atPayPal(paypalOrderId);
    expect(paid.refunds.map((r) => r.amount.value)).toEqual(['40.00']);
    expect(paid.captureStatus).toBe('PARTIALLY_REFUNDED');
    await new Promise((r) => setTimeout(r, 1500));
    expect([await stockOf('M'), await stockOf('L')]).toEqual([mBefore + 1, lBefore]);
    expect((await atPayPal(paypalOrderId)).refunds).toHaveLength(1);

    // The customer's page shows each step and the refund.
    await shopper.reload({ waitUntil: 'networkidle' });
    await expect(shopper.getByTestId('return-refund').textContent()).resolves.toBe(
      'Refunded £40.00 to your PayPal account',
    );
    const steps = await shopper.getByTestId('order-return-step').allTextContents();
    expect(steps).toEqual([
      'Return requested (£40.00)',
      'Return approved (£40.00)',
      'Returned items received (£40.00)',
      'Return refunded (£40.00)',
    ]);
    await expectAccessible(shopper, 'the order with its refunded return');
    await shot(shopper, '4-order-refunded');

    // Three emails: requested, approved (with the note), refunded.
    await waitForEmail(env, customer.email, { subject: `We have your return request for order ${order._id}` });
    const approved = await waitForEmail(env, customer.email, {
      subject: `Your return for order ${order._id} is approved`,
    });
    expect(approved.Text).toContain('Thanks: please post it within 14 days.');
    const refunded = await waitForEmail(env, customer.email, {
      subject: `Your refund for order ${order._id} is on its way`,
    });
    expect(refunded.Text).toContain('£40.00');
    const returnMails = (await emailsTo(env, customer.email)).filter(
      (e) => e.Subject.includes(order._id) && /return|refund/i.test(e.Subject),
    );
    expect(returnMails).toHaveLength(3);

    // The same line again, beyond what was bought: refused with a message.
    const again = await call('POST', `/api/orders/${order._id}/returns`, customerToken, {
      lines: [{ line: mLine, quantity: 1 }],
      reason: 'Too small',
    });
    expect(again.status).toBe(400);
    expect(again.body.message).toBe(RETURN_MESSAGES.tooMany(productName, 0));
    const tooMany = await call('POST', `/api/orders/${order._id}/returns`, customerToken, {
      lines: [{ line: 1 - mLine, quantity: 2 }],
      reason: 'Too small',
    });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.message).toBe(RETURN_MESSAGES.tooMany(productName, 1));
    expect(problems).toEqual([]);
  });

  it('refuses a return 46 days after the delivery, with a message, and the page says the window closed', async () => {
    const order = await deliveredOrder();
    const client = await MongoClient.connect(env.mongoUrl);
    try {
      const longAgo = new Date(Date.now() - 46 * 24 * 3600 * 1000);
      await client
        .db(`${env.dbPrefix}orders`)
        .collection('orders')
        .updateOne({ _id: new ObjectId(order._id) }, { $set: { deliveredAt: longAgo } });
    } finally {
      await client.close();
    }
    const late = await call('POST', `/api/orders/${order._id}/returns`, customerToken, {
      lines: [{ line: 0, quantity: 1 }],
      reason: 'Changed my mind',
    });
    expect(late.status).toBe(400);
    expect(late.body.message).toMatch(/^Returns are accepted within 45 days of delivery: this order was delivered on /);
    await shopper.goto(`${env.baseUrl}/order/${order._id}`, { waitUntil: 'networkidle' });
    await expect(shopper.getByTestId('order-returns').textContent()).resolves.toMatch(
      /The 45-day return window closed on /,
    );
    expect(await shopper.getByRole('button', { name: 'Return items' }).count()).toBe(0);
    await shot(shopper, '5-window-closed');
    expect(problems).toEqual([]);
  });
});
