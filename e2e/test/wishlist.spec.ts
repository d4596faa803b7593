// The wishlist and back-in-stock emails in a real browser (Debian's chromium via playwright-core), through the
// gateway of the e2e stack (issue 37). A guest saves two products with their hearts, signs in, and finds both in the
// account's wishlist, once each (the header counts them), then moves one to the cart in a size and colour. A guest asks
// to be emailed when a sold-out size and colour is back; the admin restocks it; the email's link opens the product
// with that size and colour chosen, and its unsubscribe link answers without signing in. Everything it changes it made
// itself (its own products and customer).
import { randomUUID } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { STOCK_ALERT_MESSAGES } from '@shop/contracts';
import { api, e2eEnv, expectAccessible, login, uniqueEmail, waitForEmail, type E2eEnv } from './support';

jest.setTimeout(120_000);

describe('wishlist and back-in-stock (browser)', () => {
  let env: E2eEnv;
  let browser: Browser;
  let adminToken = '';
  const tag = randomUUID().slice(0, 8);
  const products: Array<{ _id: string; name: string }> = [];
  const problems: string[] = [];

  const call = (method: string, url: string, token?: string, json?: unknown) =>
    api(env.baseUrl, method, url, { token, json });
  const shoot = (page: Page, name: string) =>
    page.screenshot({ path: path.join(env.screenshotDir, `wishlist-${name}.png`), fullPage: true });

  async function newPage(): Promise<Page> {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    page.on('pageerror', (err) => problems.push(`page error: ${err.message}`));
    return page;
  }

  async function makeProduct(name: string, variants: Array<{ size: string; color: string; countInStock: number }>) {
    const image = (await call('GET', '/api/products?limit=1')).body[0].images[0];
    const made = await call('POST', '/api/admin/products', adminToken, {
      name,
      description: 'A product of the wishlist journey.',
      price: 45,
      sku: `E2E-WISH-${randomUUID().slice(0, 8)}`.toUpperCase(),
      category: 'Top Wear',
      gender: 'Men',
      brand: 'Green Bay Packers',
      sizes: ['S', 'M'],
      colors: ['Green'],
      variants,
      material: 'Cotton',
      images: [image],
    });
    expect(made.status).toBe(201);
    return made.body as { _id: string; name: string };
  }

  beforeAll(async () => {
    env = e2eEnv();
    fs.mkdirSync(env.screenshotDir, { recursive: true });
    browser = await chromium.launch({ executablePath: env.chromium.path, args: env.chromium.args, headless: true });
    adminToken = (await call('POST', '/api/users/login', undefined, login(env, 'admin'))).body.token;
    const stock = [
      { size: 'S', color: 'Green', countInStock: 5 },
      { size: 'M', color: 'Green', countInStock: 5 },
    ];
    products.push(await makeProduct(`Wishlist Hoodie ${tag}`, stock));
    products.push(await makeProduct(`Wishlist Beanie ${tag}`, stock));
  });
  afterAll(async () => {
    await browser?.close();
    for (const p of products) await call('DELETE', `/api/admin/products/${p._id}`, adminToken);
  });

  it('a guest saves two products, signs in, and both are in the account’s wishlist once each', async () => {
    const email = uniqueEmail('wishlist');
    const password = 'Wishlist!2345';
    const registered = await call('POST', '/api/users/register', undefined, { name: 'Wish Fan', email, password });
    expect(registered.status).toBe(201);
    const page = await newPage();
    for (const product of products) {
      await page.goto(`${env.baseUrl}/product/${product._id}`, { waitUntil: 'networkidle' });
      const heart = page
        .getByTestId('product-details')
        .getByRole('button', { name: `Save to wishlist: ${product.name}`, exact: true });
      expect(await heart.getAttribute('aria-pressed')).toBe('false');
      await heart.click();
      await page
        .getByTestId('product-details')
        .getByRole('button', { name: `Save to wishlist: ${product.name}`, exact: true, pressed: true })
        .waitFor();
    }
    await page.getByRole('link', { name: 'Wishlist, 2 items' }).waitFor();
    // a card's heart shows the same (You May Also Like, or the collection): pressed for a saved product
    await page.goto(`${env.baseUrl}/wishlist`, { waitUntil: 'networkidle' });
    await page.getByTestId('wishlist-item').nth(1).waitFor();
    await shoot(page, 'guest');

    await page.goto(`${env.baseUrl}/login`, { waitUntil: 'networkidle' });
    await page.getByLabel('Email', { exact: true }).fill(email);
    await page.getByLabel('Password', { exact: true }).fill(password);
    await page.getByRole('button', { name: 'Sign In', exact: true }).click();
    await page.waitForURL((url) => url.pathname === '/');
    await page.getByRole('link', { name: 'Wishlist, 2 items' }).waitFor();
    await page.getByRole('link', { name: 'Wishlist, 2 items' }).click();
    await page.getByTestId('wishlist-item').nth(1).waitFor();
    const names = await page.getByTestId('wishlist-item').getByRole('heading').allTextContents();
    expect(names.sort()).toEqual(products.map((p) => p.name).sort());
    // the account's list on the server: the two products, once each
    const list = await call('GET', '/api/wishlist', registered.body.token);
    expect(list.body.items.map((i: { productId: string }) => i.productId).sort()).toEqual(
      products.map((p) => p._id).sort(),
    );
    await expectAccessible(page, '/wishlist signed in');
    await shoot(page, 'signed-in');

    // move the hoodie to the cart in M, Green: it leaves the wishlist, the cart holds it
    const row = page.getByTestId('wishlist-item').filter({ hasText: products[0].name });
    await row.getByLabel('Size').selectOption('M');
    await row.getByLabel('Colour').selectOption('Green');
    await row.getByRole('button', { name: `Move to cart: ${products[0].name}` }).click();
    await page.getByRole('link', { name: 'Wishlist, 1 item' }).waitFor();
    await page.getByRole('button', { name: 'Cart, 1 item' }).waitFor();
    expect(await page.getByTestId('wishlist-item').count()).toBe(1);
    const cart = await call('GET', '/api/cart', registered.body.token);
    expect(cart.body.products).toEqual([
      expect.objectContaining({ productId: products[0]._id, size: 'M', color: 'Green', quantity: 1 }),
    ]);
    // remove the other: the empty state says what to do
    await page.getByRole('button', { name: `Remove ${products[1].name}` }).click();
    await page.getByTestId('wishlist-empty').waitFor();
    await page.getByRole('link', { name: 'Wishlist, 0 items' }).waitFor();
    await shoot(page, 'empty');
    await page.close();
    expect(problems).toEqual([]);
  });

  it('back in stock: asked as a guest, emailed once on restock, the link opens the size chosen; unsubscribe answers', async () => {
    const soldOut = await makeProduct(`Back In Stock Jersey ${tag}`, [{ size: 'S', color: 'Green', countInStock: 2 }]);
    products.push(soldOut);
    const email = uniqueEmail('back.in.stock').toLowerCase();
    const page = await newPage();
    await page.goto(`${env.baseUrl}/product/${soldOut._id}`, { waitUntil: 'networkidle' });
    const form = page.getByTestId('back-in-stock');
    await form.getByRole('button', { name: "Sold out in your size? Email me when it's back" }).click();
    await form.getByLabel('Size').selectOption('M');
    await form.getByLabel('Colour').selectOption('Green');
    await form.getByLabel('Email').fill(email);
    await form.getByRole('button', { name: 'Email me when it’s back' }).click();
    await form.getByRole('status').filter({ hasText: STOCK_ALERT_MESSAGES.accepted }).waitFor();
    await expectAccessible(page, 'the back-in-stock form');
    await shoot(page, 'back-in-stock-form');

    const current = await call('GET', `/api/admin/products/${soldOut._id}`, adminToken);
    const variants = current.body.variants.map((v: { size: string; color: string; countInStock: number }) => ({
      ...v,
      countInStock: v.size === 'M' ? 3 : v.countInStock,
    }));
    expect((await call('PUT', `/api/admin/products/${soldOut._id}`, adminToken, { variants })).status).toBe(200);
    const mail = await waitForEmail(env, email, { subject: 'Back in stock' });
    const link = mail.Text.match(/https?:\/\/\S+\/product\/[0-9a-f]{24}\?\S+/)![0];
    const url = new URL(link);
    expect(url.pathname).toBe(`/product/${soldOut._id}`);
    expect(Object.fromEntries(url.searchParams)).toEqual({ size: 'M', color: 'Green' });
    await page.goto(`${env.baseUrl}${url.pathname}${url.search}`, { waitUntil: 'networkidle' });
    const sizeM = page
      .getByTestId('product-details')
      .locator('fieldset', { hasText: 'Size' })
      .getByRole('button', { name: 'M', exact: true });
    // the pick is taken after hydration: wait for it
    await page
      .getByTestId('product-details')
      .locator('fieldset', { hasText: 'Size' })
      .getByRole('button', { name: 'M', exact: true, pressed: true })
      .waitFor();
    expect(await sizeM.getAttribute('aria-pressed')).toBe('true');
    await page.getByRole('button', { name: 'Add to cart' }).waitFor();

    const unsubscribe = new URL(mail.Text.match(/https?:\/\/\S+\/back-in-stock\/unsubscribe\?token=\S+/)![0]);
    await page.goto(`${env.baseUrl}${unsubscribe.pathname}${unsubscribe.search}`, { waitUntil: 'networkidle' });
    await page.getByTestId('unsubscribe-result').filter({ hasText: STOCK_ALERT_MESSAGES.unsubscribed }).waitFor();
    await shoot(page, 'unsubscribed');
    expect(await waitForEmail(env, email)).toBeTruthy();
    expect(problems).toEqual([]);
    await page.close();
  });
});
