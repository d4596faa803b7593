// Discount codes in a real browser (issue 24): the admin creates a one-use code in /admin/discounts; a customer
// applies it at checkout, pays the discounted total through the fake PayPal and sees the discount on the
// confirmation; a second purchase with the used-up code is refused with its message, and the shopper pays without it.
// The newsletter's promise: a customer subscribes in the footer, the welcome code arrives in the stack's Mailpit, the
// first purchase with it pays 10 % less, and a second purchase with it is refused as not a first order.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { randomUUID } from 'node:crypto';
import { chromium, type Browser, type Page } from 'playwright-core';
import { DISCOUNT_MESSAGES } from '@shop/contracts';
import { api, e2eEnv, expectAccessible, login, uniqueEmail, variantsFor, waitForEmail, type E2eEnv } from './support';

jest.setTimeout(120_000);

const ADDRESS = {
  'First name': 'Jamie',
  'Last name': 'Fan',
  Address: '1 Stadium Way',
  City: 'London',
  'Postal code': 'N17 0BX',
  Country: 'United Kingdom',
  Phone: '+44 20 7946 0001',
};

describe('discount codes in the browser', () => {
  let env: E2eEnv;
  let browser: Browser;
  let adminToken: string;
  let productId: string;
  const code = `E2E-${randomUUID().slice(0, 8).toUpperCase()}`;

  const call = (method: string, url: string, token?: string, json?: unknown) =>
    api(env.baseUrl, method, url, { token, json });
  const shoot = (page: Page, name: string) =>
    page.screenshot({ path: path.join(env.screenshotDir, `discounts-${name}.png`), fullPage: true });

  /** A page signed in as `session` (the SPA's stored session), with `cart` as the SPA last saw it. */
  async function signedIn(session: { user: unknown; token: string }, cart?: unknown): Promise<Page> {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(env.baseUrl, { waitUntil: 'load' });
    // A string, evaluated in the page (the e2e project has no DOM types).
    const stored: Record<string, string> = { userInfo: JSON.stringify(session.user), userToken: session.token };
    if (cart) stored.cart = JSON.stringify(cart);
    await page.evaluate(
      `for (const [key, value] of Object.entries(${JSON.stringify(stored)})) localStorage.setItem(key, value)`,
    );
    return page;
  }

  /** The customer's cart holds one jersey (£40.00): the checkout page opened on it, signed in. */
  async function checkoutWithOneJersey(buyer: { user: unknown; token: string }): Promise<Page> {
    const added = await call('POST', '/api/cart', buyer.token, { productId, quantity: 1, size: 'M', color: 'Green' });
    expect([200, 201]).toContain(added.status); // 200: a cart of theirs existed already (emptied by an order)
    const page = await signedIn(buyer, added.body);
    await page.goto(`${env.baseUrl}/checkout`, { waitUntil: 'networkidle' });
    await page.getByRole('button', { name: 'Continue to Payment', exact: true }).waitFor();
    for (const [label, value] of Object.entries(ADDRESS)) await page.getByLabel(label, { exact: true }).fill(value);
    return page;
  }

  beforeAll(async () => {
    env = e2eEnv();
    fs.mkdirSync(env.screenshotDir, { recursive: true });
    browser = await chromium.launch({ executablePath: env.chromium.path, args: env.chromium.args, headless: true });
    adminToken = (await call('POST', '/api/users/login', undefined, login(env, 'admin'))).body.token;
    const image = (await call('GET', '/api/products?limit=1')).body[0].images[0];
    const sku = `E2E-DISC-${randomUUID().slice(0, 8)}`;
    const product = await call('POST', '/api/admin/products', adminToken, {
      name: `Discount Test Jersey ${sku}`,
      description: 'A jersey for discount code tests.',
      price: 40,
      variants: variantsFor(['M'], ['Green'], 10),
      sku,
      category: 'Top Wear',
      gender: 'Men',
      brand: 'Green Bay Packers',
      sizes: ['M'],
      colors: ['Green'],
      material: 'Polyester',
      images: [image],
    });
    expect(product.status).toBe(201);
    productId = product.body._id;
  });

  afterAll(async () => {
    await browser?.close();
  });

  it('the admin creates a one-use code of 25 % in /admin/discounts', async () => {
    const admin = await call('POST', '/api/users/login', undefined, login(env, 'admin'));
    const page = await signedIn(admin.body);
    await page.goto(`${env.baseUrl}/admin`, { waitUntil: 'networkidle' });
    await page
      .getByRole('complementary', { name: 'Admin sidebar' })
      .getByRole('link', { name: 'Discounts', exact: true })
      .click();
    await page.waitForURL(/\/admin\/discounts$/);
    await page.getByRole('button', { name: 'Add discount code', exact: true }).click();
    const form = page.getByRole('form', { name: 'New discount code' });
    await form.getByLabel('Code', { exact: false }).first().fill(code.toLowerCase());
    await expect(form.getByLabel('Code', { exact: false }).first().inputValue()).resolves.toBe(code);
    await form.getByLabel('Percentage (%)', { exact: false }).fill('25');
    await form.getByLabel('Usage limit', { exact: true }).fill('1');
    await expectAccessible(page, 'discount code form');
    await form.getByRole('button', { name: 'Create Code', exact: true }).click();
    await page.getByText(`${code} created`).waitFor();
    const row = page.getByTestId('discount-row').filter({ hasText: code });
    await expect(row.locator('[data-label="Discount"]').textContent()).resolves.toBe('25 %');
    await expect(row.locator('[data-label="Uses"]').textContent()).resolves.toBe('0 / 1');
    await expect(row.locator('[data-label="Status"]').textContent()).resolves.toBe('active');
    await expectAccessible(page, 'discount codes');
    await shoot(page, 'admin');
    await page.close();
  });

  it('a customer applies it, pays 25 % less through the fake PayPal and sees the discount on the confirmation', async () => {
    const buyer = await call('POST', '/api/users/register', undefined, {
      name: 'Discount Fan',
      email: uniqueEmail('discounts.first'),
      password: 'Touchdown!2025',
    });
    expect(buyer.status).toBe(201);
    const page = await checkoutWithOneJersey(buyer.body);

    await page.getByLabel('Discount code', { exact: true }).fill(code.toLowerCase());
    await page.getByRole('button', { name: 'Apply', exact: true }).click();
    const summary = page.getByRole('region', { name: 'Order Summary' });
    await expect(summary.getByTestId('discount-line').textContent()).resolves.toBe(`Discount (${code})−£10.00`);
    await expectAccessible(page, 'checkout with a code applied');
    await shoot(page, 'applied');

    await page.getByRole('button', { name: 'Continue to Payment', exact: true }).click();
    const payment = page.getByTestId('payment-step');
    await payment.waitFor();
    await expect(payment.getByText('Total to pay:').textContent()).resolves.toContain('£30.00');
    await page.getByRole('button', { name: 'Pay with test PayPal', exact: true }).click();
    await page.waitForURL(/\/order-confirmation$/, { timeout: 30_000 });
    const totals = page.getByTestId('order-total');
    await expect(totals.getByTestId('order-discount').textContent()).resolves.toBe(`Discount (${code})−£10.00`);
    await expect(totals.textContent()).resolves.toMatch(/Subtotal£40\.00.*Total£30\.00/);
    await expectAccessible(page, 'confirmation with a discount');
    await shoot(page, 'confirmation');

    // what PayPal was paid: the discounted total
    const orders = await call('GET', '/api/orders/my-orders', buyer.body.token);
    expect(orders.body[0]).toMatchObject({ totalPrice: 30, subtotal: 40, discount: { code, amount: 10 } });
    await page.close();
  });

  it('a second purchase with the used-up code is refused with its message, and the shopper pays without it', async () => {
    const buyer = await call('POST', '/api/users/register', undefined, {
      name: 'Second Fan',
      email: uniqueEmail('discounts.second'),
      password: 'Touchdown!2025',
    });
    const page = await checkoutWithOneJersey(buyer.body);
    await page.getByLabel('Discount code', { exact: true }).fill(code);
    await page.getByRole('button', { name: 'Apply', exact: true }).click();
    const summary = page.getByRole('region', { name: 'Order Summary' });
    await expect(summary.getByRole('alert').textContent()).resolves.toBe(DISCOUNT_MESSAGES.usedUp);
    await expect(summary.getByTestId('discount-line').count()).resolves.toBe(0);
    await expectAccessible(page, 'checkout with a refused code');
    await shoot(page, 'refused');

    await page.getByRole('button', { name: 'Continue to Payment', exact: true }).click();
    await expect(page.getByTestId('payment-step').getByText('Total to pay:').textContent()).resolves.toContain(
      '£40.00',
    );
    await page.close();
  });

  it("the newsletter's welcome code: subscribe, the code by email, 10 % off the first order, refused on the second", async () => {
    const email = uniqueEmail('discounts.welcome');
    const buyer = await call('POST', '/api/users/register', undefined, {
      name: 'Welcome Fan',
      email,
      password: 'Touchdown!2025',
    });
    expect(buyer.status).toBe(201);

    const home = await signedIn(buyer.body);
    await home.goto(env.baseUrl, { waitUntil: 'networkidle' });
    const newsletter = home.getByRole('form', { name: 'Newsletter' });
    await newsletter.getByLabel('Email address').fill(email);
    await newsletter.getByRole('button', { name: 'Subscribe', exact: true }).click();
    await home.getByText('Successfully subscribed to the newsletter').waitFor();
    await home.close();

    const mail = await waitForEmail(env, email.toLowerCase(), { subject: 'You are on the Gridiron Store newsletter' });
    const welcome = /WELCOME-[A-Z0-9]{6}/.exec(mail.Text)?.[0];
    expect(welcome).toBeDefined();

    const page = await checkoutWithOneJersey(buyer.body);
    await page.getByLabel('Discount code', { exact: true }).fill(welcome!.toLowerCase());
    await page.getByRole('button', { name: 'Apply', exact: true }).click();
    const summary = page.getByRole('region', { name: 'Order Summary' });
    await expect(summary.getByTestId('discount-line').textContent()).resolves.toBe(`Discount (${welcome})−£4.00`);
    await page.getByRole('button', { name: 'Continue to Payment', exact: true }).click();
    await expect(page.getByTestId('payment-step').getByText('Total to pay:').textContent()).resolves.toContain(
      '£36.00',
    );
    await page.getByRole('button', { name: 'Pay with test PayPal', exact: true }).click();
    await page.waitForURL(/\/order-confirmation$/, { timeout: 30_000 });
    await page.close();
    const orders = await call('GET', '/api/orders/my-orders', buyer.body.token);
    expect(orders.body[0]).toMatchObject({ totalPrice: 36, subtotal: 40, discount: { code: welcome, amount: 4 } });

    const again = await checkoutWithOneJersey(buyer.body);
    await again.getByLabel('Discount code', { exact: true }).fill(welcome!);
    await again.getByRole('button', { name: 'Apply', exact: true }).click();
    await expect(again.getByRole('region', { name: 'Order Summary' }).getByRole('alert').textContent()).resolves.toBe(
      DISCOUNT_MESSAGES.notFirstOrder,
    );
    await again.close();
  });
});
