// The admin lists done by the server (issue 25), in a real browser through the gateway of the e2e stack: the admin
// finds a product by its SKU with the search box; pages through users (searched, sorted by a column header) with
// Next; reloads the link and sees the same view (rows, "N–M of T", the search text, the sort); Back returns to the
// previous view. Through the API, X-Total-Count says the total and bad input is a 400 with a message. It works on
// its own product and users only, and removes them at the end.
import { randomUUID } from 'node:crypto';
import { chromium, type Browser, type Page } from 'playwright-core';
import { ADMIN_LIST_MESSAGES, TOTAL_COUNT_HEADER } from '@shop/contracts';
import { api, e2eEnv, expectAccessible, login, uniqueEmail, variantsFor, type E2eEnv } from './support';

jest.setTimeout(120_000);

describe('admin lists (browser)', () => {
  let env: E2eEnv;
  let browser: Browser;
  let page: Page;
  let adminToken = '';
  const tag = randomUUID().slice(0, 8);
  const sku = `E2E-LIST-${tag}`.toUpperCase();
  const productName = `List Journey Scarf ${tag}`;
  let productId = '';
  /** 30 users named so that their order by name is their number. */
  const people = Array.from({ length: 30 }, (_, i) => ({
    name: `Lister ${tag} ${String(i + 1).padStart(2, '0')}`,
    email: uniqueEmail(`lister${i + 1}`).toLowerCase(),
  }));
  const userIds: string[] = [];
  const call = (method: string, url: string, json?: unknown) =>
    api(env.baseUrl, method, url, { token: adminToken, json });

  const rowNames = async () =>
    (await page.getByRole('table', { name: 'Users' }).getByRole('rowheader').allTextContents()).map((t) => t.trim());

  /**
   * Waits until the users table shows exactly these rows and is not busy (its rows are the URL's view, not the one
   * before), then checks them: the URL changes before the page asked for arrives.
   */
  async function usersShown(names: string[]) {
    const deadline = Date.now() + 20_000;
    const table = page.getByRole('table', { name: 'Users' });
    while (Date.now() < deadline) {
      const busy = await table.getAttribute('aria-busy').catch(() => 'true');
      if (busy === null && JSON.stringify(await rowNames()) === JSON.stringify(names)) break;
      await page.waitForTimeout(100);
    }
    expect(await table.getAttribute('aria-busy')).toBeNull();
    await expect(rowNames()).resolves.toEqual(names);
  }

  beforeAll(async () => {
    env = e2eEnv();
    adminToken = (await api(env.baseUrl, 'POST', '/api/users/login', { json: login(env, 'admin') })).body.token;
    expect(adminToken).toBeTruthy();
    const made = await call('POST', '/api/admin/products', {
      name: productName,
      description: 'A scarf the admin lists journey finds by its SKU.',
      price: 19.5,
      sku,
      category: 'Accessories',
      gender: 'Unisex',
      brand: 'Atlanta Falcons',
      sizes: [],
      colors: ['Red'],
      variants: variantsFor([], ['Red'], 3),
      isPublished: false,
    });
    expect(made.status).toBe(201);
    productId = made.body._id;
    for (const person of people) {
      const res = await call('POST', '/api/admin/users', { ...person, password: 'Lister!2345' });
      expect(res.status).toBe(201);
      userIds.push(res.body.user._id);
    }
    browser = await chromium.launch({ executablePath: env.chromium.path, args: env.chromium.args, headless: true });
    page = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
    await page.goto(`${env.baseUrl}/login`, { waitUntil: 'networkidle' });
    const admin = login(env, 'admin');
    await page.getByLabel('Email', { exact: true }).fill(admin.email);
    await page.getByLabel('Password', { exact: true }).fill(admin.password);
    await page.getByRole('button', { name: 'Sign In', exact: true }).click();
    await page.waitForURL((url) => url.pathname !== '/login');
  });

  afterAll(async () => {
    await browser?.close();
    if (!adminToken) return;
    for (const id of userIds) await call('DELETE', `/api/admin/users/${id}`);
    if (productId) await call('DELETE', `/api/admin/products/${productId}`);
  });

  it('answers a page with X-Total-Count through the gateway, and a clear 400 for bad input', async () => {
    const res = await call('GET', `/api/admin/users?page=2&limit=10&q=${tag}&sort=name`);
    expect(res.status).toBe(200);
    expect(res.headers.get(TOTAL_COUNT_HEADER)).toBe('30');
    expect((res.body as Array<{ name: string }>).map((u) => u.name)).toEqual(people.slice(10, 20).map((p) => p.name));
    const bad = await call('GET', '/api/admin/products?page=0');
    expect([bad.status, bad.body.message]).toEqual([400, ADMIN_LIST_MESSAGES.page]);
  });

  it('finds a product by its SKU with the search box', async () => {
    await page.goto(`${env.baseUrl}/admin/products`, { waitUntil: 'networkidle' });
    await page.getByRole('heading', { name: 'Product Management', exact: true }).waitFor();
    await page.getByRole('searchbox', { name: 'Search products' }).fill(sku.toLowerCase());
    await page.keyboard.press('Enter');
    await page.waitForURL((url) => url.searchParams.get('q') === sku.toLowerCase());
    const rows = page.getByRole('table', { name: 'Products' }).getByRole('rowheader');
    await page.getByTestId('page-range').filter({ hasText: '1–1 of 1' }).waitFor();
    await expect(rows.allTextContents()).resolves.toEqual([expect.stringContaining(productName)]);
    await expectAccessible(page, 'products searched');
  });

  it('pages through users sorted by name; a reload of the link shows the same view; Back the one before', async () => {
    await page.goto(`${env.baseUrl}/admin/users`, { waitUntil: 'networkidle' });
    await page.getByRole('searchbox', { name: 'Search users' }).fill(tag);
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await page.waitForURL((url) => url.searchParams.get('q') === tag);
    await page.getByRole('table', { name: 'Users' }).getByRole('button', { name: /Name/ }).click();
    await page.waitForURL((url) => url.searchParams.get('sort') === 'name');
    await usersShown(people.slice(0, 25).map((p) => p.name));
    await page.getByTestId('page-range').filter({ hasText: '1–25 of 30' }).waitFor();

    await page.getByRole('button', { name: 'Next', exact: true }).click();
    await page.waitForURL((url) => url.searchParams.get('page') === '2');
    const second = people.slice(25).map((p) => p.name);
    await usersShown(second);
    await page.getByTestId('page-range').filter({ hasText: '26–30 of 30' }).waitFor();
    const link = page.url();

    await page.reload({ waitUntil: 'networkidle' });
    expect(page.url()).toBe(link);
    await usersShown(second);
    await page.getByTestId('page-range').filter({ hasText: '26–30 of 30' }).waitFor();
    await expect(page.getByRole('searchbox', { name: 'Search users' }).inputValue()).resolves.toBe(tag);
    await expect(page.getByRole('columnheader', { name: /Name/ }).getAttribute('aria-sort')).resolves.toBe('ascending');
    await expect(page.getByRole('button', { name: 'Next', exact: true }).isDisabled()).resolves.toBe(true);
    await expectAccessible(page, 'users paged');

    await page.goBack();
    await page.waitForURL((url) => url.searchParams.get('page') === null && url.searchParams.get('sort') === 'name');
    await usersShown(people.slice(0, 25).map((p) => p.name));
    await page.getByTestId('page-range').filter({ hasText: '1–25 of 30' }).waitFor();
  });
});
