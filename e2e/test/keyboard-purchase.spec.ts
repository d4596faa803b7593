// A purchase with the keyboard alone (issue 27), in a real browser (Debian's chromium via playwright-core) through
// the gateway of the e2e stack: from home, Tab / Shift+Tab to a product of New Arrivals, Enter to open it, Enter on
// a colour and a size, Add to cart, back to the header's cart button, open the cart, Checkout, Register (typed),
// the seven address fields (typed), Continue to Payment, Pay with test PayPal, the confirmation. No click, no
// locator action: only page.keyboard. Every element focus lands on is checked (focusStop): it is on screen, not
// hidden, and shows a focus indicator (an outline or a box shadow that its unfocused state does not have, read from
// the same element once focus has moved on); at every step's target, the pixels around it differ with and without
// focus. axe-core finds no serious or critical violation on each screen the journey passes. Adding to the cart is
// said by the page's live region (issue 40; focus-announcements.spec.ts covers the other answers).
import { chromium, type Browser, type Page } from 'playwright-core';
import type { ProductJson } from '@shop/contracts';
import { api, e2eEnv, expectAccessible, uniqueEmail, waitForFocus, type E2eEnv } from './support';

jest.setTimeout(120_000);

/** What the page says about the element that has focus (see FOCUS_PROBE). */
interface Focused {
  tag: string;
  /** Roughly what a keyboard user hears: `label:<its label>` for a form field, else aria-label, text or title. */
  name: string;
  role: string | null;
  href: string | null;
  testId: string | null;
  /** Inside which dialog, when one (its aria-labelledby text). */
  dialog: string | null;
  focusVisible: boolean;
  inViewport: boolean;
  rendered: boolean;
  /** The focus indicator: outline (style, width, colour) and box shadow as computed now. */
  ring: Ring;
}

interface Ring {
  outlineStyle: string;
  outlineWidth: number;
  outlineColor: string;
  boxShadow: string;
}

// Evaluated in the page (as source: the e2e project's TypeScript has no DOM types). It marks the focused element
// (data-kbd-probe) so that the next probe can read the same element's unfocused style.
const FOCUS_PROBE = `(() => {
  const ringOf = (el) => {
    const s = getComputedStyle(el);
    return { outlineStyle: s.outlineStyle, outlineWidth: parseFloat(s.outlineWidth) || 0, outlineColor: s.outlineColor, boxShadow: s.boxShadow };
  };
  const previous = document.querySelector('[data-kbd-probe]');
  let before = null;
  if (previous) {
    previous.removeAttribute('data-kbd-probe');
    if (previous !== document.activeElement && previous.isConnected) before = ringOf(previous);
  }
  const el = document.activeElement;
  if (!el || el === document.body || el === document.documentElement) return { focused: null, before };
  el.setAttribute('data-kbd-probe', '');
  const r = el.getBoundingClientRect();
  const s = getComputedStyle(el);
  const dialog = el.closest('[role="dialog"]');
  const labelled = dialog && dialog.getAttribute('aria-labelledby');
  const field = /^(INPUT|SELECT|TEXTAREA)$/.test(el.tagName) && el.labels && el.labels[0];
  const text = field
    ? 'label:' + field.innerText.trim()
    : (el.getAttribute('aria-label') || el.innerText || el.getAttribute('title') || '').trim();
  return {
    before,
    focused: {
      tag: el.tagName.toLowerCase(),
      name: text.replace(/\\s+/g, ' ').slice(0, 80),
      role: el.getAttribute('role'),
      href: el.getAttribute('href'),
      testId: el.getAttribute('data-testid'),
      dialog: labelled ? (document.getElementById(labelled)?.textContent ?? '') : dialog ? '' : null,
      focusVisible: el.matches(':focus-visible'),
      inViewport: r.width > 0 && r.height > 0 && r.bottom > 0 && r.right > 0 && r.top < innerHeight && r.left < innerWidth,
      rendered: s.visibility !== 'hidden' && s.display !== 'none' && Number(s.opacity) > 0,
      ring: ringOf(el),
    },
  };
})()`;

const hasRing = (ring: Ring) =>
  (ring.outlineStyle !== 'none' && ring.outlineWidth > 0 && !/rgba\(.*, 0\)$/.test(ring.outlineColor)) ||
  (ring.boxShadow !== 'none' && ring.boxShadow !== '');
const sameRing = (a: Ring, b: Ring) =>
  a.outlineStyle === b.outlineStyle &&
  a.outlineWidth === b.outlineWidth &&
  a.outlineColor === b.outlineColor &&
  a.boxShadow === b.boxShadow;

describe('keyboard-only purchase (browser)', () => {
  let env: E2eEnv;
  let browser: Browser;
  let page: Page;
  const problems: string[] = [];
  /** Every focus stop of the journey, in order (for the failure message and the count). */
  const stops: string[] = [];
  /** The last focus stop's description and ring, to compare with the same element unfocused. */
  let last: { where: string; ring: Ring } | null = null;

  const describeStop = (f: Focused) =>
    `${f.tag}${f.role ? `[role=${f.role}]` : ''} "${f.name}"${f.href ? ` → ${f.href}` : ''}${f.dialog !== null ? ` (in dialog ${f.dialog})` : ''}`;

  /**
   * Where focus is now, checked: visible on screen, rendered, matching :focus-visible, with an outline or box
   * shadow; and the element focused before, now unfocused, no longer shows the ring it had (its indicator is the
   * focus's, not its everyday look).
   */
  async function focusStop(): Promise<Focused> {
    const { focused, before } = (await page.evaluate(FOCUS_PROBE)) as { focused: Focused | null; before: Ring | null };
    if (last && before) {
      expect({ stop: last.where, ringDiffersUnfocused: !sameRing(last.ring, before) }).toEqual({
        stop: last.where,
        ringDiffersUnfocused: true,
      });
    }
    if (!focused) {
      last = null;
      return focused as unknown as Focused;
    }
    const where = describeStop(focused);
    stops.push(`${new URL(page.url()).pathname}: ${where}`);
    expect({
      stop: where,
      inViewport: focused.inViewport,
      rendered: focused.rendered,
      focusVisible: focused.focusVisible,
      ring: hasRing(focused.ring),
    }).toEqual({ stop: where, inViewport: true, rendered: true, focusVisible: true, ring: true });
    last = { where, ring: focused.ring };
    return focused;
  }

  /**
   * Presses Tab (Shift+Tab when `back`) until the focused element matches `wanted`, checking every stop on the
   * way. Fails after `max` presses, listing the last stops (an unreachable control, or a keyboard trap).
   */
  async function tabTo(what: string, wanted: (f: Focused) => boolean, { back = false, max = 120 } = {}) {
    for (let i = 0; i < max; i++) {
      await page.keyboard.press(back ? 'Shift+Tab' : 'Tab');
      const focused = await focusStop();
      if (focused && wanted(focused)) {
        await expectRingPainted(what);
        return focused;
      }
    }
    throw new Error(
      `${what}: not reached in ${max} ${back ? 'Shift+Tab' : 'Tab'} presses; last stops:\n${stops.slice(-15).join('\n')}`,
    );
  }

  /**
   * The pixels around the focused element differ with and without focus: the ring is painted, not clipped by a
   * scrolling or overflow-hidden ancestor nor covered. (Focus is taken away with blur() and given back with
   * focus(), which after a key press keeps :focus-visible; the element must be focused again afterwards.)
   */
  async function expectRingPainted(what: string) {
    const box = (await page.evaluate(`(() => {
      const r = document.activeElement.getBoundingClientRect();
      const pad = 8;
      const x = Math.max(0, r.left - pad), y = Math.max(0, r.top - pad);
      return { x, y, width: Math.min(innerWidth - x, r.width + 2 * pad), height: Math.min(innerHeight - y, r.height + 2 * pad) };
    })()`)) as { x: number; y: number; width: number; height: number };
    const focused = await page.screenshot({ clip: box, animations: 'disabled', caret: 'hide' });
    await page.evaluate(`window.__kbdTarget = document.activeElement; document.activeElement.blur()`);
    const unfocused = await page.screenshot({ clip: box, animations: 'disabled', caret: 'hide' });
    const back = await page.evaluate(`(() => {
      window.__kbdTarget.focus({ preventScroll: true });
      return document.activeElement === window.__kbdTarget && window.__kbdTarget.matches(':focus-visible');
    })()`);
    expect({ what, ringPainted: !focused.equals(unfocused), focusBack: back }).toEqual({
      what,
      ringPainted: true,
      focusBack: true,
    });
  }

  const named = (name: string) => (f: Focused) => f.name === name;

  /** Waits (10 s at most) until focus is where `test` (page source over `el`, the focused element) says. */
  async function expectFocusMovedTo(where: string, test: string) {
    // polled with evaluate: the shop's CSP has no 'unsafe-eval', which waitForFunction's string form needs
    let there = false;
    for (const deadline = Date.now() + 10_000; !there && Date.now() < deadline;) {
      there = (await page.evaluate(`((el) => !!el && (${test}))(document.activeElement)`)) as boolean;
      if (!there) await page.waitForTimeout(50);
    }
    expect({ where, focusMoved: there }).toEqual({ where, focusMoved: true });
    last = null;
  }

  /** A new page puts focus on its main area (the control that led there went with the old page). */
  const expectFocusOnNewPage = (where: string) => expectFocusMovedTo(`${where}: main area`, `el.id === 'main'`);

  beforeAll(async () => {
    env = e2eEnv();
    browser = await chromium.launch({ executablePath: env.chromium.path, args: env.chromium.args, headless: true });
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    page = await context.newPage();
    page.on('console', (m) => {
      if (m.type() === 'error') problems.push(`console.error: ${m.text()}`);
    });
    page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  });

  afterAll(async () => {
    await browser?.close();
  });

  it('buys a product from home to the order confirmation without a mouse, focus visible at every stop', async () => {
    // A new arrival with a size and colour in stock (the seed's stock is uneven per variant, issue 22).
    const arrivals = (await api(env.baseUrl, 'GET', '/api/products/new-arrivals')).body as ProductJson[];
    let product: ProductJson | undefined;
    let pick: { size: string; color: string } | undefined;
    for (const p of arrivals) {
      const full = (await api(env.baseUrl, 'GET', `/api/products/${p._id}`)).body as ProductJson;
      const variant = full.variants.find((v) => v.size && v.color && v.countInStock >= 1);
      if (variant?.size && variant.color) {
        product = full;
        pick = { size: variant.size, color: variant.color };
        break;
      }
    }
    if (!product || !pick) throw new Error('no new arrival has a size and colour in stock');

    // Home
    await page.goto(env.baseUrl, { waitUntil: 'networkidle' });
    await page.getByTestId('new-arrivals').getByRole('link').first().waitFor();
    await expectAccessible(page, 'home');
    const skip = await tabTo('the skip link', named('Skip to content'));
    expect(skip.href).toBe('#main');
    // the header's search opens and closes by keyboard, focus going back to its button
    await tabTo('Search products', (f) => f.tag === 'button' && f.name === 'Search products');
    await page.keyboard.press('Enter');
    // the open search's code loads as the button takes focus: the field gets focus once it is there
    await waitForFocus(page, 'site-search');
    await focusStop();
    await page.keyboard.press('Escape');
    await expect(page.evaluate(`document.activeElement.getAttribute('aria-label')`)).resolves.toBe('Search products');
    await focusStop();
    await tabTo(`${product.name} in New Arrivals`, (f) => f.tag === 'a' && f.href === `/product/${product._id}`);
    await page.keyboard.press('Enter');

    // Product: colour, size, Add to cart
    await page.waitForURL(new RegExp(`/product/${product._id}$`));
    await expectFocusOnNewPage('product');
    await page.getByTestId('product-details').getByRole('heading', { level: 1, name: product.name }).waitFor();
    await expectAccessible(page, 'product');
    await tabTo(`colour ${pick.color}`, (f) => f.tag === 'button' && f.name === pick.color);
    await page.keyboard.press('Enter');
    await tabTo(`size ${pick.size}`, (f) => f.tag === 'button' && f.name === pick.size);
    await page.keyboard.press('Space');
    const details = page.getByTestId('product-details');
    await expect(
      details.getByRole('button', { name: pick.color, exact: true }).getAttribute('aria-pressed'),
    ).resolves.toBe('true');
    await expect(
      details.getByRole('button', { name: pick.size, exact: true }).getAttribute('aria-pressed'),
    ).resolves.toBe('true');
    await tabTo('Add to cart', (f) => f.tag === 'button' && /^add to cart$/i.test(f.name));
    await page.keyboard.press('Enter');
    await page.getByText('Product added to cart!', { exact: true }).waitFor();
    await expect(page.getByTestId('cart-badge').textContent()).resolves.toBe('1');
    // a screen reader is told too, by the page's polite live region (role status), focus staying where it was
    await expect(page.getByTestId('announcer').ariaSnapshot()).resolves.toMatch(
      /^- status: "Product added to cart! Cart: 1 item, £[\d.]+"$/,
    );
    await expect(page.evaluate(`document.activeElement.textContent`)).resolves.toMatch(/add to cart/i);

    // Back up to the header's cart button, open the cart, Checkout
    await tabTo('the cart button', (f) => f.testId === 'cart-button', { back: true });
    await page.keyboard.press('Enter');
    const drawer = page.getByTestId('cart-drawer');
    await drawer.getByTestId('cart-line').first().waitFor();
    // the drawer takes focus as it opens (its close button), shown as at any other stop
    await expectFocusMovedTo('cart drawer', `!!el.closest('[role="dialog"]')`);
    const inCart = await focusStop();
    expect(inCart?.dialog).toBe('Your Cart');
    await expectAccessible(page, 'cart drawer (open)');
    await tabTo('Checkout in the cart', (f) => f.dialog === 'Your Cart' && f.name === 'Checkout');
    await page.keyboard.press('Enter');

    // Login → Register, typed
    await page.waitForURL(/\/login\?redirect=checkout$/);
    await expectFocusOnNewPage('login');
    await page.getByRole('heading', { level: 1 }).waitFor();
    await expectAccessible(page, 'login');
    await tabTo('Register', (f) => f.tag === 'a' && f.name === 'Register' && !!f.href?.startsWith('/register'));
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/register\?redirect=checkout$/);
    await expectFocusOnNewPage('register');
    await page.getByRole('button', { name: 'Sign Up', exact: true }).waitFor();
    await expectAccessible(page, 'register');
    const email = uniqueEmail('keyboard');
    for (const [label, value] of [
      ['Name', 'Keys Only'],
      ['Email', email],
      ['Password', 'Touchdown!2025'],
    ] as const) {
      await tabToField(label);
      await page.keyboard.type(value);
    }
    await tabTo('Sign Up', (f) => f.tag === 'button' && f.name === 'Sign Up');
    await page.keyboard.press('Enter');

    // Checkout: the seven address fields, Continue to Payment, Pay with test PayPal
    await page.waitForURL(/\/checkout$/);
    await expectFocusOnNewPage('checkout');
    await page.getByRole('button', { name: 'Continue to Payment', exact: true }).waitFor();
    await expectAccessible(page, 'checkout (address)');
    for (const [label, value] of [
      ['First name', 'Keys'],
      ['Last name', 'Only'],
      ['Address', '1 Tab Street'],
      ['City', 'Leeds'],
      ['Postal code', 'LS1 1AA'],
      ['Country', 'United Kingdom'],
      ['Phone', '+44 20 7946 0099'],
    ] as const) {
      await tabToField(label);
      await page.keyboard.type(value);
    }
    await tabTo('Continue to Payment', (f) => f.tag === 'button' && f.name === 'Continue to Payment');
    await page.keyboard.press('Enter');
    await page.getByTestId('payment-step').waitFor();
    await page.getByRole('button', { name: 'Pay with test PayPal', exact: true }).waitFor();
    // the button that had focus gave way to the payment step, which takes focus
    await expectFocusMovedTo('checkout: payment step', `el.getAttribute('data-testid') === 'payment-step'`);
    await expectAccessible(page, 'checkout (payment)');
    await tabTo('Pay with test PayPal', (f) => f.tag === 'button' && f.name === 'Pay with test PayPal');
    await page.keyboard.press('Enter');

    // Confirmation
    await page.waitForURL(/\/order-confirmation$/, { timeout: 30_000 });
    await expectFocusOnNewPage('confirmation');
    await page.getByText('Thank You for Your Order!').waitFor();
    await expect(page.getByTestId('order-id').textContent()).resolves.toMatch(/[0-9a-f]{24}/);
    await expectAccessible(page, 'confirmation');
    // the confirmation is reachable onwards by keyboard too: its first control takes a visible focus
    await tabTo('a control of the confirmation page', (f) => f.tag === 'a' || f.tag === 'button');

    expect(stops.length).toBeGreaterThan(20);
    expect(problems).toEqual([]);
  });

  /** Tab to the input labelled `label` (its <label>'s text), checking every stop. */
  async function tabToField(label: string) {
    return tabTo(`the ${label} field`, (f) => f.tag === 'input' && f.name === `label:${label}`);
  }
});
