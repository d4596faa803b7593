// Reviews that are true (issue 27), in a real browser through the gateway of the e2e stack: a customer whose order of
// a product was delivered (the admin marks it Delivered; catalog hears it from orders' event) reviews it on the
// product page — a rating from the radio group and a comment, after the form's own errors — and the page shows the
// review and the new average; an admin hides it from the same page, and a guest no longer sees it, nor counts it.
// The journey makes its own product, customers and orders, so journeys running beside it are not disturbed.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { randomUUID } from 'node:crypto';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { REVIEW_MESSAGES } from '@shop/contracts';
import { api, e2eEnv, expectAccessible, login, orderCart, uniqueEmail, variantsFor, type E2eEnv } from './support';

jest.setTimeout(90_000);

describe('product reviews (browser)', () => {
  let env: E2eEnv;
  let browser: Browser;
  let adminToken = '';
  let productId = '';
  const tag = randomUUID().slice(0, 8);
  const rita = { name: 'Rita Reviewer', email: uniqueEmail('reviews.rita'), password: 'Reviews!2345', token: '' };
  const sam = { name: 'Sam Second', email: uniqueEmail('reviews.sam'), password: 'Reviews!2345', token: '' };
  const comment = `Warm, true to size, and the crest survived thirty washes (${tag}).`;
  const problems: string[] = [];

  const call = (method: string, url: string, token?: string, json?: unknown) =>
    api(env.baseUrl, method, url, { token, json });

  /** A customer registers, buys the product, and the admin marks the order Delivered; resolves once they may review. */
  async function deliveredTo(who: typeof rita) {
    const registered = await call('POST', '/api/users/register', undefined, who);
    expect(registered.status).toBe(201);
    who.token = registered.body.token;
    const cart = await call('POST', '/api/cart', who.token, { productId, quantity: 1, size: 'M', color: 'Navy' });
    expect(cart.status).toBeLessThan(300);
    const order = await orderCart(env, who.token, cart.body);
    // not before delivery
    expect(
      (await call('POST', `/api/products/${productId}/reviews`, who.token, { rating: 5, comment: 'x' })).status,
    ).toBe(403);
    const delivered = await call('PUT', `/api/admin/orders/${order._id}`, adminToken, { status: 'Delivered' });
    expect(delivered.status).toBe(200);
    const deadline = Date.now() + 15_000;
    while (!(await call('GET', `/api/reviews/mine?productId=${productId}`, who.token)).body?.canReview) {
      if (Date.now() > deadline) throw new Error(`${who.name} could not review within 15 s of the delivery`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }

  async function newPage(context: BrowserContext): Promise<Page> {
    const page = await context.newPage();
    page.on('console', (m) => {
      if (m.type() === 'error') problems.push(`console.error: ${m.text()}`);
    });
    page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
    return page;
  }

  async function signIn(page: Page, who: { email: string; password: string }) {
    await page.goto(`${env.baseUrl}/login`, { waitUntil: 'networkidle' });
    await page.getByLabel('Email', { exact: true }).fill(who.email);
    await page.getByLabel('Password', { exact: true }).fill(who.password);
    await page.getByRole('button', { name: 'Sign In', exact: true }).click();
    await page.waitForURL(/\/$|\/admin$/);
  }

  const reviewsOf = (page: Page) => page.getByTestId('product-reviews');

  beforeAll(async () => {
    env = e2eEnv();
    fs.mkdirSync(env.screenshotDir, { recursive: true });
    adminToken = (await call('POST', '/api/users/login', undefined, login(env, 'admin'))).body.token;
    expect(adminToken).toBeTruthy();
    const seeded = (await call('GET', '/api/products')).body as Array<{ images: Array<{ url: string }> }>;
    const image = seeded.flatMap((p) => p.images).find((i) => i.url.startsWith('/uploads/seed/'));
    expect(image).toBeDefined();
    const made = await call('POST', '/api/admin/products', adminToken, {
      name: `Reviews Journey Hoodie ${tag}`,
      description: 'A hoodie the reviews journey buys and reviews.',
      price: 55,
      variants: variantsFor(['M'], ['Navy'], 20),
      sku: `E2E-REV-${tag}`,
      category: 'Top Wear',
      gender: 'Men',
      brand: 'New England Patriots',
      sizes: ['M'],
      colors: ['Navy'],
      material: 'Fleece',
      collections: 'Winter Warmers',
      images: [image],
    });
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({ rating: 0, numReviews: 0 });
    productId = made.body._id;
    await Promise.all([deliveredTo(rita), deliveredTo(sam)]);
    // Sam reviews through the API first: the page then has an average to move
    expect(
      (await call('POST', `/api/products/${productId}/reviews`, sam.token, { rating: 2, comment: 'Runs small.' }))
        .status,
    ).toBe(201);
    browser = await chromium.launch({ executablePath: env.chromium.path, args: env.chromium.args, headless: true });
  });

  afterAll(async () => {
    await browser?.close();
  });

  it('a customer with a delivered order reviews the product; the page shows the review and the new average', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    try {
      const page = await newPage(context);
      await signIn(page, rita);
      await page.goto(`${env.baseUrl}/product/${productId}`, { waitUntil: 'networkidle' });
      const section = reviewsOf(page);
      await section.getByText('2 out of 5, 1 review', { exact: true }).waitFor();
      await section.getByText('Runs small.', { exact: true }).waitFor();

      const form = section.getByRole('form', { name: 'Write a review' });
      await form.getByRole('button', { name: 'Post review' }).click();
      await form.getByRole('alert').filter({ hasText: REVIEW_MESSAGES.chooseRating }).waitFor();
      await form.getByRole('radio', { name: '5 stars' }).check();
      await expect(form.getByRole('alert').count()).resolves.toBe(0); // cleared by the choice
      await form.getByLabel('Your review').fill(`  ${comment}  `);
      await expectAccessible(page, 'the review form');
      await form.getByRole('button', { name: 'Post review' }).click();

      await section.getByText('3.5 out of 5, 2 reviews', { exact: true }).waitFor();
      await section.getByText(comment, { exact: true }).waitFor();
      await expect(form.count()).resolves.toBe(0);
      // newest first: Rita's above Sam's
      await expect(section.getByTestId('review').first().textContent()).resolves.toContain(comment);
      await expect(section.getByTestId('review').first().textContent()).resolves.toContain('Rita R.');
      await page.screenshot({ path: path.join(env.screenshotDir, 'reviews-posted-desktop.png'), fullPage: true });
      // once per product and customer
      expect(
        (await call('POST', `/api/products/${productId}/reviews`, rita.token, { rating: 1, comment: 'again' })).status,
      ).toBe(409);
    } finally {
      await context.close();
    }
  });

  it('an admin hides the review from the product page; it is gone for shoppers, and from the average', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    try {
      const page = await newPage(context);
      await signIn(page, login(env, 'admin'));
      await page.goto(`${env.baseUrl}/product/${productId}`, { waitUntil: 'networkidle' });
      const section = reviewsOf(page);
      await section.getByText(comment, { exact: true }).waitFor();
      await section.getByRole('button', { name: 'Hide the review by Rita R.' }).click();
      await section.getByRole('button', { name: 'Unhide the review by Rita R.' }).waitFor();
      await section.getByText('2 out of 5, 1 review', { exact: true }).waitFor();
      await expectAccessible(page, 'the reviews as an admin sees them');

      const guest = await newPage(await browser.newContext({ viewport: { width: 390, height: 844 } }));
      await guest.goto(`${env.baseUrl}/product/${productId}`, { waitUntil: 'networkidle' });
      await reviewsOf(guest).getByText('2 out of 5, 1 review', { exact: true }).waitFor();
      await reviewsOf(guest).getByText('Runs small.', { exact: true }).waitFor();
      await expect(reviewsOf(guest).getByText(comment).count()).resolves.toBe(0);
      await guest.screenshot({ path: path.join(env.screenshotDir, 'reviews-guest-phone.png'), fullPage: true });
      await guest.context().close();

      const product = await call('GET', `/api/products/${productId}`);
      expect(product.body).toMatchObject({ rating: 2, numReviews: 1 });
      const list = await call('GET', `/api/products/${productId}/reviews`);
      expect(list.headers.get('x-total-count')).toBe('1');
      expect((list.body as Array<{ comment: string }>).map((r) => r.comment)).toEqual(['Runs small.']);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
