// Helpers shared by the benchmarks that drive the whole shop through its gateway (checkout.mjs, soak.mjs): the
// target URLs, one JSON call, a bounded pool of calls, the figures, and the bench's own products and buyers.
import os from 'node:os';
import { performance } from 'node:perf_hooks';

export const GATEWAY = (process.env.GATEWAY_URL || 'http://127.0.0.1:8080').replace(/\/+$/, '');
export const PAYPAL = (process.env.PAYPAL_URL || 'http://127.0.0.1:8090').replace(/\/+$/, '');
export const ADMIN = { email: 'admin@example.com', password: 'Admin!2345' };
export const SIZES = ['S', 'M', 'L', 'XL'];
export const COLORS = ['Purple', 'Black'];
export const ADDRESS = {
  firstName: 'Bench',
  lastName: 'Buyer',
  address: '1 Ravens Way',
  city: 'London',
  postalCode: 'SW1A 1AA',
  country: 'United Kingdom',
  phone: '+44 20 7946 0000',
};

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
export const pence = (pounds) => Math.round(pounds * 100);
export const money = (p) => (p / 100).toFixed(2);

/** Prints `bench: message` (or `<prefix>: message`) and exits 1. */
export function fail(message, prefix = 'bench') {
  console.error(`${prefix}: ${message}`);
  process.exit(1);
}

/** True for a URL whose host is this machine (127.0.0.0/8, localhost, ::1). */
export function isLoopback(url) {
  const host = new URL(url).hostname.replace(/^\[|\]$/g, '');
  return host === 'localhost' || host === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

/**
 * One JSON request: to the gateway for a path, or to `url` when it is absolute. Never throws: a dropped connection
 * or a timeout is `status: 0` with `why` its code. `ms` is the time to the whole answer.
 */
export async function call(method, url, body, token, timeoutMs = 30000) {
  const headers = { 'content-type': 'application/json' };
  if (token) headers.authorization = `Bearer ${token}`;
  const started = performance.now();
  let res;
  let text;
  try {
    res = await fetch(url.startsWith('http') ? url : `${GATEWAY}${url}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(timeoutMs),
    });
    text = await res.text();
  } catch (err) {
    return { status: 0, why: err.cause?.code || err.name || err.message, ms: performance.now() - started };
  }
  let json;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return {
    status: res.status,
    text,
    json,
    why: `HTTP ${res.status} ${text.slice(0, 200)}`,
    ms: performance.now() - started,
  };
}

/** Runs `count` calls of `make(i)` with at most `parallel` in flight; returns every result. */
export async function pool(count, make, parallel = 8) {
  const results = new Array(count);
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const i = next++;
      results[i] = await make(i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(parallel, count) }, worker));
  return results;
}

export function quantiles(values) {
  const ms = [...values].sort((a, b) => a - b);
  const at = (q) => (ms.length ? Math.round(ms[Math.min(ms.length - 1, Math.floor(q * ms.length))]) : null);
  return { count: ms.length, p50: at(0.5), p99: at(0.99), max: ms.length ? Math.round(ms.at(-1)) : null };
}

/** "2 × Intel …, 8 GiB, Node v22…, linux 6.…" */
export function machine() {
  const cpu = os.cpus();
  return `${cpu.length} × ${cpu[0]?.model?.trim() || 'unknown CPU'}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}, ${os.platform()} ${os.release()}`;
}

/** Exits unless the shop answers /ready and the fake PayPal is up in its normal mode. */
export async function requireShop(prefix = 'bench') {
  const ready = await call('GET', '/ready');
  if (ready.status !== 200) fail(`no ready shop at ${GATEWAY} (${ready.why}). Start it with npm start.`, prefix);
  const fake = await call('GET', `${PAYPAL}/__fake/health`);
  if (fake.status !== 200) fail(`no fake PayPal at ${PAYPAL} (${fake.why}); npm start runs it on :8090.`, prefix);
  if (fake.json?.mode !== 'normal')
    fail(`the fake PayPal is in mode ${fake.json?.mode}; set it back to normal first.`, prefix);
}

/** The seeded admin's token (exits when the login fails). */
export async function adminToken(prefix = 'bench') {
  const login = await call('POST', '/api/users/login', ADMIN);
  if (login.status !== 200 || !login.json?.token) fail(`admin login: ${login.why}`, prefix);
  return login.json.token;
}

/** The published catalogue (GET /api/products) and the images of its first product that has some. */
export async function catalogue(prefix = 'bench') {
  const list = await call('GET', '/api/products');
  const model = Array.isArray(list.json) ? list.json.find((p) => p.images?.length) : undefined;
  if (!model)
    fail(`GET /api/products: ${list.why}; the catalogue must be seeded (npm start seeds an empty database).`, prefix);
  return {
    products: list.json,
    images: model.images.map((i) => ({ url: i.url, altText: i.altText || 'Bench product' })),
  };
}

/**
 * The admin API's body of a bench's i-th product: published, `stock` units of each variant (sizes SIZES × colours
 * COLORS; the product's countInStock is their sum), priced £24.99, £31.00, £37.01, … (pence that do not round off).
 */
export function benchProduct(i, { stock, images, name, sku, description }) {
  return {
    name,
    description,
    price: Number(money(2499 + 601 * i)),
    sku: sku.toUpperCase(),
    category: 'Top Wear',
    gender: 'Men',
    brand: 'Baltimore Ravens',
    sizes: SIZES,
    colors: COLORS,
    variants: SIZES.flatMap((size) => COLORS.map((color) => ({ size, color, countInStock: stock }))),
    material: 'Polyester',
    images,
    isPublished: true,
  };
}

/**
 * Creates `count` products (benchProduct) through the admin API; exits when one fails. `name(i)` and `sku(i)` name
 * them. Returns the created products.
 */
export async function createProducts(token, { count, stock, images, name, sku, description }, prefix = 'bench') {
  const created = await pool(count, (i) =>
    call(
      'POST',
      '/api/admin/products',
      benchProduct(i, { stock, images, name: name(i), sku: sku(i), description }),
      token,
    ),
  );
  const bad = created.find((r) => r.status !== 201 || !r.json?._id);
  if (bad) fail(`creating products: ${bad.why}`, prefix);
  return created.map((r) => r.json);
}

/** countInStock of each product id (GET /api/admin/products/:id), as a Map; exits when a read fails. */
export async function stockOf(token, ids, prefix = 'bench') {
  const reads = await pool(ids.length, (i) => call('GET', `/api/admin/products/${ids[i]}`, undefined, token));
  const bad = reads.find((r) => r.status !== 200 || typeof r.json?.countInStock !== 'number');
  if (bad) fail(`reading stock: ${bad.why}`, prefix);
  return new Map(reads.map((r, i) => [ids[i], r.json.countInStock]));
}

/** Registers `count` customers (email `${emailPrefix}-${i}@example.com`); exits when one fails. Returns the answers. */
export async function registerCustomers(count, { name, emailPrefix, password }, prefix = 'bench') {
  const regs = await pool(count, (i) =>
    call('POST', '/api/users/register', { name: name(i), email: `${emailPrefix}-${i}@example.com`, password }),
  );
  const bad = regs.find((r) => r.status !== 201 || !r.json?.token);
  if (bad) fail(`registering buyers: ${bad.why}`, prefix);
  return regs.map((r) => r.json);
}
