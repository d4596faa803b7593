// Soak: `node scripts/bench/soak.mjs` against a running shop (`npm start`; figures: docs/performance.md,
// "Performance: soak").
//
// A mixed shopper load at a moderate, steady rate for SOAK_MINUTES, through the gateway, then checks that nothing
// was lost or broken. SOAK_USERS virtual shoppers, each a customer registered for the run, loop over scenarios
// (weights in brackets), pausing a think time between every two requests:
//   browse   (45) GET /api/products with 1–3 random filters (category, gender, size, color, brand, material,
//                 price range, search, sortBy, limit), a product page and its similar products, now and then the new
//                 arrivals or best sellers; now and then a deliberate 404 (an id no product has) or 400 (a bad price)
//   guest    (20) a fresh guest cart: add 2 lines, read, update a quantity, remove a line, read (now and then a
//                 deliberate 400: a read with neither guestId nor token)
//   merge    (10) a guest cart of seeded products, then log in (POST /api/users/login), merge it into the user's
//                 cart (POST /api/cart/merge), read, update a line, remove the merged lines, read the profile
//   purchase (25) as scripts/bench/checkout.mjs: add 1–2 units of one of the run's sale products, checkout with that
//                 line, pay on the fake PayPal and PUT …/pay, finalize; now and then read the order, the checkout
//                 and my-orders
// and SOAK_ADMINS admins loop over admin edits: the price of a sale product, the stock of one variant of an "edit"
// product (0–30, so that guest adds of it meet deliberate 409s), the status of an order of the run (Processing →
// Shipped → Delivered, one in ten Cancelled, which gives its stock back), and now and then the admin order and
// product lists.
// The run's products: SOAK_PRODUCTS sale products of SOAK_STOCK units (bought, their price edited, never their
// stock) and 3 edit products (carted by guests, their stock edited, never bought), all unpublished at the end.
//
// Every answer is counted by route and status. A non-2xx is "deliberate" only where the scenario asked for it
// (listed above); any other non-2xx, a 5xx, a timeout or a dropped connection is an error.
// RSS: the processes of the stack (pid files .data/run/<SOAK_SCOPE>-*.pid, as footprint.mjs) are read every 5 s
// under load. A process's figure after warm-up is the median of its readings in the SOAK_RSS_WINDOW_SECONDS after
// SOAK_WARMUP_SECONDS, its figure at the end the median of those in the last window of the load: a Node process's
// RSS saws up and down by a fifth between major collections within a minute, so one reading at each end would
// compare two random points of that saw. The fake PayPal and the dev database (FerretDB), development stand-ins, are
// shown but not held to the limit (the fake PayPal as in footprint.mjs; FerretDB's memory follows the data the run
// adds). The machine's load average is read every 10 s (a busy machine slows the shop down). The shoppers start
// spread over SOAK_RAMP_SECONDS. After SOAK_SETTLE seconds for the events and the checkout sweeper, the CHECKS (exit
// 1 if any fails):
//   errors  — no request answered other than 2xx or a deliberate 4xx;
//   orders  — every checkout the soak paid became exactly one order (each shopper's my-orders checkoutIds), none
//             the soak did not pay but for those whose PUT …/pay failed after PayPal took the money (the checkout
//             sweeper settles and finalizes them);
//   stock   — per sale product, starting stock − units of its orders that are not cancelled = stock now (after an
//             error, stock held by a checkout whose payment failed may still be out until its hold expires: the
//             check then allows that many units less, never more);
//   money   — every fake PayPal capture whose PUT …/pay failed paid its checkout after all or was refunded;
//   edits   — every admin edit stuck: each sale product has its last price, each edit product its last stock,
//             each order its last status;
//   memory  — the RSS of each of the shop's processes at the end is within SOAK_RSS_TOLERANCE (10 %) of its figure after
//             warm-up (the stand-ins above are shown, not checked).
// Then prints a Markdown summary to paste into docs/performance.md (SOAK_JSON writes the figures as JSON too).
//
// Environment:
//   GATEWAY_URL, PAYPAL_URL  default http://127.0.0.1:8080 and :8090; loopback only (a soak of someone else's shop
//                            is refused)
//   SOAK_MINUTES         load duration, default 10 (decimals allowed: 1.5)
//   SOAK_WARMUP_SECONDS  the RSS baseline window starts this long into the load, default 120
//   SOAK_USERS           virtual shoppers, default 20
//   SOAK_ADMINS          virtual admins, default 1
//   SOAK_THINK_MS        mean pause between two requests of one virtual user (uniform 0.5×–1.5×), default 1000
//   SOAK_PRODUCTS        sale products created for the run, default 6; SOAK_STOCK units each, default 100000
//   SOAK_RAMP_SECONDS    the shoppers start spread over this long, default 30
//   SOAK_SETTLE          seconds to wait after the load before checking, default 90: beyond the checkout sweeper's
//                        FINALIZE_GRACE_MS (60 s) + FINALIZE_SWEEP_MS (15 s), after which a payment whose PUT …/pay
//                        failed is settled (paid, or refunded); shorter with a shop started with shorter ones
//   SOAK_SCOPE           pid-file scope of the stack's processes, default dev (npm start)
//   SOAK_RSS_TOLERANCE   default 0.10
//   SOAK_RSS_WINDOW_SECONDS  default 60
//   SOAK_JSON            write the results to this file as JSON too
import crypto from 'node:crypto';
import fs from 'node:fs';
import { performance } from 'node:perf_hooks';
import os from 'node:os';
import { rssKiB, stackProcesses } from './lib/rss.mjs';
import {
  ADDRESS,
  COLORS,
  GATEWAY,
  PAYPAL,
  SIZES,
  adminToken,
  call,
  catalogue,
  createProducts,
  fail as failWith,
  isLoopback,
  machine,
  money,
  pence,
  pool,
  quantiles,
  registerCustomers,
  requireShop,
  sleep,
  stockOf as readStock,
} from './lib/shop.mjs';

const MINUTES = Number(process.env.SOAK_MINUTES || 10);
const WARMUP = Number(process.env.SOAK_WARMUP_SECONDS || 120);
const USERS = Number(process.env.SOAK_USERS || 20);
const ADMINS = Number(process.env.SOAK_ADMINS || 1);
const THINK = Number(process.env.SOAK_THINK_MS || 1000);
const PRODUCTS = Number(process.env.SOAK_PRODUCTS || 6);
const STOCK = Number(process.env.SOAK_STOCK || 100000);
const EDIT_PRODUCTS = 3;
const SETTLE = Number(process.env.SOAK_SETTLE || 90);
const RAMP = Number(process.env.SOAK_RAMP_SECONDS || 30);
const SCOPE = process.env.SOAK_SCOPE || 'dev';
const TOLERANCE = Number(process.env.SOAK_RSS_TOLERANCE || 0.1);
const RSS_WINDOW = Number(process.env.SOAK_RSS_WINDOW_SECONDS || 60);
const RSS_EVERY_MS = 5000;
/**
 * Development stand-ins: their RSS is shown, not checked. The fake PayPal is not ours to ship; the dev database
 * (FerretDB on SQLite, standing in for MongoDB) decodes every document of a collection for any query but one by
 * `_id`, so its memory follows the data the run adds, as a database's cache does (docs/performance.md,
 * "Soak"); at a fixed amount of data it is flat.
 */
const NOT_CHECKED = new Set(['fake-paypal', 'ferretdb']);
const RUN = Date.now().toString(36);
const PASSWORD = 'Soak!2345shopper';

const fail = (message) => failWith(message, 'soak');
for (const [name, url] of [
  ['GATEWAY_URL', GATEWAY],
  ['PAYPAL_URL', PAYPAL],
])
  if (!isLoopback(url)) fail(`${name} ${url} is not on this machine: the soak runs against a local shop only.`);
for (const [name, value, min] of [
  ['SOAK_MINUTES', MINUTES, 0.1],
  ['SOAK_WARMUP_SECONDS', WARMUP, 1],
  ['SOAK_USERS', USERS, 1],
  ['SOAK_ADMINS', ADMINS, 0],
  ['SOAK_THINK_MS', THINK, 0],
  ['SOAK_PRODUCTS', PRODUCTS, 1],
  ['SOAK_STOCK', STOCK, 1],
  ['SOAK_SETTLE', SETTLE, 0],
  ['SOAK_RAMP_SECONDS', RAMP, 0],
])
  if (!Number.isFinite(value) || value < min) fail(`${name} must be a number ≥ ${min} (got ${value})`);
if (WARMUP + 2 * RSS_WINDOW > MINUTES * 60)
  fail(
    `SOAK_MINUTES (${MINUTES}) must cover SOAK_WARMUP_SECONDS (${WARMUP}) and two SOAK_RSS_WINDOW_SECONDS (${RSS_WINDOW})`,
  );

const rand = (n) => Math.floor(Math.random() * n);
const pick = (list) => list[rand(list.length)];
const chance = (p) => Math.random() < p;
const think = () => sleep(THINK * (0.5 + Math.random()));

// ------------------------------------------------------------------ counting every answer

const routes = new Map(); // route → {ms: [], statuses: Map(status → count), deliberate: Map, errors: Map}
const errorSamples = new Map(); // "route status" → first answer
const errorsAt = []; // seconds into the load of each error
let stopping = false;

/**
 * One request, counted under `route` (a template such as "GET /api/products/:id"). `deliberate` lists the non-2xx
 * statuses this request asked for; any other non-2xx (or status 0: no answer) is an error.
 */
async function req(route, method, url, { body, token, deliberate = [] } = {}) {
  const r = await call(method, url, body, token);
  let row = routes.get(route);
  if (!row) routes.set(route, (row = { ms: [], statuses: new Map(), deliberate: new Map(), errors: new Map() }));
  row.ms.push(r.ms);
  row.statuses.set(r.status, (row.statuses.get(r.status) ?? 0) + 1);
  r.ok = r.status >= 200 && r.status < 300;
  if (!r.ok) {
    const kind = deliberate.includes(r.status) ? row.deliberate : row.errors;
    kind.set(r.status, (kind.get(r.status) ?? 0) + 1);
    if (kind === row.errors) errorsAt.push(Math.round((performance.now() - loadStart) / 1000));
    if (kind === row.errors && !errorSamples.has(`${route} ${r.status}`))
      errorSamples.set(`${route} ${r.status}`, `${r.why} (at ${new Date().toISOString()})`);
  }
  return r;
}

// ------------------------------------------------------------------ the shop, the run's products and shoppers

await requireShop('soak');
const procsAtStart = stackProcesses(SCOPE);
const admin = await adminToken('soak');
const { products: seeded, images } = await catalogue('soak');
const sale = await createProducts(
  admin,
  {
    count: PRODUCTS,
    stock: STOCK,
    images,
    name: (i) => `Soak jersey ${RUN} #${i + 1}`,
    sku: (i) => `SOAK-${RUN}-${i + 1}`,
    description: 'A product created by scripts/bench/soak.mjs: bought during the soak, so its stock is known exactly.',
  },
  'soak',
);
const edit = await createProducts(
  admin,
  {
    count: EDIT_PRODUCTS,
    stock: 20,
    images,
    name: (i) => `Soak cap ${RUN} #${i + 1}`,
    sku: (i) => `SOAK-ED-${RUN}-${i + 1}`,
    description: 'A product created by scripts/bench/soak.mjs: carted during the soak, its stock edited, never bought.',
  },
  'soak',
);
const saleIds = sale.map((p) => p._id);
const stockBefore = await readStock(admin, saleIds, 'soak');
const lastPrice = new Map(sale.map((p) => [p._id, pence(p.price)]));
/** Each edit product's variants as an admin last set them (a stock edit sends them all, one count changed). */
const lastVariants = new Map(
  edit.map((p) => [
    p._id,
    p.variants.map(({ sku, size, color, countInStock }) => ({ sku, size, color, countInStock })),
  ]),
);
const unitsOf = (variants) => variants.reduce((n, v) => n + v.countInStock, 0);
/** Lines a guest may put in a cart: the seeded variants with 3 or more in stock, and the edit products. */
const seededLines = seeded.flatMap((p) =>
  p.variants
    .filter((v) => v.countInStock >= 3)
    .map((v) => ({ productId: p._id, sizes: [v.size ?? ''], colors: [v.color ?? ''] })),
);
if (!seededLines.length) fail('the seeded catalogue has no variant with 3 or more in stock to put in carts');
const editLines = edit.map((p) => ({ productId: p._id, sizes: SIZES, colors: COLORS, edit: true }));
/** A cart line of product `p` in one of its sizes and colours; `edit` marks an edit product (409 deliberate). */
const lineOf = (p) => ({ productId: p.productId, size: pick(p.sizes), color: pick(p.colors), edit: Boolean(p.edit) });
const browseIds = [...seeded.map((p) => p._id), ...saleIds, ...edit.map((p) => p._id)];

const regs = await registerCustomers(
  USERS,
  { name: (i) => `Soak shopper ${i}`, emailPrefix: `soak-${RUN}`, password: PASSWORD },
  'soak',
);
const shoppers = regs.map((r, i) => ({
  index: i,
  email: `soak-${RUN}-${i}@example.com`,
  token: r.token,
  guests: 0,
  scenarios: { browse: 0, guest: 0, merge: 0, purchase: 0 },
  paid: new Set(), // checkout ids this shopper paid (PUT …/pay answered 200)
  finalized: new Map(), // checkout id → order id from the finalize answer
  unfinished: [], // checkouts created but not finalized: {id, items, paid, paypalOrderId}
}));
const orders = []; // {id, status, buyer} of every finalized order, for the admins
const lastStatus = new Map(); // order id → the status an admin last set
const saleSet = new Set(saleIds);

// ------------------------------------------------------------------ scenarios

const FILTERS = {
  category: ['Top Wear', 'Bottom Wear', 'Accessories', 'Equipment'],
  gender: ['Men', 'Women'],
  size: ['S', 'M', 'L', 'XL', 'M,L'],
  color: ['Black', 'Purple', 'Red', 'White,Black'],
  brand: ['Baltimore Ravens', 'Philadelphia Eagles', 'Kansas City Chiefs'],
  material: ['Polyester', 'Cotton'],
  minPrice: ['10', '20.50'],
  maxPrice: ['40', '99.99'],
  search: ['jersey', 'cap', 'soak', 'hoodie'],
  sortBy: ['priceAsc', 'priceDesc', 'popularity', 'newest'],
  limit: ['8', '12', '24'],
};

async function browse() {
  const keys = Object.keys(FILTERS);
  const query = new URLSearchParams();
  for (let i = 0, n = 1 + rand(3); i < n; i++) {
    const key = pick(keys);
    query.set(key, pick(FILTERS[key]));
  }
  const list = await req('GET /api/products?filters', 'GET', `/api/products?${query}`);
  await think();
  const found = Array.isArray(list.json) && list.json.length ? pick(list.json)._id : pick(browseIds);
  await req('GET /api/products/:id', 'GET', `/api/products/${found}`);
  await think();
  await req('GET /api/products/similar/:id', 'GET', `/api/products/similar/${found}`);
  if (chance(0.3)) {
    await think();
    const which = pick(['new-arrivals', 'best-seller']);
    await req(`GET /api/products/${which}`, 'GET', `/api/products/${which}`);
  }
  if (chance(0.05)) {
    await think();
    await req('GET /api/products/:id', 'GET', `/api/products/${crypto.randomBytes(12).toString('hex')}`, {
      deliberate: [404],
    });
  }
  if (chance(0.03)) {
    await think();
    await req('GET /api/products?filters', 'GET', '/api/products?minPrice=cheap', { deliberate: [400] });
  }
}

/** Adds `quantity` of `line` to the cart of `owner` ({guestId} or {token}); 409 is deliberate for an edit product. */
function addLine(owner, line, quantity) {
  const { productId, size, color } = line;
  return req('POST /api/cart', 'POST', '/api/cart', {
    body: { ...(owner.guestId ? { guestId: owner.guestId } : {}), productId, size, color, quantity },
    token: owner.token,
    deliberate: line.edit ? [409] : [],
  });
}

async function guestCart(shopper) {
  const guestId = `guest_soak${RUN}_${shopper.index}_${shopper.guests++}`;
  const chosen = [lineOf(pick(seededLines)), chance(0.5) ? lineOf(pick(editLines)) : lineOf(pick(seededLines))];
  const lines = [];
  for (const [i, line] of chosen.entries()) {
    const add = await addLine({ guestId }, line, 1);
    if (add.ok) lines.push(line);
    if (i === 0) await think();
  }
  await think();
  await req('GET /api/cart', 'GET', `/api/cart?guestId=${guestId}`);
  if (!lines.length) return;
  await think();
  const first = lines[0];
  await req('PUT /api/cart', 'PUT', '/api/cart', {
    body: { guestId, productId: first.productId, size: first.size, color: first.color, quantity: 2 },
    deliberate: first.edit ? [409] : [],
  });
  await think();
  const last = lines.at(-1);
  await req('DELETE /api/cart', 'DELETE', '/api/cart', {
    body: { guestId, productId: last.productId, size: last.size, color: last.color },
  });
  await think();
  await req('GET /api/cart', 'GET', `/api/cart?guestId=${guestId}`);
  if (chance(0.05)) {
    await think();
    await req('GET /api/cart', 'GET', '/api/cart', { deliberate: [400] });
  }
}

async function mergeCart(shopper) {
  const guestId = `guest_soak${RUN}_${shopper.index}_${shopper.guests++}`;
  for (let i = 0, n = 1 + rand(2); i < n; i++) {
    await addLine({ guestId }, lineOf(pick(seededLines)), 1);
    await think();
  }
  const login = await req('POST /api/users/login', 'POST', '/api/users/login', {
    body: { email: shopper.email, password: PASSWORD },
  });
  if (!login.ok || !login.json?.token) return;
  shopper.token = login.json.token;
  await think();
  const merged = await req('POST /api/cart/merge', 'POST', '/api/cart/merge', {
    body: { guestId },
    token: shopper.token,
  });
  if (!merged.ok) return;
  await think();
  await req('GET /api/cart', 'GET', '/api/cart', { token: shopper.token });
  // Only the merged (seeded) lines: a sale product's line may be a purchase whose order event is on its way.
  const mine = (merged.json?.products ?? []).filter((l) => !saleSet.has(String(l.productId)));
  if (mine.length) {
    await think();
    const l = mine[0];
    await req('PUT /api/cart', 'PUT', '/api/cart', {
      body: { productId: l.productId, size: l.size, color: l.color, quantity: Math.min(3, l.quantity + 1) },
      token: shopper.token,
    });
  }
  for (const l of mine) {
    await think();
    await req('DELETE /api/cart', 'DELETE', '/api/cart', {
      body: { productId: l.productId, size: l.size, color: l.color },
      token: shopper.token,
    });
  }
  await think();
  await req('GET /api/users/profile', 'GET', '/api/users/profile', { token: shopper.token });
}

async function purchase(shopper) {
  const product = pick(sale);
  const size = pick(SIZES);
  const color = pick(COLORS);
  const add = await addLine({ token: shopper.token }, { productId: product._id, size, color }, 1 + rand(2));
  if (!add.ok) return;
  await think();
  const lines = (add.json?.products ?? []).filter((l) => saleSet.has(String(l.productId)));
  const checkout = await req('POST /api/checkout', 'POST', '/api/checkout', {
    body: {
      checkoutItems: lines.map((l) => ({ productId: l.productId, quantity: l.quantity, size: l.size, color: l.color })),
      shippingAddress: ADDRESS,
      paymentMethod: 'PayPal',
      totalPrice: Number(money(lines.reduce((n, l) => n + pence(l.price) * l.quantity, 0))),
    },
    token: shopper.token,
  });
  if (!checkout.ok || !checkout.json?._id) return;
  const id = checkout.json._id;
  const pending = {
    id,
    items: checkout.json.checkoutItems.map((l) => ({ productId: l.productId, quantity: l.quantity })),
    paid: false,
    paypalOrderId: undefined,
  };
  shopper.unfinished.push(pending);
  await think();
  const paypal = await req('POST (fake PayPal) /__fake/orders', 'POST', `${PAYPAL}/__fake/orders`, {
    body: { value: money(pence(checkout.json.totalPrice)) },
  });
  if (!paypal.ok || !paypal.json?.id) return;
  pending.paypalOrderId = paypal.json.id;
  const pay = await req('PUT /api/checkout/:id/pay', 'PUT', `/api/checkout/${id}/pay`, {
    body: { paymentStatus: 'paid', paymentDetails: { id: paypal.json.id } },
    token: shopper.token,
  });
  if (!pay.ok || pay.json?.isPaid !== true) return;
  shopper.paid.add(id);
  pending.paid = true;
  const finalize = await req('POST /api/checkout/:id/finalize', 'POST', `/api/checkout/${id}/finalize`, {
    token: shopper.token,
  });
  if (!finalize.ok || !finalize.json?._id) return;
  shopper.finalized.set(id, finalize.json._id);
  shopper.unfinished.splice(shopper.unfinished.indexOf(pending), 1);
  orders.push({ id: finalize.json._id, status: finalize.json.status || 'Processing', buyer: shopper });
  if (chance(0.3)) {
    await think();
    await req('GET /api/orders/:id', 'GET', `/api/orders/${finalize.json._id}`, { token: shopper.token });
  }
  if (chance(0.2)) {
    await think();
    await req('GET /api/checkout/:id', 'GET', `/api/checkout/${id}`, { token: shopper.token });
  }
  if (chance(0.2)) {
    await think();
    await req('GET /api/orders/my-orders', 'GET', '/api/orders/my-orders', { token: shopper.token });
  }
}

const SCENARIOS = [
  ['browse', 45, browse],
  ['guest', 20, guestCart],
  ['merge', 10, mergeCart],
  ['purchase', 25, purchase],
];
const WEIGHT = SCENARIOS.reduce((n, s) => n + s[1], 0);

async function shopperLoop(shopper) {
  await sleep((RAMP * 1000 * shopper.index) / USERS + rand(THINK)); // spread the starts over the ramp
  while (!stopping) {
    let r = rand(WEIGHT);
    const [name, , run] = SCENARIOS.find(([, w]) => (r -= w) < 0);
    shopper.scenarios[name]++;
    await run(shopper);
    await think();
  }
}

const NEXT_STATUS = { Processing: 'Shipped', Shipped: 'Delivered' };
const adminEdits = { price: 0, stock: 0, status: 0, cancelled: 0, lists: 0 };

async function adminLoop() {
  await sleep(rand(THINK * 2));
  while (!stopping) {
    const what = rand(10);
    if (what < 3) {
      const p = pick(sale);
      const price = 1999 + rand(4000);
      const r = await req('PUT /api/admin/products/:id', 'PUT', `/api/admin/products/${p._id}`, {
        body: { price: Number(money(price)) },
        token: admin,
      });
      if (r.ok) lastPrice.set(p._id, price);
      adminEdits.price++;
    } else if (what < 5) {
      const p = pick(edit);
      const variants = lastVariants.get(p._id);
      const changed = rand(variants.length);
      const next = variants.map((v, i) => (i === changed ? { ...v, countInStock: rand(31) } : v));
      const r = await req('PUT /api/admin/products/:id', 'PUT', `/api/admin/products/${p._id}`, {
        body: { variants: next },
        token: admin,
      });
      if (r.ok) lastVariants.set(p._id, next);
      adminEdits.stock++;
    } else if (what < 8) {
      const open = orders.filter((o) => NEXT_STATUS[o.status]);
      if (open.length) {
        const o = pick(open);
        const status = chance(0.1) ? 'Cancelled' : NEXT_STATUS[o.status];
        const r = await req('PUT /api/admin/orders/:id', 'PUT', `/api/admin/orders/${o.id}`, {
          body: { status },
          token: admin,
        });
        if (r.ok) {
          o.status = status;
          lastStatus.set(o.id, status);
          if (status === 'Cancelled') adminEdits.cancelled++;
        }
        adminEdits.status++;
      }
    } else {
      const which = pick(['/api/admin/orders', '/api/admin/products']);
      await req(`GET ${which}`, 'GET', which, { token: admin });
      adminEdits.lists++;
    }
    await think();
  }
}

// ------------------------------------------------------------------ the load, and the memory under it

console.log(`Soak — ${new Date().toISOString()} — ${GATEWAY}, fake PayPal ${PAYPAL}, scope "${SCOPE}"`);
console.log(`  machine: ${machine()}`);
console.log(
  `  ${USERS} shoppers + ${ADMINS} admin(s), think time ${THINK} ms (0.5×–1.5×), ${MINUTES} min of load, RSS compared between the ${RSS_WINDOW} s after ${WARMUP} s and the last ${RSS_WINDOW} s; ` +
    `${PRODUCTS} sale products of ${STOCK} units and ${EDIT_PRODUCTS} edit products created for this run`,
);
if (!procsAtStart.size)
  console.log(`  (no live pid files .data/run/${SCOPE}-*.pid: the memory check will fail; set SOAK_SCOPE)`);
else console.log(`  processes (scope ${SCOPE}): ${[...procsAtStart].map(([n, pid]) => `${n} ${pid}`).join(', ')}`);

const loadStart = performance.now();
const loadMs = MINUTES * 60000;
const rssReadings = []; // {t: seconds into the load, mb: Map(name → MB)} every 5 s
const loadAvg = []; // the machine's 1-minute load average every 10 s
const readRss = () =>
  rssReadings.push({
    t: (performance.now() - loadStart) / 1000,
    mb: new Map([...procsAtStart].map(([name, pid]) => [name, rssKiB(pid) / 1024])),
  });
readRss();
const rssWatch = setInterval(readRss, RSS_EVERY_MS);
const loadWatch = setInterval(() => loadAvg.push(os.loadavg()[0]), 10000);
const warmedUp = setTimeout(
  () => console.log(`  warm-up over (${WARMUP} s): ${totalRequests()} requests so far`),
  WARMUP * 1000,
);
function totalRequests() {
  return [...routes.values()].reduce((n, r) => n + r.ms.length, 0);
}
const progress = setInterval(() => {
  const errors = [...routes.values()].reduce((n, r) => n + [...r.errors.values()].reduce((a, b) => a + b, 0), 0);
  const done = shoppers.reduce((n, s) => n + s.finalized.size, 0);
  console.log(
    `  ${Math.round((performance.now() - loadStart) / 1000)} s: ${totalRequests()} requests, ${done} orders, ${errors} errors; load average ${os.loadavg()[0].toFixed(1)}`,
  );
}, 60000);

const loops = [...shoppers.map((s) => shopperLoop(s)), ...Array.from({ length: ADMINS }, () => adminLoop())];
await sleep(loadMs);
readRss();
const procsEnd = stackProcesses(SCOPE);
stopping = true;
clearInterval(rssWatch);
clearInterval(loadWatch);
clearTimeout(warmedUp);
await Promise.all(loops); // each virtual user finishes the scenario it is in
clearInterval(progress);
const loadSeconds = (performance.now() - loadStart) / 1000;

// ------------------------------------------------------------------ checks

console.log(`  load over after ${loadSeconds.toFixed(0)} s; waiting ${SETTLE} s for the events to settle …`);
await sleep(SETTLE * 1000);
const checks = [];
const check = (name, pass, detail) => checks.push({ check: name, pass, detail });
const show = (list) => (list.length ? ` — ${list.slice(0, 5).join('; ')}${list.length > 5 ? ' …' : ''}` : '');

// Errors: every non-2xx that was not asked for.
const routeRows = [...routes.entries()]
  .map(([route, r]) => ({
    route,
    ...quantiles(r.ms),
    deliberate: Object.fromEntries(r.deliberate),
    errors: Object.fromEntries(r.errors),
  }))
  .sort((a, b) => b.count - a.count);
const errorCount = routeRows.reduce((n, r) => n + Object.values(r.errors).reduce((a, b) => a + b, 0), 0);
const deliberateCount = routeRows.reduce((n, r) => n + Object.values(r.deliberate).reduce((a, b) => a + b, 0), 0);
const requestCount = totalRequests();
check(
  'no errors (every answer 2xx or a deliberate 4xx)',
  errorCount === 0,
  `${requestCount} requests, ${deliberateCount} deliberate 4xx, ${errorCount} errors` +
    show([...errorSamples].map(([k, v]) => `${k}: ${v}`)),
);

// Orders: each shopper's orders against the checkouts it paid; units per sale product of the orders not cancelled.
/** A read for the checks: retried (5 tries, 2 s apart) on a 5xx or no answer, which the error check already counts. */
async function read(url, token) {
  let r;
  for (let i = 0; i < 5; i++) {
    if (i) await sleep(2000);
    r = await call('GET', url, undefined, token);
    if (r.status !== 0 && r.status < 500) break;
  }
  return r;
}
const mine = await pool(USERS, (i) => read('/api/orders/my-orders', shoppers[i].token));
const badMine = mine.find((r) => r.status !== 200 || !Array.isArray(r.json));
if (badMine) fail(`GET /api/orders/my-orders: ${badMine.why}`);
const sold = new Map(saleIds.map((id) => [id, 0]));
const listedStatus = new Map();
let paidCount = 0;
let orderCount = 0;
let cancelledUnits = 0;
const missing = [];
const duplicates = [];
const strangers = [];
const mismatched = [];
const settledByService = []; // captured at PayPal, PUT …/pay failed: the service's sweeper settled and finalized it
shoppers.forEach((s, i) => {
  const seen = new Map();
  const captured = new Set(s.unfinished.filter((u) => u.paypalOrderId && !u.paid).map((u) => u.id));
  for (const order of mine[i].json) {
    orderCount++;
    listedStatus.set(order._id, order.status);
    seen.set(order.checkoutId, (seen.get(order.checkoutId) ?? 0) + 1);
    if (captured.has(order.checkoutId)) settledByService.push(order.checkoutId);
    else if (!s.paid.has(order.checkoutId)) strangers.push(`${order._id} (checkout ${order.checkoutId}, shopper ${i})`);
    else if (s.finalized.has(order.checkoutId) && s.finalized.get(order.checkoutId) !== order._id)
      mismatched.push(
        `checkout ${order.checkoutId}: finalize answered ${s.finalized.get(order.checkoutId)}, listed ${order._id}`,
      );
    for (const item of order.orderItems ?? []) {
      const id = String(item.productId);
      if (!sold.has(id)) continue;
      if (order.status === 'Cancelled') cancelledUnits += item.quantity;
      else sold.set(id, sold.get(id) + item.quantity);
    }
  }
  paidCount += s.paid.size;
  for (const id of s.paid) if (!seen.has(id)) missing.push(`${id} (shopper ${i})`);
  for (const [id, n] of seen) if (n > 1) duplicates.push(`${id} × ${n} (shopper ${i})`);
});
const finalizedCount = shoppers.reduce((n, s) => n + s.finalized.size, 0);
check(
  'every paid checkout became exactly one order',
  missing.length + duplicates.length + strangers.length + mismatched.length === 0,
  `${paidCount} checkouts paid, ${finalizedCount} finalized, ${orderCount} orders listed; ${missing.length} missing, ` +
    `${duplicates.length} duplicated, ${strangers.length} not paid by the soak, ${mismatched.length} with another order id; ` +
    `${settledByService.length} whose PUT …/pay failed after PayPal took the money, settled and placed by the service` +
    show([...missing, ...duplicates, ...strangers, ...mismatched]),
);

// Stock: starting stock − units of the orders not cancelled = stock now, per sale product.
const nowSale = await pool(saleIds.length, (i) => read(`/api/admin/products/${saleIds[i]}`, admin));
const badSale = nowSale.find((r) => r.status !== 200 || typeof r.json?.countInStock !== 'number');
if (badSale) fail(`reading stock: ${badSale.why}`);
const stockAfter = new Map(nowSale.map((r, i) => [saleIds[i], r.json.countInStock]));
// Units a checkout left unfinished after an error may still hold: one whose payment failed and that is no order.
const ordered = new Set(mine.flatMap((r) => r.json.map((o) => o.checkoutId)));
const held = new Map(saleIds.map((id) => [id, 0]));
for (const s of shoppers)
  for (const u of s.unfinished)
    if (!ordered.has(u.id))
      for (const item of u.items) held.set(item.productId, (held.get(item.productId) ?? 0) + item.quantity);
const stockRows = saleIds.map((id) => ({
  productId: id,
  before: stockBefore.get(id),
  sold: sold.get(id),
  after: stockAfter.get(id),
  heldByUnfinished: held.get(id),
}));
const soldUnits = stockRows.reduce((n, r) => n + r.sold, 0);
const heldUnits = stockRows.reduce((n, r) => n + r.heldByUnfinished, 0);
// Never more out than sold and held (no unit lost), never less than sold (none oversold).
const stockOk = (r) => r.after <= r.before - r.sold && r.after >= r.before - r.sold - r.heldByUnfinished;
check(
  'stock: starting stock − units of the orders not cancelled = stock now, per sale product',
  stockRows.every(stockOk),
  `${soldUnits} units sold (${cancelledUnits} more given back by cancellations)` +
    (heldUnits ? `, ${heldUnits} held by checkouts whose payment failed (until their hold expires)` : '') +
    ': ' +
    stockRows
      .map((r) => {
        const equal = r.before - r.sold === r.after;
        return (
          `${r.before} − ${r.sold} ${equal ? '=' : '≠'} ${r.after}` +
          (equal
            ? ''
            : ` (${r.before - r.sold - r.after} out, ${r.heldByUnfinished} held${stockOk(r) ? '' : ': WRONG'})`)
        );
      })
      .join('; '),
);

// Money: a PayPal capture whose checkout the soak could not mark paid must have paid it after all or been refunded.
const captured = shoppers.flatMap((s) =>
  s.unfinished.filter((u) => u.paypalOrderId && !u.paid).map((u) => ({ ...u, s })),
);
const stranded = [];
for (const u of captured) {
  const [co, pp] = await Promise.all([
    read(`/api/checkout/${u.id}`, u.s.token),
    read(`${PAYPAL}/__fake/orders/${u.paypalOrderId}`),
  ]);
  const capture = pp.json?.order?.purchase_units?.[0]?.payments?.captures?.[0]?.status ?? `HTTP ${pp.status}`;
  if (co.json?.isPaid !== true && capture !== 'REFUNDED')
    stranded.push(`checkout ${u.id} isPaid ${co.json?.isPaid}, PayPal ${u.paypalOrderId} capture ${capture}`);
}
check(
  'every PayPal capture paid its checkout or was refunded',
  stranded.length === 0,
  `${captured.length} captures whose PUT …/pay failed; ${stranded.length} of them neither paid nor refunded` +
    show(stranded),
);

// Admin edits: the last price, stock and status each admin set are what the shop holds now.
const nowEdit = await pool(edit.length, (i) => read(`/api/admin/products/${edit[i]._id}`, admin));
const lostEdits = [];
nowSale.forEach((r, i) => {
  if (pence(r.json?.price ?? NaN) !== lastPrice.get(saleIds[i]))
    lostEdits.push(`price of ${saleIds[i]}: £${money(lastPrice.get(saleIds[i]))} set, ${r.json?.price ?? r.why} read`);
});
nowEdit.forEach((r, i) => {
  const set = unitsOf(lastVariants.get(edit[i]._id));
  if (r.json?.countInStock !== set)
    lostEdits.push(`stock of ${edit[i]._id}: ${set} set, ${r.json?.countInStock ?? r.why} read`);
});
for (const [id, status] of lastStatus)
  if (listedStatus.get(id) !== status) lostEdits.push(`order ${id}: ${status} set, ${listedStatus.get(id)} listed`);
check(
  'every admin edit stuck (last price, stock and status set are the ones read)',
  lostEdits.length === 0,
  `${adminEdits.price} price edits, ${adminEdits.stock} stock edits, ${adminEdits.status} status changes (${adminEdits.cancelled} cancellations)` +
    show(lostEdits),
);

// Memory: the median RSS of the last window of the load against that of the window after the warm-up, per process.
const median = (values) => (values.length ? [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] : NaN);
const windowOf = (name, from, to) =>
  rssReadings.filter((r) => r.t >= from && r.t <= to && Number.isFinite(r.mb.get(name))).map((r) => r.mb.get(name));
const rssRows = [...procsAtStart.keys()].map((name) => {
  const warmReadings = windowOf(name, WARMUP, WARMUP + RSS_WINDOW);
  const endReadings = windowOf(name, loadMs / 1000 - RSS_WINDOW, Infinity);
  const warm = median(warmReadings);
  const end = median(endReadings);
  const alive = procsEnd.get(name) === procsAtStart.get(name);
  const change = warm && end ? (end - warm) / warm : NaN;
  return {
    name,
    pid: procsAtStart.get(name),
    warmMB: warm,
    endMB: end,
    readings: [warmReadings.length, endReadings.length],
    change,
    alive,
    checked: !NOT_CHECKED.has(name),
  };
});
const rssBad = rssRows.filter((r) => r.checked && (!r.alive || !(Math.abs(r.change) <= TOLERANCE)));
check(
  `memory: each process's RSS at the end within ${Math.round(TOLERANCE * 100)} % of its figure after warm-up`,
  rssRows.length > 0 && rssBad.length === 0,
  rssRows.length
    ? rssRows
        .map(
          (r) =>
            `${r.name} ${r.warmMB?.toFixed(0)} → ${r.endMB?.toFixed(0)} MB (${r.change >= 0 ? '+' : ''}${(r.change * 100).toFixed(1)} %)${r.alive ? '' : ' RESTARTED OR GONE'}${r.checked ? '' : ' not checked'}`,
        )
        .join(', ')
    : `no process found by its pid file .data/run/${SCOPE}-*.pid (set SOAK_SCOPE to the stack's scope)`,
);

// Tidy up: the run's products leave the shop window.
await pool([...saleIds, ...edit.map((p) => p._id)].length, (i) =>
  call('PUT', `/api/admin/products/${[...saleIds, ...edit.map((p) => p._id)][i]}`, { isPublished: false }, admin),
);

// ------------------------------------------------------------------ the summary (Markdown)

const scenarios = shoppers.reduce((acc, s) => {
  for (const [k, v] of Object.entries(s.scenarios)) acc[k] = (acc[k] ?? 0) + v;
  return acc;
}, {});
const fmt = (m) =>
  Object.entries(m)
    .map(([status, n]) => `${n} × ${status === '0' ? 'no answer' : status}`)
    .join(', ');
const out = [];
out.push('');
out.push(`### Soak run ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC`);
out.push('');
out.push(`- target: ${GATEWAY} (fake PayPal ${PAYPAL}), processes of scope \`${SCOPE}\`; machine: ${machine()}`);
out.push(
  `- load: ${USERS} shoppers + ${ADMINS} admin(s), think time ${THINK} ms, ${loadSeconds.toFixed(0)} s (RSS windows ${WARMUP}–${WARMUP + RSS_WINDOW} s and the last ${RSS_WINDOW} s); ` +
    `${requestCount} requests = ${(requestCount / loadSeconds).toFixed(1)}/s; scenarios: ${Object.entries(scenarios)
      .map(([k, v]) => `${v} ${k}`)
      .join(
        ', ',
      )}; ${finalizedCount} orders; admin: ${adminEdits.price} price, ${adminEdits.stock} stock, ${adminEdits.status} status edits`,
);
out.push('');
out.push('| route | requests | p50 ms | p99 ms | max ms | deliberate 4xx | errors |');
out.push('| --- | ---: | ---: | ---: | ---: | --- | --- |');
for (const r of routeRows)
  out.push(
    `| ${r.route} | ${r.count} | ${r.p50} | ${r.p99} | ${r.max} | ${fmt(r.deliberate) || '–'} | ${fmt(r.errors) || '0'} |`,
  );
out.push('');
out.push(
  `| process | RSS after warm-up (MB, median ${WARMUP}–${WARMUP + RSS_WINDOW} s) | RSS at end (MB, median of the last ${RSS_WINDOW} s) | change |`,
);
out.push('| --- | ---: | ---: | ---: |');
for (const r of rssRows)
  out.push(
    `| ${r.name}${r.checked ? '' : ' (stand-in, not checked)'} | ${r.warmMB?.toFixed(1) ?? '–'} | ${r.endMB?.toFixed(1) ?? '–'} | ${Number.isFinite(r.change) ? `${r.change >= 0 ? '+' : ''}${(r.change * 100).toFixed(1)} %` : '–'}${r.alive ? '' : ' (restarted or gone)'} |`,
  );
// Blank lines between the table and the notes: Markdown (and prettier) would otherwise read the notes as table rows.
out.push('');
if (errorsAt.length) out.push(`Errors at (s into the load): ${errorsAt.join(', ')}.`, '');
out.push(
  `RSS every 30 s (MB): ${[...procsAtStart.keys()]
    .map(
      (name) =>
        `${name} ${rssReadings
          .filter((r, i) => i % 6 === 0)
          .map((r) => Math.round(r.mb.get(name)))
          .join(' ')}`,
    )
    .join('; ')}. ` +
    `Machine load average (1 min) during the run: ${loadAvg.length ? `min ${Math.min(...loadAvg).toFixed(1)}, median ${[...loadAvg].sort((a, b) => a - b)[Math.floor(loadAvg.length / 2)].toFixed(1)}, max ${Math.max(...loadAvg).toFixed(1)} on ${os.cpus().length} CPUs` : 'not sampled'}.`,
);
out.push('');
for (const c of checks) out.push(`- [${c.pass ? 'PASS' : 'FAIL'}] ${c.check}: ${c.detail}`);
console.log(out.join('\n'));

if (process.env.SOAK_JSON)
  fs.writeFileSync(
    process.env.SOAK_JSON,
    JSON.stringify(
      {
        at: new Date().toISOString(),
        machine: machine(),
        config: { USERS, ADMINS, THINK, MINUTES, WARMUP, PRODUCTS, STOCK, SCOPE, TOLERANCE },
        loadSeconds,
        requests: requestCount,
        scenarios,
        orders: finalizedCount,
        adminEdits,
        routes: routeRows,
        errorSamples: Object.fromEntries(errorSamples),
        rssReadings: rssReadings.map((r) => ({ t: Math.round(r.t), ...Object.fromEntries(r.mb) })),
        loadAvg,
        stock: stockRows,
        rss: rssRows,
        checks,
      },
      null,
      2,
    ),
  );

const failed = checks.filter((c) => !c.pass);
if (failed.length) {
  console.error(`\nsoak: FAILED — ${failed.map((c) => c.check).join('; ')}.`);
  process.exit(1);
}
console.log('\nsoak: all checks passed.');
