// The storefront in a real browser (Debian's chromium via playwright-core), through the gateway of the e2e stack:
// a guest browses, filters and sorts (a reload keeps them), is told to pick a size and colour, adds to cart, is
// sent to login from checkout, registers, the guest cart is merged once, checks out, pays in fake mode, sees the
// confirmation, the order in My Orders and its details; the cart is empty afterwards; logout gives a new guest id;
// the newsletter subscribes. axe-core finds no serious or critical violation on home, collection, product, the open
// cart drawer, checkout (address and payment steps) and confirmation. Screenshots of each screen at desktop and
// phone widths go to E2E_SCREENSHOT_DIR.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import type { ProductJson } from '@shop/contracts';
import { api, e2eEnv, expectAccessible, uniqueEmail, type E2eEnv } from './support';

jest.setTimeout(90_000);

const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };

describe('storefront journey (browser)', () => {
  let env: E2eEnv;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  const problems: string[] = [];
  const email = uniqueEmail('storefront');
  let addedQuantity = 0;
  let guestIdBefore = '';

  /** Desktop and phone screenshots of what the page shows now (lazy images scrolled into view first). */
  async function shoot(name: string, { fullPage = true } = {}) {
    for (const [label, size] of [
      ['desktop', DESKTOP],
      ['phone', PHONE],
    ] as const) {
      await page.setViewportSize(size);
      if (fullPage) {
        const height = Number(await page.evaluate('document.body.scrollHeight'));
        for (let y = 0; y < height; y += 500) await page.evaluate(`window.scrollTo(0, ${y})`);
        await page.evaluate('window.scrollTo(0, 0)');
      }
      await page.waitForTimeout(300);
      const file = path.join(env.screenshotDir, `storefront-${name}-${label}.png`);
      await page.screenshot({ path: file, fullPage });
      expect(fs.statSync(file).size).toBeGreaterThan(5000);
    }
    await page.setViewportSize(DESKTOP);
  }

  const storage = (key: string) =>
    page.evaluate(`window.localStorage.getItem(${JSON.stringify(key)})`) as Promise<string | null>;
  const badge = () => page.getByTestId('cart-badge');

  beforeAll(async () => {
    env = e2eEnv();
    fs.mkdirSync(env.screenshotDir, { recursive: true });
    browser = await chromium.launch({ executablePath: env.chromium.path, args: env.chromium.args, headless: true });
    context = await browser.newContext({ viewport: DESKTOP });
    page = await context.newPage();
    page.on('console', (m) => {
      if (m.type() === 'error') problems.push(`console.error: ${m.text()}`);
    });
    page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  });

  afterAll(async () => {
    await browser?.close();
  });

  it('home: hero, collections, new arrivals, best seller, top wears for women', async () => {
    await page.goto(env.baseUrl, { waitUntil: 'networkidle' });
    await expect(page.title()).resolves.toContain('Gridiron Store');
    await page.getByRole('link', { name: 'Shop Now', exact: true }).first().waitFor();
    await page.getByTestId('new-arrivals').getByRole('link').first().waitFor();
    await page.getByRole('heading', { name: 'Best Seller', exact: true }).waitFor();
    await page.getByTestId('product-details').waitFor();
    await expect(page.getByRole('heading', { name: 'Top Wears for Women', exact: true }).isVisible()).resolves.toBe(
      true,
    );
    const left = page.getByRole('button', { name: 'Scroll new arrivals left', exact: true });
    await expect(left.isDisabled()).resolves.toBe(true);
    guestIdBefore = (await storage('guestId')) ?? '';
    expect(guestIdBefore).toMatch(/^guest_\d{13}$/);
    await expectAccessible(page, 'home');
    await shoot('home');
  });

  it('collections: filters and sort live in the URL, and a reload keeps them', async () => {
    await page
      .getByRole('navigation', { name: 'Main', exact: true })
      .getByRole('link', { name: 'Men', exact: true })
      .click();
    await page.waitForURL(/\/collections\/all\?gender=Men$/);
    const sidebar = page.locator('aside[aria-label="Filters"]');
    // the grid shows the men's list until the list for the new query arrives: wait for that one, then its grid
    // (a URL change is no navigation, so the load state says nothing about it)
    const menInSizeMByPrice = () =>
      page.waitForResponse((res) => {
        const url = new URL(res.url());
        const query = Object.fromEntries(url.searchParams);
        return (
          url.pathname === '/api/products' &&
          query.gender === 'Men' &&
          query.size === 'M' &&
          query.sortBy === 'priceAsc'
        );
      });
    const grid = page.locator('[data-testid="product-grid"]:not([aria-busy])');
    let listed = menInSizeMByPrice();
    await sidebar.getByLabel('M', { exact: true }).check();
    await page.getByLabel('Sort by').selectOption('priceAsc');
    await listed;
    await grid.waitFor();
    expect(Object.fromEntries(new URL(page.url()).searchParams)).toEqual({
      gender: 'Men',
      size: 'M',
      sortBy: 'priceAsc',
    });
    const prices = async () =>
      (await grid.getByTestId('product-card').allTextContents()).map((t) => Number(/£([\d.]+)\s*$/.exec(t)?.[1]));
    const sorted = await prices();
    expect(sorted.length).toBeGreaterThan(1);
    expect([...sorted].sort((a, b) => a - b)).toEqual(sorted);

    listed = menInSizeMByPrice();
    await page.reload();
    await listed;
    await grid.waitFor();
    await expect(
      page.locator('aside[aria-label="Filters"]').getByLabel('M', { exact: true }).isChecked(),
    ).resolves.toBe(true);
    await expect(page.getByLabel('Sort by').inputValue()).resolves.toBe('priceAsc');
    await expect(prices()).resolves.toEqual(sorted);
    await expectAccessible(page, 'collection');
    await shoot('collection');
  });

  it('product: asks for a size and colour, then adds to the cart (badge and drawer)', async () => {
    await page.getByTestId('product-card').first().click();
    await page.waitForURL(/\/product\/[0-9a-f]{24}$/);
    await page.getByTestId('product-details').waitFor();
    const jsonLd = await page.locator('script[type="application/ld+json"]').textContent();
    expect(JSON.parse(jsonLd ?? '{}')).toMatchObject({ '@type': 'Product', offers: { priceCurrency: 'GBP' } });
    expect(JSON.parse(jsonLd ?? '{}')).not.toHaveProperty('aggregateRating'); // the seed's ratings are invented

    await page.getByRole('button', { name: 'Add to cart', exact: true }).click();
    await page.getByText('Please select a size and color before adding to cart.').waitFor();

    // The seed's stock is uneven per size and colour, some variants sold out (issue 22): pick one that has the two
    // units this journey buys, in M when one has them.
    const productId = /\/product\/([0-9a-f]{24})$/.exec(page.url())?.[1];
    const product = (await api(env.baseUrl, 'GET', `/api/products/${productId}`)).body as ProductJson;
    const buyable = product.variants.filter((v) => v.countInStock >= 2);
    const pick = buyable.find((v) => v.size === 'M') ?? buyable[0];
    if (!pick?.size || !pick.color) throw new Error(`${product.name} has no size and colour with 2 in stock`);
    const details = page.getByTestId('product-details');
    await details
      .locator('fieldset', { hasText: 'Color' })
      .getByRole('button', { name: pick.color, exact: true })
      .click();
    await details
      .locator('fieldset', { hasText: 'Size' })
      .getByRole('button', { name: pick.size, exact: true })
      .click();
    await page.getByRole('button', { name: 'Increase quantity', exact: true }).click();
    addedQuantity = 2;
    await page.getByRole('button', { name: 'Add to cart', exact: true }).click();
    await page.getByText('Product added to cart!', { exact: true }).waitFor();
    await expect(badge().textContent()).resolves.toBe(String(addedQuantity));
    await expectAccessible(page, 'product');
    await shoot('product');

    await page.getByTestId('cart-button').click();
    const drawer = page.getByTestId('cart-drawer');
    await drawer.getByTestId('cart-line').first().waitFor();
    await expect(
      drawer.getByText('Shipping, taxes, and discount codes calculated at checkout.').isVisible(),
    ).resolves.toBe(true);
    await expectAccessible(page, 'cart drawer (open)');
    await shoot('cart-drawer', { fullPage: false });
  });

  it('checkout as a guest goes to login; registering merges the guest cart once and returns to checkout', async () => {
    await page.getByTestId('cart-drawer').getByRole('button', { name: 'Checkout', exact: true }).click();
    await page.waitForURL(/\/login\?redirect=checkout$/);
    await page.getByRole('link', { name: 'Register', exact: true }).click();
    await page.waitForURL(/\/register\?redirect=checkout$/);
    await page.getByLabel('Name', { exact: true }).fill('Journey Fan');
    await page.getByLabel('Email', { exact: true }).fill(email);
    await page.getByLabel('Password', { exact: true }).fill('Touchdown!2025');
    await page.getByRole('button', { name: 'Sign Up', exact: true }).click();
    await page.waitForURL(/\/checkout$/);
    await expect(badge().textContent()).resolves.toBe(String(addedQuantity));

    const token = (await storage('userToken')) ?? '';
    const cart = await api(env.baseUrl, 'GET', '/api/cart', { token });
    expect(cart.status).toBe(200);
    expect(cart.body.products.reduce((n: number, l: { quantity: number }) => n + l.quantity, 0)).toBe(addedQuantity);
  });

  it('checkout: seven fields, the server total, a fake-mode payment, then the confirmation', async () => {
    // The URL moves before the checkout page's lazy chunk has replaced the register form (whose Email field holds
    // the address as typed): read the field once the checkout form is there.
    await page.getByRole('button', { name: 'Continue to Payment', exact: true }).waitFor();
    await expect(page.getByLabel('Email', { exact: true }).inputValue()).resolves.toBe(email.toLowerCase());
    await expect(page.getByLabel('Email', { exact: true }).getAttribute('readonly')).resolves.not.toBeNull();
    const address = {
      'First name': 'Jamie',
      'Last name': 'Fan',
      Address: '1 Stadium Way',
      City: 'London',
      'Postal code': 'N17 0BX',
      Country: 'United Kingdom',
      Phone: '+44 20 7946 0001',
    };
    for (const [label, value] of Object.entries(address)) await page.getByLabel(label, { exact: true }).fill(value);
    await expectAccessible(page, 'checkout (address)');
    await page.getByRole('button', { name: 'Continue to Payment', exact: true }).click();
    await page.getByTestId('payment-step').waitFor();
    await page.getByRole('button', { name: 'Pay with test PayPal', exact: true }).waitFor();
    await expectAccessible(page, 'checkout (payment)');
    await shoot('checkout');

    await page.getByRole('button', { name: 'Pay with test PayPal', exact: true }).click();
    await page.waitForURL(/\/order-confirmation$/, { timeout: 30_000 });
    await page.getByText('Thank You for Your Order!').waitFor();
    const orderId = /Order ID: ([0-9a-f]{24})/.exec((await page.getByTestId('order-id').textContent()) ?? '')?.[1];
    expect(orderId).toBeDefined();
    await expect(badge().count()).resolves.toBe(0);
    await expectAccessible(page, 'confirmation');
    await shoot('confirmation');

    await page.goto(`${env.baseUrl}/my-orders`, { waitUntil: 'networkidle' });
    await page.getByTestId('order-row').first().click();
    await page.waitForURL(new RegExp(`/order/${orderId}$`));
    await page.getByText('Approved').waitFor();
    await expect(page.getByText(`Order ID: #${orderId}`).isVisible()).resolves.toBe(true);
  });

  it('profile: logout clears the session and the cart and gives a new guest id', async () => {
    await page.goto(`${env.baseUrl}/profile`, { waitUntil: 'networkidle' });
    await page.getByText('Journey Fan').first().waitFor();
    await page.getByTestId('order-row').first().waitFor();
    await page.getByRole('button', { name: 'Logout', exact: true }).click();
    await page.waitForURL(/\/login$/);
    await expect(storage('userToken')).resolves.toBeNull();
    await expect(storage('userInfo')).resolves.toBeNull();
    const guestId = await storage('guestId');
    expect(guestId).toMatch(/^guest_\d{13}$/);
    expect(guestId).not.toBe(guestIdBefore);
    await expect(badge().count()).resolves.toBe(0);
  });

  it('the footer newsletter subscribes', async () => {
    await page.goto(env.baseUrl, { waitUntil: 'networkidle' });
    await page.getByLabel('Email address').fill(uniqueEmail('newsletter'));
    await page.getByRole('button', { name: 'Subscribe', exact: true }).click();
    await page.getByText('Successfully subscribed to the newsletter').waitFor();
  });

  it('showed no console errors and no page errors', () => {
    expect(problems).toEqual([]);
  });
});
