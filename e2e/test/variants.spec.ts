// Stock per size and colour in a real browser (Debian's chromium via playwright-core), through the gateway of the e2e
// stack (issue 22): a shopper sees a sold-out size as unavailable (to screen readers too) and cannot add it, and is
// told "Only N left" on a variant with few units; the admin sets that variant's stock from 0 to 3 in the product
// form's grid and the product page offers it at once; after a purchase of it, the admin's orders list shows the
// line's size, colour and variant SKU. Everything it changes it made itself (its own product, customer and order).
import { randomUUID } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { api, e2eEnv, expectAccessible, login, orderCart, SHIPPING_ADDRESS, uniqueEmail, type E2eEnv } from './support';

jest.setTimeout(90_000);

describe('stock per size and colour (browser)', () => {
  let env: E2eEnv;
  let browser: Browser;
  let shopper: Page;
  let admin: Page;
  let adminToken = '';
  let productId = '';
  const tag = randomUUID().slice(0, 8);
  const name = `Variant Journey Jersey ${tag}`;
  const sku = `E2E-VAR-${tag}`.toUpperCase();
  const problems: string[] = [];

  const call = (method: string, url: string, token?: string, json?: unknown) =>
    api(env.baseUrl, method, url, { token, json });

  const sizeButton = (page: Page, label: string) =>
    page.getByTestId('product-details').locator('fieldset', { hasText: 'Size' }).getByRole('button', {
      name: label,
      exact: true,
    });

  async function openProduct(page: Page) {
    await page.goto(`${env.baseUrl}/product/${productId}`, { waitUntil: 'networkidle' });
    await page.getByTestId('product-details').waitFor();
  }

  beforeAll(async () => {
    env = e2eEnv();
    fs.mkdirSync(env.screenshotDir, { recursive: true });
    adminToken = (await call('POST', '/api/users/login', undefined, login(env, 'admin'))).body.token;
    const seeded = (await call('GET', '/api/products')).body as Array<{ images: Array<{ url: string }> }>;
    const image = seeded.flatMap((p) => p.images).find((i) => i.url.startsWith('/uploads/seed/'));
    const made = await call('POST', '/api/admin/products', adminToken, {
      name,
      description: 'A jersey whose Medium is sold out.',
      price: 60,
      sku,
      category: 'Top Wear',
      gender: 'Men',
      brand: 'Green Bay Packers',
      sizes: ['S', 'M'],
      colors: ['Green'],
      variants: [
        { size: 'S', color: 'Green', countInStock: 4 },
        { size: 'M', color: 'Green', countInStock: 0 },
      ],
      material: 'Polyester',
      collections: 'Game Day',
      images: [image],
    });
    expect(made.status).toBe(201);
    productId = made.body._id;
    expect(made.body.countInStock).toBe(4);

    browser = await chromium.launch({ executablePath: env.chromium.path, args: env.chromium.args, headless: true });
    shopper = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
    admin = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
    for (const page of [shopper, admin]) {
      page.on('console', (m) => {
        if (m.type() === 'error') problems.push(`console.error: ${m.text()}`);
      });
      page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
    }
  });

  afterAll(async () => {
    await browser?.close();
  });

  it('shows a sold-out size as unavailable, which cannot be added; a variant with few units says so', async () => {
    await openProduct(shopper);
    const details = shopper.getByTestId('product-details');
    await details.locator('fieldset', { hasText: 'Color' }).getByRole('button', { name: 'Green', exact: true }).click();
    const soldOut = sizeButton(shopper, 'M, sold out');
    await soldOut.waitFor();
    await expect(soldOut.getAttribute('aria-disabled')).resolves.toBe('true');
    // a shopper can still click it (force: Playwright itself waits for an aria-disabled button to become enabled)
    await soldOut.click({ force: true });
    await expect(soldOut.getAttribute('aria-pressed')).resolves.not.toBe('true');
    await shopper.getByRole('button', { name: 'Add to cart', exact: true }).click();
    await shopper.getByText('Please select a size and color before adding to cart.').waitFor();

    await sizeButton(shopper, 'S').click();
    await details.getByText('Only 4 left in stock').waitFor();
    await expectAccessible(shopper, 'product with a sold-out size');
    await shopper.screenshot({ path: path.join(env.screenshotDir, 'variants-sold-out-size.png') });

    // The server refuses it too: the shop's own client cannot be talked into adding the sold-out variant.
    const refused = await call('POST', '/api/cart', undefined, {
      productId,
      quantity: 1,
      size: 'M',
      color: 'Green',
      guestId: `guest_var${tag}`,
    });
    expect(refused.status).toBe(409);
    expect(refused.body.message).toBe('This item is out of stock');
  });

  it("the admin sets the sold-out variant's stock to 3 in the grid, and the product page offers it at once", async () => {
    await admin.goto(`${env.baseUrl}/login`, { waitUntil: 'networkidle' });
    const who = login(env, 'admin');
    await admin.getByLabel('Email', { exact: true }).fill(who.email);
    await admin.getByLabel('Password', { exact: true }).fill(who.password);
    await admin.getByRole('button', { name: 'Sign In', exact: true }).click();
    await admin.waitForURL((url) => !url.pathname.startsWith('/login'));
    await admin.goto(`${env.baseUrl}/admin/products/${productId}/edit`, { waitUntil: 'networkidle' });
    const form = admin.getByTestId('product-form');
    const cell = form.getByLabel('Stock for M / Green', { exact: true });
    await expect(cell.inputValue()).resolves.toBe('0');
    await expect(form.getByLabel('SKU for S / Green', { exact: true }).inputValue()).resolves.toBe(`${sku}-S-GREEN`);
    await cell.fill('3');
    await expectAccessible(admin, 'product form with the stock grid');
    await admin.screenshot({ path: path.join(env.screenshotDir, 'variants-admin-grid.png'), fullPage: true });
    await form.getByRole('button', { name: 'Update Product', exact: true }).click();
    await admin.waitForURL(/\/admin\/products$/);

    const stored = (await call('GET', `/api/admin/products/${productId}`, adminToken)).body;
    expect(stored.countInStock).toBe(7);
    expect(stored.variants).toEqual(
      expect.arrayContaining([expect.objectContaining({ size: 'M', color: 'Green', countInStock: 3 })]),
    );

    await openProduct(shopper);
    await shopper
      .getByTestId('product-details')
      .locator('fieldset', { hasText: 'Color' })
      .getByRole('button', { name: 'Green', exact: true })
      .click();
    await sizeButton(shopper, 'M').click();
    await shopper.getByTestId('product-details').getByText('Only 3 left in stock').waitFor();
    await shopper.getByRole('button', { name: 'Add to cart', exact: true }).click();
    await shopper.getByText('Product added to cart!', { exact: true }).waitFor();
  });

  it("after a purchase of the variant, the admin's orders list shows its size, colour and SKU", async () => {
    const buyer = { name: `Variant Buyer ${tag}`, email: uniqueEmail('variant.buyer'), password: 'Buyer!2345' };
    const token = (await call('POST', '/api/users/register', undefined, buyer)).body.token as string;
    const cart = await call('POST', '/api/cart', token, { productId, quantity: 1, size: 'M', color: 'Green' });
    expect(cart.status).toBeLessThan(300);
    expect(cart.body.products[0]).toMatchObject({ size: 'M', color: 'Green', sku: `${sku}-M-GREEN` });
    const order = { body: await orderCart(env, token, cart.body, { ...SHIPPING_ADDRESS, firstName: 'Vera' }) };
    expect(order.body.orderItems[0]).toMatchObject({ size: 'M', color: 'Green', sku: `${sku}-M-GREEN` });

    await admin.goto(`${env.baseUrl}/admin/orders`, { waitUntil: 'networkidle' });
    const items = admin.getByRole('list', { name: `Items of order #${order.body._id}`, exact: true });
    // the order's items fold under its summary ("1 item", which names the order to screen readers)
    await admin.locator('summary', { hasText: `of order #${order.body._id}` }).click();
    await items.waitFor();
    await items.getByText(`SKU: ${sku}-M-GREEN`, { exact: true }).waitFor();
    await items.getByText('Size: M | Color: Green', { exact: true }).waitFor();
    await admin.screenshot({ path: path.join(env.screenshotDir, 'variants-admin-order.png'), fullPage: true });
    expect(problems).toEqual([]);
  });
});
