// What the e2e suites share: where the running shop is (set by ../global-setup.mjs), a small fetch client, and
// the accessibility check the browser journeys run on each screen (axe-core).
import * as fs from 'node:fs';
import type { Page } from 'playwright-core';
import { variantCells, type VariantInput, type VariantJson } from '@shop/contracts';

export interface Login {
  role: string;
  email: string;
  password: string;
}

export interface E2eEnv {
  /** The gateway of the test stack, e.g. http://127.0.0.1:18080 */
  baseUrl: string;
  /** The fake PayPal the stack's checkout verifies payments with (its /__fake admin endpoints drive it). */
  paypalUrl: string;
  /** The stack's Mailpit (web inbox and API): every email the shop sends lands there. */
  mailpitUrl: string;
  /** A second gateway whose upstreams all point at a port where nothing listens. */
  deadGatewayUrl: string;
  running: string[];
  /** Services on disk that are not built (no dist/main.js), so not running. */
  missing: string[];
  logins: Login[];
  /** The stack's Redis (its own database), RabbitMQ (its own vhost) and the namespace of its keys and queues. */
  redisUrl: string;
  rabbitUrl: string;
  namespace: string;
  /** The stack's MongoDB-wire server and its databases' prefix (`<prefix><service>`), for fixtures no route makes. */
  mongoUrl: string;
  dbPrefix: string;
  logDir: string;
  screenshotDir: string;
  /** Debian's chromium and the launch arguments every browser test uses. */
  chromium: { path: string; args: string[] };
}

const list = (value: string | undefined) => (value ? value.split(',').filter(Boolean) : []);

/** The running stack; throws (failing the suite with the reason) when global setup could not start it. */
export function e2eEnv(): E2eEnv {
  if (process.env.E2E_SETUP_ERROR) throw new Error(`the e2e stack did not start:\n${process.env.E2E_SETUP_ERROR}`);
  if (!process.env.E2E_BASE_URL)
    throw new Error(
      'E2E_BASE_URL is not set: run the e2e suites through jest (npm test), whose global setup starts the shop',
    );
  return {
    baseUrl: process.env.E2E_BASE_URL,
    paypalUrl: process.env.E2E_PAYPAL_URL ?? '',
    mailpitUrl: process.env.E2E_MAILPIT_URL ?? '',
    deadGatewayUrl: process.env.E2E_DEAD_GATEWAY_URL ?? '',
    running: list(process.env.E2E_RUNNING_SERVICES),
    missing: list(process.env.E2E_MISSING_SERVICES),
    logins: JSON.parse(process.env.E2E_LOGINS ?? '[]') as Login[],
    redisUrl: process.env.E2E_REDIS_URL ?? '',
    rabbitUrl: process.env.E2E_RABBITMQ_URL ?? '',
    namespace: process.env.E2E_NAMESPACE ?? '',
    mongoUrl: process.env.E2E_MONGO_URL ?? '',
    dbPrefix: process.env.E2E_DB_PREFIX ?? 'e2e_shop_',
    logDir: process.env.E2E_LOG_DIR ?? '',
    screenshotDir: process.env.E2E_SCREENSHOT_DIR ?? '',
    chromium: JSON.parse(process.env.E2E_CHROMIUM ?? '{"path":"/usr/bin/chromium","args":[]}') as E2eEnv['chromium'],
  };
}

export function login(env: E2eEnv, role: 'admin' | 'customer'): Login {
  const found = env.logins.find((l) => l.role === role);
  if (!found) throw new Error(`no seeded ${role} login known`);
  return found;
}

export interface ApiResponse {
  status: number;
  headers: Headers;
  text: string;
  /** The parsed JSON body, or undefined when the body is not JSON. */
  body: any;
}

export interface ApiOptions {
  token?: string;
  /** Sent as JSON. */
  json?: unknown;
  /** Sent as is, with Content-Type: application/json (for malformed bodies). */
  raw?: string;
  headers?: Record<string, string>;
}

/** One HTTP call; never throws on an error status. */
export async function api(
  baseUrl: string,
  method: string,
  path: string,
  options: ApiOptions = {},
): Promise<ApiResponse> {
  const headers: Record<string, string> = { Accept: 'application/json', ...options.headers };
  if (options.token) headers.Authorization = `Bearer ${options.token}`;
  let body: string | undefined;
  if (options.json !== undefined || options.raw !== undefined) {
    headers['Content-Type'] = 'application/json';
    body = options.raw ?? JSON.stringify(options.json);
  }
  const res = await fetch(`${baseUrl}${path}`, { method, headers, body, signal: AbortSignal.timeout(20000) });
  const text = await res.text();
  let parsed: unknown;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  return { status: res.status, headers: res.headers, text, body: parsed };
}

/** Every key in a JSON value, at any depth (to prove no password or hash leaks anywhere). */
export function allKeys(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(allKeys);
  if (value && typeof value === 'object') return Object.entries(value).flatMap(([k, v]) => [k, ...allKeys(v)]);
  return [];
}

/** Asserts the API's error shape: JSON `{ message: string, statusCode }` with the given status. */
export function expectJsonError(res: ApiResponse, status: number): void {
  expect({ status: res.status, contentType: res.headers.get('content-type') }).toEqual({
    status,
    contentType: expect.stringContaining('application/json'),
  });
  expect(res.body).toEqual(expect.objectContaining({ message: expect.any(String), statusCode: status }));
  expect(res.body.message.length).toBeGreaterThan(0);
}

/**
 * The `variants` of an admin create or update (issue 22) for a product offering these sizes and colours: one per
 * size × colour, each with `countInStock` units, except the cells `stock` names (keyed by `cellOf`, e.g.
 * `{ [cellOf('M', 'Green')]: 0 }`). A product offering no sizes (colours) has variants without one.
 */
export function variantsFor(
  sizes: readonly string[],
  colors: readonly string[],
  countInStock: number,
  stock: Record<string, number> = {},
): VariantInput[] {
  return variantCells(sizes, colors).map(({ size, color }) => ({
    size,
    color,
    countInStock: stock[cellOf(size, color)] ?? countInStock,
  }));
}

/** A variant's key for variantsFor's `stock`: `M/Green`, `M/` (no colour), `/Green` (no size). */
export const cellOf = (size: string | null, color: string | null) => `${size ?? ''}/${color ?? ''}`;

/** The stock of one variant of a product as the API shows it (undefined when it has no such variant). */
export function variantStock(
  product: { variants?: VariantJson[] },
  size: string | null,
  color: string | null,
): number | undefined {
  return product.variants?.find((v) => v.size === size && v.color === color)?.countInStock;
}

export const uniqueEmail = (tag: string) =>
  `e2e.${tag}.${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}@Example.com`;

interface AxeViolation {
  id: string;
  impact: string;
  help: string;
  nodes: string[];
}

let axeSource: string | undefined;

/**
 * axe-core on the page as it is: no serious or critical violation (issues 9 and 10). Toasts are left out by
 * default (a stacked one fades behind the front one, which axe reads as low contrast); expectToastAccessible checks
 * one. `context` is axe's, as JavaScript source.
 */
export async function expectAccessible(
  page: Page,
  where: string,
  context = "{ exclude: [['[data-sonner-toaster]']] }",
): Promise<void> {
  axeSource ??= fs.readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
  if (!(await page.evaluate('typeof window.axe === "object"'))) await page.evaluate(axeSource);
  const violations = (await page.evaluate(`
    axe.run(${context}, { resultTypes: ['violations'] }).then((r) =>
      r.violations
        .filter((v) => v.impact === 'serious' || v.impact === 'critical')
        .map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.slice(0, 5).map((n) => n.target.join(' ')) })),
    )
  `)) as AxeViolation[];
  expect({ where, violations }).toEqual({ where, violations: [] });
}

/**
 * Waits until the element with this id has focus. A locator, not `page.waitForFunction`: that polls by eval-ing its
 * predicate inside the page, which the shop's CSP (no 'unsafe-eval') refuses whenever the first look is false.
 */
export async function waitForFocus(page: Page, id: string): Promise<void> {
  await page.locator(`#${id}:focus`).waitFor();
}

/** The toast in front, once it has settled, passes axe too (its colours on its tint, its close button). */
export async function expectToastAccessible(page: Page, text: string): Promise<void> {
  const toast = page.locator('[data-sonner-toast][data-front="true"]').filter({ hasText: text });
  await toast.waitFor();
  await page.waitForTimeout(600); // sonner's entry animation
  await expectAccessible(page, `toast "${text}"`, `{ include: [['[data-sonner-toast][data-front="true"]']] }`);
}

/** A shipping address the checkout form would send. */
export const SHIPPING_ADDRESS = {
  firstName: 'Ada',
  lastName: 'Buyer',
  address: '1 Lambeau Way',
  city: 'Leeds',
  postalCode: 'LS1 1AA',
  country: 'United Kingdom',
  phone: '+44 20 7946 0042',
};

/**
 * The customer's cart bought as the shop's checkout does: a checkout of its lines, paid through the fake PayPal's
 * create-and-capture, then finalized. Resolves with the order (each step must succeed).
 */
export async function orderCart(
  env: E2eEnv,
  token: string,
  cart: { products: unknown[]; totalPrice: number },
  shippingAddress = SHIPPING_ADDRESS,
  discountCode?: string,
): Promise<any> {
  const checkout = await api(env.baseUrl, 'POST', '/api/checkout', {
    token,
    json: {
      checkoutItems: cart.products,
      shippingAddress,
      paymentMethod: 'Paypal',
      totalPrice: cart.totalPrice,
      ...(discountCode ? { discountCode } : {}),
    },
  });
  if (checkout.status !== 201) throw new Error(`checkout answered ${checkout.status}: ${checkout.text}`);
  const paypal = await fetch(`${env.paypalUrl}/__fake/orders`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ value: (checkout.body.totalPrice as number).toFixed(2) }),
  });
  const paypalId = ((await paypal.json()) as { id: string }).id;
  const paid = await api(env.baseUrl, 'PUT', `/api/checkout/${checkout.body._id}/pay`, {
    token,
    json: { paymentStatus: 'paid', paymentDetails: { id: paypalId, status: 'COMPLETED' } },
  });
  if (paid.status !== 200) throw new Error(`pay answered ${paid.status}: ${paid.text}`);
  const order = await api(env.baseUrl, 'POST', `/api/checkout/${checkout.body._id}/finalize`, { token });
  if (order.status !== 201) throw new Error(`finalize answered ${order.status}: ${order.text}`);
  return order.body;
}

/** An email as the stack's Mailpit holds it (GET /api/v1/message/{ID}). */
export interface Email {
  ID: string;
  MessageID: string;
  From: { Name: string; Address: string };
  To: Array<{ Name: string; Address: string }>;
  Subject: string;
  Text: string;
  HTML: string;
  Created: string;
}

async function mailpitGet<T>(env: E2eEnv, path: string): Promise<T> {
  if (!env.mailpitUrl) throw new Error('E2E_MAILPIT_URL is not set: the e2e setup starts Mailpit with the stack');
  const res = await fetch(`${env.mailpitUrl}${path}`, { signal: AbortSignal.timeout(5000) });
  if (!res.ok) throw new Error(`Mailpit GET ${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

/** Every email to `address` in the stack's Mailpit, newest first (searched by recipient: other tests' mail is not seen). */
export async function emailsTo(env: E2eEnv, address: string): Promise<Email[]> {
  const query = encodeURIComponent(`to:"${address}"`);
  const found = await mailpitGet<{ messages: Array<{ ID: string }> }>(env, `/api/v1/search?query=${query}&limit=50`);
  return Promise.all(found.messages.map((m) => mailpitGet<Email>(env, `/api/v1/message/${encodeURIComponent(m.ID)}`)));
}

/**
 * Waits until an email to `address` (and, when given, whose subject matches `subject`) is in the stack's Mailpit,
 * and returns it with its plain text and HTML. Fails after `timeoutMs` naming what it saw meanwhile.
 */
export async function waitForEmail(
  env: E2eEnv,
  address: string,
  { subject, timeoutMs = 20_000 }: { subject?: RegExp | string; timeoutMs?: number } = {},
): Promise<Email> {
  const matches = (e: Email) =>
    subject === undefined || (typeof subject === 'string' ? e.Subject.includes(subject) : subject.test(e.Subject));
  const deadline = Date.now() + timeoutMs;
  let seen: Email[] = [];
  for (;;) {
    seen = await emailsTo(env, address);
    const found = seen.find(matches);
    if (found) return found;
    if (Date.now() > deadline)
      throw new Error(
        `no email to ${address}${subject ? ` with subject ${String(subject)}` : ''} within ${timeoutMs} ms (there: ${JSON.stringify(seen.map((e) => e.Subject))})`,
      );
    await new Promise((r) => setTimeout(r, 250));
  }
}
