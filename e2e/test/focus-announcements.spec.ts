// What a keyboard and a screen reader get from the storefront's answers (issue 40), in a real browser (Debian's
// chromium via playwright-core) through the e2e stack's gateway. Four forms whose button used to be disabled or
// replaced while they worked, dropping focus to the top of the page: after each answer, focus is on the result or
// still on the control pressed (Apply discount, an admin's Create Code, the newsletter's Subscribe, "Send reset
// link"). What changes out of focus is said by a polite live region: "Only N left in stock", "Code … applied: −£x",
// the cart's changes. Both are read off the accessibility tree: the focused element and the live regions by role and
// the text they give a screen reader (Playwright's aria snapshot). A sold-out size is told apart at WCAG AA contrast,
// not by a faint strike-through; a limited code whose last use an unpaid checkout holds shows so in the admin list.
import { randomUUID } from 'node:crypto';
import { chromium, type Browser, type Locator, type Page } from 'playwright-core';
import { PASSWORD_RESET_MESSAGES } from '@shop/contracts';
import {
  api,
  cellOf,
  e2eEnv,
  expectAccessible,
  login,
  SHIPPING_ADDRESS,
  uniqueEmail,
  variantsFor,
  type E2eEnv,
} from './support';

jest.setTimeout(120_000);

describe('focus and announcements (browser)', () => {
  let env: E2eEnv;
  let browser: Browser;
  let adminToken: string;
  let product: { _id: string; name: string };

  const call = (method: string, url: string, token?: string, json?: unknown) =>
    api(env.baseUrl, method, url, { token, json });

  async function newPage(session?: { user: unknown; token: string }, cart?: unknown): Promise<Page> {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    if (session || cart) {
      await page.goto(env.baseUrl, { waitUntil: 'load' });
      const stored: Record<string, string> = {};
      if (session) Object.assign(stored, { userInfo: JSON.stringify(session.user), userToken: session.token });
      if (cart) stored.cart = JSON.stringify(cart);
      await page.evaluate(
        `for (const [key, value] of Object.entries(${JSON.stringify(stored)})) localStorage.setItem(key, value)`,
      );
    }
    return page;
  }

  const register = async (tag: string) => {
    const made = await call('POST', '/api/users/register', undefined, {
      name: 'Focus Fan',
      email: uniqueEmail(`focus.${tag}`),
      password: 'Touchdown!2025',
    });
    expect(made.status).toBe(201);
    return made.body as { user: { _id: string }; token: string };
  };

  const makeCode = async (usageLimit: number | null) => {
    const code = `E2E-FOCUS-${randomUUID().slice(0, 6)}`.toUpperCase();
    const made = await call('POST', '/api/admin/discounts', adminToken, {
      code,
      type: 'percent',
      value: 25,
      usageLimit,
      active: true,
    });
    expect(made.status).toBe(201);
    return code;
  };

  /** The accessibility tree's view of the focused element: its aria snapshot ("- button \"Subscribe\"", ...). */
  const focusedSnapshot = (page: Page) => page.locator(':focus').ariaSnapshot();

  /** Waits (10 s at most) until `locator` has focus, and says what has it otherwise. */
  async function expectFocused(page: Page, locator: Locator, what: string) {
    let focused = false;
    for (const deadline = Date.now() + 10_000; !focused && Date.now() < deadline;) {
      focused = (await locator.and(page.locator(':focus')).count()) === 1;
      if (!focused) await page.waitForTimeout(50);
    }
    const snapshot = await page
      .locator(':focus')
      .ariaSnapshot({ timeout: 1000 })
      .catch(() => '(nothing: the page has focus)');
    expect({ what, focused, snapshot }).toEqual({ what, focused: true, snapshot });
  }

  /**
   * Waits (10 s at most) until a live region of role status says `text`: the aria snapshots of the page's status
   * elements, as a screen reader is given them.
   */
  async function expectAnnounced(page: Page, text: string | RegExp) {
    const said: string[] = [];
    for (const deadline = Date.now() + 10_000; Date.now() < deadline;) {
      said.length = 0;
      for (const region of await page.getByRole('status').all())
        said.push(await region.ariaSnapshot({ timeout: 1000 }).catch(() => ''));
      if (said.some((s) => (typeof text === 'string' ? s.includes(text) : text.test(s)))) return;
      await page.waitForTimeout(100);
    }
    expect({ announced: text, statusRegions: said }).toEqual({ announced: text, statusRegions: [text] });
  }

  /**
   * WCAG contrast ratio of the text colour of the element `selector` names on its background (both opaque here; a transparent background would read as black and fail), and
   * its border style, computed in the page (as source: the e2e project's TypeScript has no DOM types).
   */
  const contrastOf = (page: Page, selector: string) =>
    page.evaluate(`((el) => {
      // Tailwind's colours are oklch(): a canvas turns any CSS colour into the sRGB it paints
      const ctx = Object.assign(document.createElement('canvas'), { width: 1, height: 1 }).getContext('2d');
      const rgb = (c) => {
        ctx.clearRect(0, 0, 1, 1);
        ctx.fillStyle = c;
        ctx.fillRect(0, 0, 1, 1);
        return [...ctx.getImageData(0, 0, 1, 1).data.slice(0, 3)];
      };
      const lum = ([r, g, b]) => {
        const f = (v) => ((v /= 255) <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4);
        return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
      };
      const s = getComputedStyle(el);
      const [a, b] = [lum(rgb(s.color)), lum(rgb(s.backgroundColor))].sort((x, y) => y - x);
      return { ratio: (a + 0.05) / (b + 0.05), border: s.borderTopStyle };
    })(document.querySelector(${JSON.stringify(selector)}))`) as Promise<{ ratio: number; border: string }>;

  beforeAll(async () => {
    env = e2eEnv();
    browser = await chromium.launch({ executablePath: env.chromium.path, args: env.chromium.args, headless: true });
    adminToken = (await call('POST', '/api/users/login', undefined, login(env, 'admin'))).body.token;
    const image = (await call('GET', '/api/products?limit=1')).body[0].images[0];
    const sku = `E2E-FOCUS-${randomUUID().slice(0, 8)}`;
    // S in Green: 2 left; M: sold out in every colour
    const made = await call('POST', '/api/admin/products', adminToken, {
      name: `Focus Test Jersey ${sku}`,
      description: 'A jersey for the focus and announcement tests.',
      price: 40,
      variants: variantsFor(['S', 'M'], ['Green'], 2, { [cellOf('M', 'Green')]: 0 }),
      sku,
      category: 'Top Wear',
      gender: 'Men',
      brand: 'Green Bay Packers',
      sizes: ['S', 'M'],
      colors: ['Green'],
      material: 'Polyester',
      images: [image],
    });
    expect(made.status).toBe(201);
    product = made.body;
  });

  afterAll(async () => {
    await browser?.close();
  });

  it('product page: a sold-out size is distinct at AA contrast; "Only N left" and every cart change are announced', async () => {
    const page = await newPage();
    await page.goto(`${env.baseUrl}/product/${product._id}`, { waitUntil: 'networkidle' });
    const details = page.getByTestId('product-details');
    await details.getByRole('heading', { level: 1, name: product.name }).waitFor();

    const soldOut = details.getByRole('button', { name: 'M, sold out', exact: true });
    await expect(soldOut.getAttribute('aria-disabled')).resolves.toBe('true');
    await expect(soldOut.innerText()).resolves.toMatch(/^M\s*sold out$/i);
    const look = await contrastOf(page, '[data-testid="product-details"] button[aria-label="M, sold out"]');
    expect(look.ratio).toBeGreaterThanOrEqual(4.5);
    expect(look.border).toBe('dashed');
    await expectAccessible(page, 'product with a sold-out size');

    // keyboard only from here: a colour, a size, Add to cart
    await details.getByRole('button', { name: 'Green', exact: true }).focus();
    await page.keyboard.press('Enter');
    await details.getByRole('button', { name: 'S', exact: true }).focus();
    await page.keyboard.press('Enter');
    await expectAnnounced(page, 'Only 2 left in stock');
    await details.getByRole('button', { name: 'Add to cart' }).focus();
    await page.keyboard.press('Enter');
    await expectAnnounced(page, 'Product added to cart! Cart: 1 item, £40.00');

    await page.getByTestId('cart-button').focus();
    await page.keyboard.press('Enter');
    const drawer = page.getByTestId('cart-drawer');
    await drawer.getByTestId('cart-line').first().waitFor();
    await drawer.getByRole('button', { name: `Increase quantity of ${product.name}` }).focus();
    await page.keyboard.press('Enter');
    await expectAnnounced(page, `${product.name}, size S, Green: quantity 2. Cart: 2 items, £80.00`);
    await drawer.getByRole('button', { name: `Remove ${product.name} from cart` }).focus();
    await page.keyboard.press('Enter');
    await expectAnnounced(page, `${product.name}, size S, Green removed from the cart. Cart is empty`);
    await page.close();
  });

  it('checkout: Apply discount moves focus to the applied code, which is announced', async () => {
    const code = await makeCode(null);
    const buyer = await register('apply');
    const added = await call('POST', '/api/cart', buyer.token, {
      productId: product._id,
      quantity: 1,
      size: 'S',
      color: 'Green',
    });
    expect([200, 201]).toContain(added.status);
    const page = await newPage(buyer, added.body);
    await page.goto(`${env.baseUrl}/checkout`, { waitUntil: 'networkidle' });
    const field = page.getByLabel('Discount code', { exact: true });
    await field.focus();
    await page.keyboard.type(code.toLowerCase());
    await page.keyboard.press('Enter');
    const applied = page.getByTestId('applied-code');
    await expect(applied.innerText()).resolves.toBe(`Code ${code} applied: −£10.00`);
    await expectFocused(page, applied, 'the applied code');
    await expect(focusedSnapshot(page)).resolves.toContain(`Code ${code} applied: −£10.00`);
    await expectAnnounced(page, `Code ${code} applied: −£10.00`);

    // removing it gives focus back to the field, and a refused code keeps focus there
    await page.getByRole('button', { name: `Remove discount code ${code}` }).focus();
    await page.keyboard.press('Enter');
    await expectFocused(page, field, 'the discount code field, after Remove');
    await page.keyboard.type('NO-SUCH-CODE');
    await page.keyboard.press('Enter');
    await page.getByRole('alert').filter({ hasText: /code/i }).waitFor();
    await expectFocused(page, field, 'the discount code field, after a refusal');
    await expectAccessible(page, 'checkout with a refused code');
    await page.close();
  });

  it('newsletter: Subscribe keeps focus and its answer is announced', async () => {
    const page = await newPage();
    await page.goto(env.baseUrl, { waitUntil: 'networkidle' });
    const form = page.getByRole('form', { name: 'Newsletter' });
    await form.getByLabel('Email address').focus();
    await page.keyboard.type(uniqueEmail('focus.newsletter'));
    await page.keyboard.press('Tab');
    const subscribe = form.getByRole('button', { name: 'Subscribe' });
    await expectFocused(page, subscribe, 'Subscribe, before');
    await page.keyboard.press('Enter');
    const answer = form.getByRole('status');
    await answer.filter({ hasText: /\w/ }).waitFor();
    await expectAnnounced(page, (await answer.innerText()).trim());
    await expectFocused(page, subscribe, 'Subscribe, after the answer');
    await page.close();
  });

  it('forgot password: "Send reset link" moves focus to the confirmation it gives way to', async () => {
    const page = await newPage();
    await page.goto(`${env.baseUrl}/forgot-password`, { waitUntil: 'networkidle' });
    await page.getByLabel('Email', { exact: true }).focus();
    await page.keyboard.type(uniqueEmail('focus.reset'));
    await page.keyboard.press('Enter');
    const sent = page.getByRole('status').filter({ hasText: PASSWORD_RESET_MESSAGES.requested });
    await sent.waitFor();
    await expectFocused(page, sent, 'the reset confirmation');
    await expect(focusedSnapshot(page)).resolves.toContain(PASSWORD_RESET_MESSAGES.requested);
    await page.close();
  });

  it("admin: Create Code moves focus to the new code; a code whose last use an unpaid checkout holds shows 'held'", async () => {
    const admin = await call('POST', '/api/users/login', undefined, login(env, 'admin'));
    const page = await newPage(admin.body);
    await page.goto(`${env.baseUrl}/admin/discounts`, { waitUntil: 'networkidle' });
    await page.getByRole('button', { name: 'Add discount code', exact: true }).focus();
    await page.keyboard.press('Enter');
    const form = page.getByRole('form', { name: 'New discount code' });
    const code = `E2E-HELD-${randomUUID().slice(0, 6)}`.toUpperCase();
    await form.getByLabel('Code', { exact: false }).first().fill(code);
    await form.getByLabel('Percentage (%)', { exact: false }).fill('10');
    await form.getByLabel('Usage limit', { exact: true }).fill('1');
    await form.getByLabel('Usage limit', { exact: true }).focus();
    await page.keyboard.press('Enter');
    const row = page.getByTestId('discount-row').filter({ hasText: code });
    await expectFocused(page, row.getByText(code, { exact: true }), 'the new code in the list');
    await expect(row.locator('[data-label="Status"]').textContent()).resolves.toBe('active');

    // a shopper's unpaid checkout holds its one use: every other shopper is told it is used up
    const holder = await register('holder');
    const checkout = await call('POST', '/api/checkout', holder.token, {
      checkoutItems: [{ productId: product._id, quantity: 1, size: 'S', color: 'Green' }],
      shippingAddress: SHIPPING_ADDRESS,
      paymentMethod: 'Paypal',
      totalPrice: 40,
      discountCode: code,
    });
    expect(checkout.status).toBe(201);
    const other = await register('other');
    const refused = await call('POST', '/api/checkout/quote', other.token, {
      checkoutItems: [{ productId: product._id, quantity: 1, size: 'S', color: 'Green' }],
      discountCode: code,
    });
    expect(refused.status).toBe(400);

    await page.reload({ waitUntil: 'networkidle' });
    await expect(row.locator('[data-label="Status"]').textContent()).resolves.toBe('1 held / 1');
    await expect(row.locator('[data-label="Held"]').textContent()).resolves.toBe('1');
    await expectAccessible(page, 'discount codes with a held code');
    await page.close();
  });
});
