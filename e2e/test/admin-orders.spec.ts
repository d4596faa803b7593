// The admin's orders at a real shop's size (issue 25), in a real browser (Debian's chromium via playwright-core)
// through the gateway of the e2e stack: a customer buys two units of a product made for this journey; through the
// API the list is paged with X-Total-Count, searched by the buyer's email, and refuses bad input with a 400; the
// export comes as a CSV attachment (gzipped through the gateway when asked). In the browser the admin searches the
// order by the customer's email (the URL keeps the search), opens it, sees its lines (size, colour, SKU), customer,
// address, payment and timeline, goes back, and downloads the CSV of the search. axe-core finds no serious or
// critical violation on either page.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { randomUUID } from 'node:crypto';
import { chromium, type Browser, type Page } from 'playwright-core';
import { ADMIN_ORDERS_CSV_COLUMNS } from '@shop/contracts';
import {
  api,
  e2eEnv,
  expectAccessible,
  expectJsonError,
  login,
  orderCart,
  uniqueEmail,
  variantsFor,
  type E2eEnv,
} from './support';

jest.setTimeout(90_000);

describe('admin orders: search, order page, CSV (browser)', () => {
  let env: E2eEnv;
  let browser: Browser;
  let page: Page;
  let adminToken: string;
  const problems: string[] = [];
  const tag = randomUUID().slice(0, 8);
  const customer = { name: `Orders Journey Buyer ${tag}`, email: uniqueEmail('orders.buyer'), password: 'Buyer!2345' };
  const sku = `E2E-AO-${tag}`.toUpperCase();
  let order: { _id: string; createdAt: string; totalPrice: number; user: { email: string } };

  const call = (method: string, url: string, token?: string, json?: unknown) =>
    api(env.baseUrl, method, url, { token, json });

  beforeAll(async () => {
    env = e2eEnv();
    fs.mkdirSync(env.screenshotDir, { recursive: true });
    adminToken = (await call('POST', '/api/users/login', undefined, login(env, 'admin'))).body.token;
    expect(adminToken).toBeTruthy();
    const seeded = (await call('GET', '/api/products')).body as Array<{ images: Array<{ url: string }> }>;
    const image = seeded.flatMap((p) => p.images).find((i) => i.url.startsWith('/uploads/seed/'));
    const made = await call('POST', '/api/admin/products', adminToken, {
      name: `Orders Journey Jersey ${tag}`,
      description: 'A jersey the admin orders journey sells.',
      price: 42.5,
      variants: variantsFor(['M'], ['Green'], 10),
      sku,
      category: 'Top Wear',
      gender: 'Men',
      brand: 'Green Bay Packers',
      sizes: ['M'],
      colors: ['Green'],
      material: 'Polyester',
      collections: 'Game Day',
      images: [image],
    });
    expect(made.status).toBe(201);
    const token = (await call('POST', '/api/users/register', undefined, customer)).body.token as string;
    const cart = await call('POST', '/api/cart', token, {
      productId: made.body._id,
      quantity: 2,
      size: 'M',
      color: 'Green',
    });
    expect(cart.status).toBeLessThan(300);
    order = await orderCart(env, token, cart.body);

    browser = await chromium.launch({ executablePath: env.chromium.path, args: env.chromium.args, headless: true });
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, acceptDownloads: true });
    page = await context.newPage();
    page.on('console', (m) => {
      if (m.type() === 'error') problems.push(`console.error: ${m.text()}`);
    });
    page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  });

  afterAll(async () => {
    await browser?.close();
  });

  it('pages with X-Total-Count, finds the order by its buyer’s email in any case, and refuses bad input', async () => {
    const first = await call('GET', '/api/admin/orders?page=1&limit=2', adminToken);
    expect(first.status).toBe(200);
    // this suite's order at least; other suites' orders too when they ran first
    const total = Number(first.headers.get('x-total-count'));
    expect(total).toBeGreaterThanOrEqual(1);
    expect(first.body).toHaveLength(Math.min(2, total));

    const found = await call('GET', `/api/admin/orders?q=${encodeURIComponent(customer.email)}`, adminToken);
    expect(found.status).toBe(200);
    expect(found.headers.get('x-total-count')).toBe('1');
    expect(found.body.map((o: { _id: string }) => o._id)).toEqual([order._id]);
    const one = await call('GET', `/api/admin/orders/${order._id}`, adminToken);
    expect(one.body).toMatchObject({ _id: order._id, statusHistory: [{ status: 'Processing' }] });

    for (const [query, message] of [
      ['page=0', 'page must be a whole number from 1 to 10000'],
      ['limit=10000', 'limit must be a whole number from 1 to 100'],
      ['from=last-week', 'from must be a date (YYYY-MM-DD) or an ISO 8601 time'],
      [
        'sort=secret',
        'Unknown sort field: sort by one of createdAt, totalPrice, status, customer (a leading - for descending)',
      ],
    ]) {
      const res = await call('GET', `/api/admin/orders?${query}`, adminToken);
      expectJsonError(res, 400);
      expect(res.body.message).toBe(message);
    }
    expectJsonError(await call('GET', '/api/admin/orders/not-an-id', adminToken), 400);
  });

  it('streams the export through the gateway as a gzipped CSV attachment', async () => {
    const res = await fetch(`${env.baseUrl}/api/admin/orders/export.csv?q=${encodeURIComponent(customer.email)}`, {
      headers: { Authorization: `Bearer ${adminToken}`, 'Accept-Encoding': 'gzip' },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(res.headers.get('content-encoding')).toBe('gzip');
    expect(res.headers.get('content-disposition')).toMatch(/^attachment; filename="orders-\d{4}-\d{2}-\d{2}\.csv"$/);
    const lines = (await res.text()).replace(/^\uFEFF/, '').split('\r\n');
    expect(lines[0]).toBe(ADMIN_ORDERS_CSV_COLUMNS.join(','));
    expect(lines).toHaveLength(3); // the header, the order's one line, and the final line end
    expect(lines[1]).toContain(`${order._id},`);
    expect(lines[1]).toContain(`,${sku}-M-GREEN,M,Green,2,42.50,85.00,`);
  });

  it('the admin searches the order by the customer’s email, opens it, sees its lines and timeline, and downloads the CSV', async () => {
    await page.goto(`${env.baseUrl}/login?redirect=admin%2Forders`, { waitUntil: 'networkidle' });
    const admin = login(env, 'admin');
    await page.getByLabel('Email', { exact: true }).fill(admin.email);
    await page.getByLabel('Password', { exact: true }).fill(admin.password);
    await page.getByRole('button', { name: 'Sign In', exact: true }).click();
    await page.getByRole('heading', { name: 'Order Management', exact: true }).waitFor();

    const search = page.getByLabel('Search orders', { exact: true });
    await search.fill(customer.email.toUpperCase());
    await search.press('Enter');
    await page.waitForURL(/\/admin\/orders\?q=/);
    await page.getByTestId('order-range').filter({ hasText: '1–1 of 1' }).waitFor();
    const rows = page.getByTestId('order-row');
    await expect(rows.count()).resolves.toBe(1);
    await expect(rows.first().textContent()).resolves.toContain(customer.email.toLowerCase());
    await expectAccessible(page, 'admin orders, searched');
    await page.screenshot({ path: path.join(env.screenshotDir, 'admin-orders-search.png'), fullPage: true });

    // a reload keeps the view: the search is in the URL
    await page.reload({ waitUntil: 'networkidle' });
    await expect(search.inputValue()).resolves.toBe(customer.email.toUpperCase());
    await page.getByTestId('order-range').filter({ hasText: '1–1 of 1' }).waitFor();

    await page.getByRole('link', { name: `#${order._id}`, exact: true }).click();
    await page.waitForURL(new RegExp(`/admin/orders/${order._id}$`));
    await page.getByRole('heading', { name: `Order #${order._id}`, exact: true }).waitFor();
    const items = page.getByTestId('order-items');
    // the lines' table (on a phone, cards instead: hidden at this width)
    await items.getByRole('table').getByText(`SKU: ${sku}-M-GREEN`, { exact: true }).waitFor();
    await expect(items.textContent()).resolves.toContain('Size: M | Color: Green');
    await expect(items.textContent()).resolves.toContain('£85.00');
    await expect(page.getByRole('region', { name: 'Customer' }).textContent()).resolves.toContain(customer.name);
    await expect(page.getByTestId('payment').textContent()).resolves.toMatch(/PayPal order\S+/);
    const timeline = page.getByTestId('order-timeline');
    await timeline.getByText('Order placed: Processing', { exact: true }).waitFor();
    await timeline.getByText(/^Payment captured: £85\.00$/).waitFor();
    await expectAccessible(page, 'admin order page');
    await page.screenshot({ path: path.join(env.screenshotDir, 'admin-order-page.png'), fullPage: true });

    await page.getByRole('link', { name: '← All orders', exact: true }).click();
    await page.getByRole('heading', { name: 'Order Management', exact: true }).waitFor();
    await page.goBack();
    await page.goBack(); // back on the searched list, as it was
    await page.waitForURL(/\/admin\/orders\?q=/);
    await page.getByTestId('order-range').filter({ hasText: '1–1 of 1' }).waitFor();

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Export CSV', exact: true }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^orders-\d{4}-\d{2}-\d{2}\.csv$/);
    const file = await download.path();
    const csv = fs
      .readFileSync(file!, 'utf8')
      .replace(/^\uFEFF/, '')
      .split('\r\n');
    expect(csv[0]).toBe(ADMIN_ORDERS_CSV_COLUMNS.join(','));
    expect(csv.slice(1, -1)).toHaveLength(1);
    expect(csv[1].startsWith(`${order._id},`)).toBe(true);
    await page.getByText(/^Downloaded orders-/).waitFor();
    expect(problems).toEqual([]);
  });
});
