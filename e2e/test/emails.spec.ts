// The emails of issue 23 in a real browser (Debian's chromium via playwright-core), through the gateway of the e2e
// stack and its Mailpit: a customer buys two lines through the checkout page and the test PayPal, and the order
// confirmation arrives with the lines (size, colour, quantity, price), the total, the address, the estimated delivery
// and a link to the order; the admin sets the order to Shipped, the customer's order page reads Shipped in its dated
// history, and a second email says it is on its way; the customer forgets the password, asks for a link on
// /forgot-password, opens the emailed link, chooses a new password and is signed in, and the old password is refused.
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { ESTIMATED_DELIVERY_DAYS, type ProductJson } from '@shop/contracts';
import { api, e2eEnv, emailsTo, expectAccessible, login, uniqueEmail, waitForEmail, type E2eEnv } from './support';

jest.setTimeout(90_000);

const pounds = (value: number) => `£${value.toFixed(2)}`;
/** The date as the emails print it (en-GB, e.g. "6 December 2026"). */
const longDate = (iso: string, plusDays = 0) =>
  new Date(new Date(iso).getTime() + plusDays * 86_400_000).toLocaleDateString('en-GB', {
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    timeZone: 'UTC',
  });

describe('the emails a customer gets (browser)', () => {
  let env: E2eEnv;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  const problems: string[] = [];
  const customer = { name: 'Email Journey Fan', email: uniqueEmail('emails'), password: 'Emails!2345' };
  const address = customer.email.toLowerCase();
  const newPassword = 'Brand-new-Pass9';
  let token = '';
  /** The two lines bought: a product, one of its variants with stock, and how many. */
  const lines: Array<{ product: ProductJson; size: string; color: string; quantity: number }> = [];
  let orderId = '';
  let total = 0;
  let placedAt = '';

  beforeAll(async () => {
    env = e2eEnv();
    const registered = await api(env.baseUrl, 'POST', '/api/users/register', { json: customer });
    expect(registered.status).toBe(201);
    token = registered.body.token;

    // Seeded products: the other journeys' own products may change or go while this one runs.
    const products = (await api(env.baseUrl, 'GET', '/api/products')).body as ProductJson[];
    for (const product of products.filter((p) => !/e2e|test/i.test(`${p.name} ${p.sku ?? ''}`))) {
      const variant = product.variants?.find((v) => v.countInStock >= 5 && v.size && v.color);
      if (variant) lines.push({ product, size: variant.size!, color: variant.color!, quantity: lines.length + 1 });
      if (lines.length === 2) break;
    }
    expect(lines).toHaveLength(2);
    for (const l of lines) {
      const added = await api(env.baseUrl, 'POST', '/api/cart', {
        token,
        json: { productId: l.product._id, quantity: l.quantity, size: l.size, color: l.color },
      });
      expect([200, 201]).toContain(added.status);
    }

    browser = await chromium.launch({ executablePath: env.chromium.path, args: env.chromium.args, headless: true });
    context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    page = await context.newPage();
    page.on('console', (m) => {
      if (m.type() === 'error') problems.push(`console.error: ${m.text()}`);
    });
    page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  });

  afterAll(async () => {
    await browser?.close();
  });

  async function signIn(password: string) {
    await page.goto(`${env.baseUrl}/login`, { waitUntil: 'networkidle' });
    await page.getByLabel('Email', { exact: true }).fill(customer.email);
    await page.getByLabel('Password', { exact: true }).fill(password);
    await page.getByRole('button', { name: 'Sign In', exact: true }).click();
    await page.waitForURL((url) => !url.pathname.startsWith('/login'));
  }

  it('a purchase through the checkout page sends the order confirmation, with the lines and the total', async () => {
    await signIn(customer.password);
    await page.goto(`${env.baseUrl}/checkout`, { waitUntil: 'networkidle' });
    const shipping = {
      'First name': 'Email',
      'Last name': 'Fan',
      Address: '12 Touchdown Row',
      City: 'Manchester',
      'Postal code': 'M1 1AE',
      Country: 'United Kingdom',
      Phone: '+44 161 496 0000',
    };
    for (const [label, value] of Object.entries(shipping)) await page.getByLabel(label, { exact: true }).fill(value);
    await page.getByRole('button', { name: 'Continue to Payment', exact: true }).click();
    await page.getByRole('button', { name: 'Pay with test PayPal', exact: true }).click();
    await page.waitForURL(/\/order-confirmation$/, { timeout: 30_000 });
    orderId = /Order ID: ([0-9a-f]{24})/.exec((await page.getByTestId('order-id').textContent()) ?? '')?.[1] ?? '';
    expect(orderId).toMatch(/^[0-9a-f]{24}$/);

    const order = await api(env.baseUrl, 'GET', `/api/orders/${orderId}`, { token });
    expect(order.status).toBe(200);
    total = order.body.totalPrice;
    placedAt = order.body.createdAt;

    const mail = await waitForEmail(env, address, { subject: `Your order ${orderId} is confirmed` });
    expect(mail.To.map((t) => t.Address.toLowerCase())).toEqual([address]);
    for (const l of lines) {
      const unit = order.body.orderItems.find((i: { productId: string }) => i.productId === l.product._id).price;
      expect(mail.Text).toContain(
        `- ${l.product.name} (Size ${l.size} · Colour ${l.color}): ${l.quantity} × ${pounds(unit)} = ${pounds(unit * l.quantity)}`,
      );
      expect(mail.HTML).toContain(l.product.name.replace(/&/g, '&amp;').replace(/'/g, '&#x27;'));
    }
    expect(mail.Text).toContain(`Total: ${pounds(total)}`);
    expect(mail.Text).toContain('12 Touchdown Row');
    expect(mail.Text).toContain(`Estimated delivery: ${longDate(placedAt, ESTIMATED_DELIVERY_DAYS)}`);
    expect(mail.Text).toMatch(new RegExp(`https?://[^\\s]+/order/${orderId}`));
    expect(mail.HTML).toContain('lang="en-GB"');
  });

  it("the admin ships it: the customer's order page reads Shipped, and a second email says so", async () => {
    const { email, password } = login(env, 'admin');
    const admin = await api(env.baseUrl, 'POST', '/api/users/login', { json: { email, password } });
    const shipped = await api(env.baseUrl, 'PUT', `/api/admin/orders/${orderId}`, {
      token: admin.body.token,
      json: { status: 'Shipped' },
    });
    expect(shipped.status).toBe(200);

    await page.goto(`${env.baseUrl}/order/${orderId}`, { waitUntil: 'networkidle' });
    const steps = page.getByRole('region', { name: 'Order Status' }).getByRole('listitem');
    await steps.filter({ hasText: 'Shipped' }).waitFor();
    await expect(steps.allTextContents()).resolves.toEqual([
      expect.stringContaining('Processing'),
      expect.stringContaining('Shipped'),
    ]);
    await expectAccessible(page, 'order details (shipped)');

    const mail = await waitForEmail(env, address, { subject: `Your order ${orderId} is on its way` });
    expect(mail.Text).toContain(`your order ${orderId} was shipped`);
    expect(mail.Text).toContain(`/order/${orderId}`);
    // One confirmation and one shipping email: nothing sent twice.
    const subjects = (await emailsTo(env, address)).map((m) => m.Subject).sort();
    expect(subjects.filter((s) => s.includes(orderId))).toEqual([
      `Your order ${orderId} is confirmed`,
      `Your order ${orderId} is on its way`,
    ]);
  });

  it('forgot password: the emailed link sets a new password and signs in; the old password is refused', async () => {
    await context.clearCookies();
    await page.evaluate('window.localStorage.clear()');
    await page.goto(`${env.baseUrl}/login`, { waitUntil: 'networkidle' });
    await page.getByRole('link', { name: 'Forgot password?' }).click();
    await page.waitForURL(/\/forgot-password$/);
    // the page is loaded lazily: until it shows, the address bar has changed but the login form (with its own
    // Email field) is still on screen
    await page.getByRole('heading', { name: 'Forgot your password?' }).waitFor();
    await page.getByLabel('Email', { exact: true }).fill(customer.email);
    await page.getByRole('button', { name: 'Send reset link', exact: true }).click();
    await page.getByRole('heading', { name: 'Check your email' }).waitFor();
    await expectAccessible(page, 'forgot password (sent)');

    const mail = await waitForEmail(env, address, { subject: 'Reset your Gridiron Store password' });
    const link = /https?:\/\/[^\s]+\/reset-password\?token=([A-Za-z0-9_-]+)/.exec(mail.Text);
    expect(link).not.toBeNull();
    // The link names the shop's public URL; the browser opens the same path on the stack it talks to.
    await page.goto(`${env.baseUrl}/reset-password?token=${link![1]}`, { waitUntil: 'networkidle' });
    await page.getByLabel('New password', { exact: true }).fill(newPassword);
    await page.getByLabel('Confirm new password', { exact: true }).fill(newPassword);
    await expectAccessible(page, 'reset password');
    await page.getByRole('button', { name: 'Set new password', exact: true }).click();
    await page.waitForURL((url) => !url.pathname.startsWith('/reset-password'));
    // Signed in: the profile opens without a trip to /login.
    await page.goto(`${env.baseUrl}/profile`, { waitUntil: 'networkidle' });
    await expect(page.getByText(address).first().isVisible()).resolves.toBe(true);
    expect(new URL(page.url()).pathname).toBe('/profile');

    const old = await api(env.baseUrl, 'POST', '/api/users/login', {
      json: { email: customer.email, password: customer.password },
    });
    expect(old.status).toBe(401);
    const fresh = await api(env.baseUrl, 'POST', '/api/users/login', {
      json: { email: customer.email, password: newPassword },
    });
    expect(fresh.status).toBe(200);
    // The link is spent: a second use is refused.
    const again = await api(env.baseUrl, 'POST', '/api/users/reset-password', {
      json: { token: link![1], password: 'Another-Pass9' },
    });
    expect(again.status).toBe(400);
  });

  it('showed no console errors and no page errors', () => {
    expect(problems).toEqual([]);
  });
});
