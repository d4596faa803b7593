// Checkout benchmark: `node scripts/bench/checkout.mjs` against a running shop (`npm start`, fake PayPal on :8090).
//
// Full purchases through the gateway by BENCH_BUYERS concurrent buyers for BENCH_DURATION seconds. Each buyer is a
// customer registered for this run and loops, one purchase after another:
//   add      POST /api/cart {productId, quantity: 1, size, color} with its token
//   checkout POST /api/checkout {checkoutItems: the lines of the cart answer, shippingAddress (7 fields), PayPal}
//   pay      the fake PayPal's POST /__fake/orders {value: totalPrice with two decimals} (create + capture in one
//            call, as the SPA's test-payment button does), then PUT /api/checkout/:id/pay {paymentStatus: 'paid',
//            paymentDetails: {id}} — the step's time includes both
//   finalize POST /api/checkout/:id/finalize (201 the order)
// The products are BENCH_PRODUCTS of its own, created through the admin API with BENCH_STOCK units of each variant
// (images copied from an existing product), so their stock is known exactly; purchase k of buyer b takes product
// (b + k) mod BENCH_PRODUCTS. Each buyer first makes one warm-up purchase (checked, not timed); a purchase started
// before the deadline is finished.
// First, the DATABASE WORK of a purchase: BENCH_WORK_SAMPLES purchases by one buyer, one step at a time, every
// service's shop_mongo_commands_total (its GET /metrics: the driver's command monitoring) read before and after each
// step once the counts stop moving (the events a step publishes handled). Prints the median commands of each step
// per service, and per purchase by service, collection and command with the steps that send them, plus what the
// services send in 2 s with no purchase (sweeps on timers). These counts do not depend on the load or the box.
// Then the timed runs, each buyer one warm-up purchase first: the BARE PURCHASE SERVER (bare-purchase-server.mjs,
// its own process: plain Node and the MongoDB driver, six commands a purchase, in the fresh database
// bench_bare_purchase on BENCH_MONGO_URL) with the same buyers, tokens, products and loop, before and after the
// shop (BENCH_BARE), and the shop through its gateway. Prints per run purchases per second, p50/p99 of each step and
// of the whole purchase, errors by step and status; for the shop also its database commands per order under that
// load; and the shop's purchases/s as a percentage of the bare server's (the mean of its runs).
// Then, after BENCH_SETTLE seconds for the events, CHECKS (exit 1 if any fails):
//   orders — every checkout the bench paid became exactly one order: each buyer's GET /api/orders/my-orders
//            checkoutIds hold every paid checkout id once (none missing, no duplicates, none the bench did not pay —
//            but for checkouts whose pay answered 503 after PayPal took the money, which the service's sweeper
//            settles and places their orders: run the shop with a short FINALIZE_GRACE_MS and a BENCH_SETTLE beyond it);
//   stock  — per product, stock before − sum of the quantities of those orders = stock after
//            (GET /api/admin/products/:id, countInStock: the sum of its variants);
//   carts  — every buyer's cart is empty (the orders.order.placed event takes the ordered lines out), but for the
//            lines of a last purchase that failed after its add;
//   money  — every fake PayPal capture whose PUT …/pay failed was refunded (or the checkout is paid after all);
//   bare   — on the bare purchase server, every checkout paid there became exactly one order.
// It also reports how many cart answers still held lines of an earlier, already finalized purchase (the event had
// not landed yet, so that checkout bought them again). At the end the bench's products are unpublished; they, the
// buyers and their orders stay.
//
// Environment:
//   GATEWAY_URL     default http://127.0.0.1:8080
//   PAYPAL_URL      default http://127.0.0.1:8090 (the fake PayPal npm start runs)
//   BENCH_DURATION  seconds of purchases, default 20
//   BENCH_BUYERS    concurrent buyers (each a freshly registered customer), default 20
//   BENCH_PRODUCTS  products created for the run, default 5
//   BENCH_STOCK     units of each variant (4 sizes × 2 colours), default 100000
//   BENCH_SETTLE    seconds to wait after the run before checking, default 5
//   BENCH_WORK_SAMPLES  purchases measured one step at a time for the database commands, default 5 (0: none)
//   BENCH_SCOPE     the stack whose services' /metrics are read, found by its pid files (scripts/lib/procs.mjs:
//                   the PORT each was started with), default dev (npm start); else DEFAULT_PORTS
//   BENCH_METRICS_URLS  JSON {service: its /metrics URL}, instead of BENCH_SCOPE
//   BENCH_BARE      around (default: the bare server before and after the shop), before, after, only (no timed
//                   shop run), off
//   BENCH_MONGO_URL the bare server's MongoDB-wire server, default mongodb://127.0.0.1:27017 (npm start's FerretDB)
//   BENCH_JSON      write the results to this file as JSON too
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import {
  byService,
  commandsBetween,
  isLock,
  medianCounts,
  readCommands,
  serviceMetricsUrls,
  settledCommands,
  total,
} from './lib/db-commands.mjs';
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
  fail,
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

const DURATION = Number(process.env.BENCH_DURATION || 20);
const BUYERS = Number(process.env.BENCH_BUYERS || 20);
const PRODUCTS = Number(process.env.BENCH_PRODUCTS || 5);
const STOCK = Number(process.env.BENCH_STOCK || 100000);
const SETTLE = Number(process.env.BENCH_SETTLE || 5);
const WORK_SAMPLES = Number(process.env.BENCH_WORK_SAMPLES ?? 5);
const BARE = process.env.BENCH_BARE || 'around';
const MONGO_URL = process.env.BENCH_MONGO_URL || 'mongodb://127.0.0.1:27017';
const SCOPE = process.env.BENCH_SCOPE || 'dev';
const RUN = Date.now().toString(36);
const here = path.dirname(fileURLToPath(import.meta.url));
if (!['around', 'before', 'after', 'only', 'off'].includes(BARE))
  fail(`BENCH_BARE=${BARE}: one of around, before, after, only, off`);

// ------------------------------------------------------------------ what is up, and the bench's products

await requireShop();
const admin = await adminToken();
const { images } = await catalogue();
const products = await createProducts(admin, {
  count: PRODUCTS,
  stock: STOCK,
  images,
  name: (i) => `Bench checkout jersey ${RUN} #${i + 1}`,
  sku: (i) => `BENCH-CO-${RUN}-${i + 1}`,
  description: 'A product created by scripts/bench/checkout.mjs so that its stock is known exactly.',
});
const stockOf = (ids) => readStock(admin, ids);
const productIds = products.map((p) => p._id);
const stockBefore = await stockOf(productIds);

// ------------------------------------------------------------------ buyers

const t0 = performance.now();
const regs = await registerCustomers(BUYERS, {
  name: (i) => `Bench buyer ${i}`,
  emailPrefix: `bench-checkout-${RUN}`,
  password: 'Bench!2345checkout',
});
/** A buyer's state on one target (the shop, or the bare server: the same token, apart figures). */
const newBuyer = (index, token) => ({
  index,
  token,
  purchases: 0,
  paid: new Set(), // checkout ids this buyer paid (PUT …/pay answered 200)
  finalized: new Map(), // checkout id → order id from the finalize answer
  unfinished: [], // checkouts created but not finalized: {id, items, paid, paypalOrderId}
  leftover: 0, // units in its cart when its last purchase failed after the add: they stay in the cart
});
const buyers = regs.map((r, i) => newBuyer(i, r.token));
const registerSeconds = (performance.now() - t0) / 1000;

const cpu = os.cpus();
console.log(`Checkout benchmark — ${new Date().toISOString()} — ${GATEWAY}, fake PayPal ${PAYPAL}`);
console.log(`  machine: ${machine()}`);
console.log(
  `  ${BUYERS} buyers (registered in ${registerSeconds.toFixed(1)} s), ${DURATION} s after one warm-up purchase each; ${PRODUCTS} products of ${STOCK} units per variant created for this run (${products.map((p) => `£${p.price}`).join(', ')})\n`,
);

// ------------------------------------------------------------------ the purchases

const STEPS = ['add', 'checkout', 'pay', 'finalize'];

/** One target's figures: the shop through its gateway, or a round of the bare purchase server. */
function newRound(name, base) {
  return {
    name,
    base,
    timings: { add: [], checkout: [], pay: [], 'pay (fake)': [], 'pay (PUT)': [], finalize: [], purchase: [] },
    errors: new Map(), // "step status" → {count, sample}
    staleCarts: 0, // cart answers holding lines of the previous purchase, which was finalized
    leftoverCarts: 0, // cart answers holding lines of a failed earlier purchase (expected)
    priceAdjusted: 0,
    orders: 0,
    attempted: 0,
    runSeconds: 0,
  };
}

function error(round, step, r) {
  const key = `${step} ${r.status || r.why}`;
  const e = round.errors.get(key) ?? { count: 0, sample: r.why };
  e.count++;
  round.errors.set(key, e);
}

/** Counts a step's error; the purchase ends there. */
function failed(round, step, r) {
  error(round, step, r);
  return false;
}

/**
 * One purchase against `round`'s target; true when it ended in an order. `timed` adds its figures to the round's;
 * `between(step)` is awaited after each step that succeeded (the per-step command reads).
 */
async function purchase(round, buyer, timed, between = async () => undefined) {
  const k = buyer.purchases++;
  const product = products[(buyer.index + k) % products.length];
  const record = (step, ms) => timed && round.timings[step].push(ms);
  const at0 = performance.now();
  let at = at0;
  const lap = async (step) => {
    const now = performance.now();
    record(step, now - at);
    await between(step);
    at = performance.now();
  };
  const api = (method, path, body) => call(method, `${round.base}${path}`, body, buyer.token);

  const add = await api('POST', '/api/cart', {
    productId: product._id,
    quantity: 1,
    size: SIZES[k % SIZES.length],
    color: COLORS[buyer.index % COLORS.length],
  });
  if (add.status !== 200 && add.status !== 201) return failed(round, 'add', add);
  await lap('add');
  const cartLines = add.json?.products ?? [];
  if (cartLines.length !== 1 || cartLines[0].quantity !== 1) {
    if (buyer.leftover) round.leftoverCarts++;
    else round.staleCarts++;
  }
  buyer.leftover = cartLines.reduce((n, l) => n + l.quantity, 0); // until this purchase's order takes them out

  const checkout = await api('POST', '/api/checkout', {
    checkoutItems: cartLines.map((l) => ({
      productId: l.productId,
      quantity: l.quantity,
      size: l.size,
      color: l.color,
    })),
    shippingAddress: ADDRESS,
    paymentMethod: 'PayPal',
    totalPrice: add.json.totalPrice,
  });
  if (checkout.status !== 201 || !checkout.json?._id) return failed(round, 'checkout', checkout);
  await lap('checkout');
  const id = checkout.json._id;
  const items = checkout.json.checkoutItems.map((l) => ({ productId: l.productId, quantity: l.quantity }));
  if (checkout.json.priceAdjusted) round.priceAdjusted++;
  const pending = { id, items, paid: false, paypalOrderId: undefined };
  buyer.unfinished.push(pending);

  const paypal = await call('POST', `${PAYPAL}/__fake/orders`, { value: money(pence(checkout.json.totalPrice)) });
  if (paypal.status !== 201 || !paypal.json?.id) return failed(round, 'pay (fake)', paypal);
  pending.paypalOrderId = paypal.json.id; // captured: money has moved
  const paypalDone = performance.now();
  record('pay (fake)', paypalDone - at);
  const pay = await api('PUT', `/api/checkout/${id}/pay`, {
    paymentStatus: 'paid',
    paymentDetails: { id: paypal.json.id },
  });
  if (pay.status !== 200 || pay.json?.isPaid !== true) return failed(round, 'pay', pay);
  record('pay (PUT)', performance.now() - paypalDone);
  await lap('pay');
  buyer.paid.add(id);
  pending.paid = true;

  const finalize = await api('POST', `/api/checkout/${id}/finalize`);
  if (finalize.status !== 201 || !finalize.json?._id) return failed(round, 'finalize', finalize);
  await lap('finalize');
  if (finalize.json.checkoutId !== id) error(round, 'finalize (answer names another checkout)', finalize);
  buyer.finalized.set(id, finalize.json._id);
  buyer.unfinished.splice(buyer.unfinished.indexOf(pending), 1);
  buyer.leftover = 0;
  record('purchase', performance.now() - at0); // a timed purchase has no `between` to wait for
  return true;
}

/** One warm-up purchase per buyer (checked, not timed). */
async function warmUp(round, list) {
  await Promise.all(list.map((b) => purchase(round, b, false)));
  round.warmErrors = [...round.errors.values()].reduce((n, e) => n + e.count, 0);
  round.warmOrders = list.reduce((n, b) => n + b.finalized.size, 0);
}

/** Every buyer loops, one purchase after another, for DURATION seconds (a purchase started before the end ends). */
async function load(round, list) {
  const attemptedBefore = list.reduce((n, b) => n + b.purchases, 0);
  const runStart = performance.now();
  const deadline = runStart + DURATION * 1000;
  await Promise.all(
    list.map(async (b) => {
      while (performance.now() < deadline) {
        if (await purchase(round, b, true)) round.orders++;
        else await sleep(100); // a failed step: do not spin on errors
      }
    }),
  );
  round.runSeconds = (performance.now() - runStart) / 1000;
  round.attempted = list.reduce((n, b) => n + b.purchases, 0) - attemptedBefore;
  round.rows = Object.entries(round.timings).map(([step, ms]) => ({ step, ...quantiles(ms) }));
  round.errorList = [...round.errors.entries()].map(([key, e]) => ({ key, count: e.count, sample: e.sample }));
  round.perSecond = round.orders / round.runSeconds;
  round.p99 = round.rows.find((r) => r.step === 'purchase')?.p99 ?? null;
}

function printRound(round) {
  console.log(
    `  ${round.name}: ${round.orders} orders in ${round.runSeconds.toFixed(1)} s = ${round.perSecond.toFixed(1)} purchases/s (${round.attempted} purchases started; warm-up: ${round.warmOrders} orders, ${round.warmErrors} errors)\n`,
  );
  console.log(
    `    ${'step'.padEnd(11)} ${'count'.padStart(6)} ${'p50 ms'.padStart(8)} ${'p99 ms'.padStart(8)} ${'max ms'.padStart(8)}`,
  );
  for (const r of round.rows)
    console.log(
      `    ${r.step.padEnd(11)} ${String(r.count).padStart(6)} ${String(r.p50 ?? '-').padStart(8)} ${String(r.p99 ?? '-').padStart(8)} ${String(r.max ?? '-').padStart(8)}`,
    );
  console.log(`    errors: ${round.errorList.length ? '' : 'none'}`);
  for (const e of round.errorList) console.log(`      ${e.key}: ${e.count} × (e.g. ${e.sample})`);
  console.log(
    `    cart answers that still held the previous, finalized purchase's lines (its order event not applied yet, so this checkout bought them again): ${round.staleCarts}`,
  );
  console.log(
    `    cart answers holding the lines of a failed earlier purchase: ${round.leftoverCarts}; checkouts with priceAdjusted: ${round.priceAdjusted}\n`,
  );
}

// ------------------------------------------------------------------ the database work of a purchase, step by step

const metricsUrls = serviceMetricsUrls({ gateway: GATEWAY, scope: SCOPE });
const services = Object.keys(metricsUrls);
const cell = (n) => (n ? String(Math.round(n * 10) / 10) : '·');

/**
 * WORK_SAMPLES purchases by one buyer, one step at a time: the services' command counts read (once they stop
 * moving: the events a step publishes are handled) before and after each step. The median of each step's counts
 * is the work a purchase asks of the database, whatever the load; timed purchases never wait like this.
 */
async function measureWork(round, buyer) {
  const start = await readCommands(metricsUrls);
  if (start.unreachable.length === services.length) {
    console.log(`  database commands: no service's /metrics answered (${Object.values(metricsUrls).join(', ')})\n`);
    return null;
  }
  const idleStart = await settledCommands(metricsUrls);
  await sleep(2000);
  const idle = commandsBetween(idleStart, await readCommands(metricsUrls));
  const perStep = Object.fromEntries(STEPS.map((s) => [s, []]));
  let done = 0;
  for (let i = 0; i < WORK_SAMPLES; i++) {
    let before = await settledCommands(metricsUrls);
    const ok = await purchase(round, buyer, false, async (step) => {
      const after = await settledCommands(metricsUrls);
      perStep[step].push(commandsBetween(before, after));
      before = after;
    });
    if (ok) done++;
  }
  const only = (counts, locks) => new Map([...counts].filter(([key]) => isLock(key) === locks));
  const medians = Object.fromEntries(STEPS.map((s) => [s, medianCounts(perStep[s])]));
  const steps = Object.fromEntries(STEPS.map((s) => [s, only(medians[s], false)]));
  const lockSteps = Object.fromEntries(STEPS.map((s) => [s, only(medians[s], true)]));
  const purchaseCounts = new Map();
  for (const s of STEPS) for (const [key, n] of steps[s]) purchaseCounts.set(key, (purchaseCounts.get(key) ?? 0) + n);
  const purchaseLocks = new Map();
  for (const s of STEPS) for (const [key, n] of lockSteps[s]) purchaseLocks.set(key, (purchaseLocks.get(key) ?? 0) + n);

  console.log(
    `  database commands per purchase (median of ${done} purchases by one buyer, one step at a time, each step's events settled before the next; shop_mongo_commands_total of each service):`,
  );
  if (start.unreachable.length) console.log(`    no /metrics from: ${start.unreachable.join(', ')} (not counted)`);
  const header = ['step'.padEnd(10), 'total'.padStart(6), ...services.map((s) => s.padStart(Math.max(6, s.length)))];
  console.log(`    ${header.join(' ')}`);
  const line = (name, counts) => {
    const sums = byService(counts);
    console.log(
      `    ${[name.padEnd(10), cell(total(counts)).padStart(6), ...services.map((s) => cell(sums.get(s)).padStart(Math.max(6, s.length)))].join(' ')}`,
    );
  };
  for (const s of STEPS) line(s, steps[s]);
  line('purchase', purchaseCounts);
  console.log(`    by service, collection and command (per purchase, and which steps send them):`);
  const keys = [...purchaseCounts.keys()].sort();
  for (const key of keys) {
    const [service, collection, op] = key.split('\t');
    const where = STEPS.filter((s) => steps[s].get(key))
      .map((s) => `${s} ${cell(steps[s].get(key))}`)
      .join(', ');
    console.log(
      `      ${service.padEnd(13)} ${collection.padEnd(24)} ${op.padEnd(15)} ${cell(purchaseCounts.get(key)).padStart(5)}   (${where})`,
    );
  }
  console.log(
    `  Redis locks taken per purchase (shop_redis_lock_acquisitions_total of each service, the same purchases): ${Math.round(total(purchaseLocks) * 10) / 10}`,
  );
  for (const s of STEPS)
    if (lockSteps[s].size) console.log(`    ${s.padEnd(10)} ${cell(total(lockSteps[s])).padStart(6)}`);
  for (const [key, n] of [...purchaseLocks].sort()) {
    const [service, , lock] = key.split('\t');
    console.log(`      ${service.padEnd(13)} ${lock.padEnd(40)} ${cell(n).padStart(5)}`);
  }
  const idleCommands = only(idle, false);
  const idleTotal = total(idleCommands);
  console.log(
    `    with no purchase, in 2 s: ${idleTotal} commands${idleTotal ? ` (${[...byService(idleCommands)].map(([s, n]) => `${s} ${n}`).join(', ')}: sweeps and relays on timers, not per purchase)` : ''}\n`,
  );
  if (!steps.checkout.size || !byService(purchaseCounts).get('checkout'))
    console.warn(
      `  bench: the checkout service counted no command for a checkout: are ${metricsUrls.checkout} the services behind ${GATEWAY}? (BENCH_SCOPE, BENCH_METRICS_URLS)\n`,
    );
  return {
    samples: done,
    steps: Object.fromEntries(STEPS.map((s) => [s, Object.fromEntries(steps[s])])),
    purchase: Object.fromEntries(purchaseCounts),
    total: total(purchaseCounts),
    locks: {
      steps: Object.fromEntries(STEPS.map((s) => [s, Object.fromEntries(lockSteps[s])])),
      total: total(purchaseLocks),
    },
    idle2s: Object.fromEntries(idle),
  };
}

// ------------------------------------------------------------------ the bare purchase server, in the same run

/** Starts bare-purchase-server.mjs (its own process) selling the bench's products; resolves once it listens. */
function startBare() {
  const file = path.join(os.tmpdir(), `bench-bare-purchase-${RUN}.json`);
  fs.writeFileSync(file, JSON.stringify(products.map((p) => ({ _id: p._id, name: p.name, price: p.price }))));
  const child = spawn(process.execPath, [path.join(here, 'bare-purchase-server.mjs'), file, '0'], {
    env: { ...process.env, BENCH_MONGO_URL: MONGO_URL },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    child.stdout.on('data', (chunk) => {
      const m = /listening (\d+)/.exec(chunk.toString());
      if (m)
        resolve({
          url: `http://127.0.0.1:${m[1]}`,
          stop: () =>
            new Promise((done) => {
              child.once('exit', done);
              child.kill('SIGTERM');
              fs.rmSync(file, { force: true });
            }),
        });
    });
    child.once('exit', (code) => reject(new Error(`bare-purchase-server.mjs exited with ${code}`)));
  });
}

const shop = newRound('shop', GATEWAY);
const bareRounds = [];
const bare = BARE === 'off' ? null : await startBare().catch((err) => fail(`the bare purchase server: ${err.message}`));
const bareBuyers = buyers.map((b) => newBuyer(b.index, b.token));
let bareWarm = false;
async function bareRound(name) {
  const round = newRound(name, bare.url);
  if (!bareWarm) await warmUp(round, bareBuyers);
  else Object.assign(round, { warmOrders: 0, warmErrors: 0 });
  bareWarm = true;
  await load(round, bareBuyers);
  bareRounds.push(round);
  printRound(round);
}

await warmUp(shop, buyers);
const work = WORK_SAMPLES > 0 ? await measureWork(shop, buyers[0]) : null;
if (['around', 'before', 'only'].includes(BARE)) await bareRound('bare purchase server (before the shop)');
let loadWork = null;
if (BARE !== 'only') {
  const before = await readCommands(metricsUrls);
  await load(shop, buyers);
  const moved = commandsBetween(before, await settledCommands(metricsUrls));
  printRound(shop);
  if (shop.orders && before.unreachable.length < services.length) {
    const perOrder = (n) => n / shop.orders;
    const sums = byService(moved);
    console.log(
      `    database commands per order under this load: ${cell(perOrder(total(moved)))} (${services.map((s) => `${s} ${cell(perOrder(sums.get(s) ?? 0))}`).join(', ')}; failed purchases' work and timers' included)\n`,
    );
    loadWork = {
      total: perOrder(total(moved)),
      byService: Object.fromEntries([...sums].map(([s, n]) => [s, perOrder(n)])),
    };
  }
}
if (['around', 'after'].includes(BARE)) await bareRound('bare purchase server (after the shop)');

if (bareRounds.length) {
  const barePerSecond = bareRounds.reduce((t, r) => t + r.perSecond, 0) / bareRounds.length;
  const bareP99 = Math.max(...bareRounds.map((r) => r.p99 ?? 0));
  console.log(
    `  bare purchase server: ${barePerSecond.toFixed(1)} purchases/s (mean of ${bareRounds.length} round${bareRounds.length > 1 ? 's' : ''}), p99 ${bareP99} ms`,
  );
  if (BARE !== 'only')
    console.log(
      `  the shop: ${shop.perSecond.toFixed(1)} purchases/s, p99 ${shop.p99} ms = ${((100 * shop.perSecond) / barePerSecond).toFixed(0)} % of the bare server's purchases/s (issue 26's target: ≥ 50 %, p99 ≤ 2 s, 0 errors)\n`,
    );
}

// ------------------------------------------------------------------ checks

console.log(`\n  waiting ${SETTLE} s for the events to settle …`);
await sleep(SETTLE * 1000);

const checks = [];
const check = (name, pass, detail) => {
  checks.push({ check: name, pass, detail });
  console.log(`  [${pass ? 'PASS' : 'FAIL'}] ${name}: ${detail}`);
};

// Orders: each buyer's orders against the checkouts it paid.
const mine = await pool(BUYERS, (i) => call('GET', '/api/orders/my-orders', undefined, buyers[i].token));
const badMine = mine.find((r) => r.status !== 200 || !Array.isArray(r.json));
if (badMine) fail(`GET /api/orders/my-orders: ${badMine.why}`);
const sold = new Map(productIds.map((id) => [id, 0]));
let paidCount = 0;
let orderCount = 0;
const missing = [];
const duplicates = [];
const strangers = [];
const mismatched = [];
const settledByService = []; // captured at PayPal, PUT …/pay failed (503): the service settled and finalized it
buyers.forEach((b, i) => {
  const seen = new Map();
  const captured = new Set(b.unfinished.filter((u) => u.paypalOrderId && !u.paid).map((u) => u.id));
  for (const order of mine[i].json) {
    orderCount++;
    seen.set(order.checkoutId, (seen.get(order.checkoutId) ?? 0) + 1);
    if (captured.has(order.checkoutId)) {
      settledByService.push(order.checkoutId);
    } else if (!b.paid.has(order.checkoutId)) strangers.push(`${order._id} (checkout ${order.checkoutId}, buyer ${i})`);
    else if (b.finalized.has(order.checkoutId) && b.finalized.get(order.checkoutId) !== order._id)
      mismatched.push(
        `checkout ${order.checkoutId}: finalize answered ${b.finalized.get(order.checkoutId)}, listed ${order._id}`,
      );
    for (const item of order.orderItems ?? []) {
      const id = String(item.productId);
      if (sold.has(id)) sold.set(id, sold.get(id) + item.quantity);
    }
  }
  paidCount += b.paid.size;
  for (const id of b.paid) if (!seen.has(id)) missing.push(`${id} (buyer ${i})`);
  for (const [id, n] of seen) if (n > 1) duplicates.push(`${id} × ${n} (buyer ${i})`);
});
const finalizedCount = buyers.reduce((n, b) => n + b.finalized.size, 0);
const show = (list) => (list.length ? `${list.slice(0, 5).join('; ')}${list.length > 5 ? ' …' : ''}` : '');
check(
  'every paid checkout became exactly one order',
  missing.length + duplicates.length + strangers.length + mismatched.length === 0,
  `${paidCount} checkouts paid, ${finalizedCount} finalized by the bench, ${orderCount} orders listed; ` +
    `${missing.length} missing, ${duplicates.length} duplicated, ${strangers.length} not paid by the bench, ${mismatched.length} with another order id; ` +
    `${settledByService.length} whose pay answered 503 after PayPal took the money, settled and placed by the service` +
    [missing, duplicates, strangers, mismatched].map((l) => (l.length ? ` — ${show(l)}` : '')).join(''),
);

// Stock: before − sold = after, per product.
const stockAfter = await stockOf(productIds);
const held = new Map(productIds.map((id) => [id, 0])); // units held by checkouts the bench left unfinished
for (const b of buyers)
  for (const u of b.unfinished)
    for (const item of u.items) held.set(item.productId, (held.get(item.productId) ?? 0) + item.quantity);
const stockRows = productIds.map((id) => ({
  productId: id,
  before: stockBefore.get(id),
  sold: sold.get(id),
  after: stockAfter.get(id),
  heldByUnfinished: held.get(id),
}));
const stockBad = stockRows.filter((r) => r.before - r.sold !== r.after);
check(
  'stock before − units ordered = stock after, per product',
  stockBad.length === 0,
  stockRows
    .map(
      (r) =>
        `${r.before} − ${r.sold} ${r.before - r.sold === r.after ? '=' : '≠'} ${r.after}` +
        (r.before - r.sold === r.after
          ? ''
          : ` (${r.before - r.sold - r.after} missing: ${r.heldByUnfinished} held by checkouts the bench left unfinished, ${r.before - r.sold - r.after - r.heldByUnfinished} unexplained)`),
    )
    .join('; '),
);

// Carts: empty once the order events are applied.
const carts = await pool(BUYERS, (i) => call('GET', '/api/cart', undefined, buyers[i].token));
// A buyer whose every purchase ended in an order must have an empty cart. One whose last purchase failed keeps at
// most that purchase's lines (fewer when the service later settled a failed checkout of the same lines): never more.
const cartUnits = carts.map((r, i) => ({
  buyer: i,
  status: r.status,
  units: (r.json?.products ?? []).reduce((n, l) => n + l.quantity, 0),
  atMost: buyers[i].leftover,
}));
const cartLeft = cartUnits.filter((c) => c.status !== 200 || c.units > c.atMost);
const expectedLeft = cartUnits.filter((c) => c.atMost > 0);
check(
  "every buyer's cart is empty (but for the lines of a last purchase that failed)",
  cartLeft.length === 0,
  `${cartUnits.filter((c) => c.status === 200 && c.units === 0).length} of ${BUYERS} empty` +
    (expectedLeft.length
      ? `; ${expectedLeft.length} may hold the lines of their failed last purchase (${show(expectedLeft.map((c) => `buyer ${c.buyer}: ${c.units} of at most ${c.atMost} units`))})`
      : '') +
    (cartLeft.length
      ? `; ${cartLeft.length} wrong: ${show(cartLeft.map((c) => `buyer ${c.buyer} ${c.status === 200 ? `${c.units} units, at most ${c.atMost}` : `HTTP ${c.status}`}`))}`
      : ''),
);
// Money: a PayPal capture whose checkout the bench could not mark paid must have been refunded (or paid after all).
const unfinished = buyers.flatMap((b) => b.unfinished.map((u) => ({ ...u, buyer: b })));
const captured = unfinished.filter((u) => u.paypalOrderId && !u.paid);
const stranded = [];
for (const u of captured) {
  const [co, pp] = await Promise.all([
    call('GET', `/api/checkout/${u.id}`, undefined, u.buyer.token),
    call('GET', `${PAYPAL}/__fake/orders/${u.paypalOrderId}`),
  ]);
  const capture = pp.json?.order?.purchase_units?.[0]?.payments?.captures?.[0]?.status ?? `HTTP ${pp.status}`;
  if (co.json?.isPaid !== true && capture !== 'REFUNDED')
    stranded.push(
      `checkout ${u.id} (buyer ${u.buyer.index}) isPaid ${co.json?.isPaid}, PayPal ${u.paypalOrderId} capture ${capture}`,
    );
}
check(
  'every PayPal capture paid a checkout or was refunded',
  stranded.length === 0,
  `${captured.length} captures whose PUT …/pay failed; ${stranded.length} of them captured, unpaid and not refunded${stranded.length ? ` — ${show(stranded)}` : ''}`,
);
if (unfinished.length)
  console.log(
    `  checkouts the bench created but did not finalize: ${unfinished.length} — ${unfinished.filter((u) => u.paid).length} paid (pay placed their orders), ${captured.length} captured at PayPal but not paid, ${unfinished.length - captured.length - unfinished.filter((u) => u.paid).length} never paid (their stock is held until the hold expires)`,
  );

// The bare purchase server: every checkout the bench paid there became exactly one order.
if (bare) {
  const bareMine = await pool(BUYERS, (i) =>
    call('GET', `${bare.url}/api/orders/my-orders`, undefined, bareBuyers[i].token),
  );
  let bareBad = 0;
  let bareOrders = 0;
  bareBuyers.forEach((b, i) => {
    const ids = (bareMine[i].json ?? []).map((o) => String(o.checkoutId));
    bareOrders += ids.length;
    if (ids.length !== new Set(ids).size || [...b.paid].some((id) => !ids.includes(id))) bareBad++;
  });
  check(
    'bare purchase server: every paid checkout became exactly one order',
    bareBad === 0,
    `${bareBuyers.reduce((n, b) => n + b.paid.size, 0)} checkouts paid, ${bareOrders} orders; ${bareBad} buyers with a missing or repeated order`,
  );
  await bare.stop();
}

// ------------------------------------------------------------------ tidy up: the bench's products leave the shop window

const hidden = await pool(productIds.length, (i) =>
  call('PUT', `/api/admin/products/${productIds[i]}`, { isPublished: false }, admin),
);
const notHidden = hidden.filter((r) => r.status !== 200).length;
console.log(
  `\n  unpublished the ${productIds.length - notHidden} bench products${notHidden ? ` (${notHidden} failed)` : ''}; the ${BUYERS} buyers and their orders stay`,
);

if (process.env.BENCH_JSON) {
  fs.writeFileSync(
    process.env.BENCH_JSON,
    JSON.stringify(
      {
        at: new Date().toISOString(),
        cpus: cpu.length,
        cpu: cpu[0]?.model,
        buyers: BUYERS,
        duration: DURATION,
        runSeconds: shop.runSeconds,
        orders: shop.orders,
        ordersPerSecond: shop.perSecond,
        rows: shop.rows,
        errors: shop.errorList,
        staleCarts: shop.staleCarts,
        leftoverCarts: shop.leftoverCarts,
        priceAdjusted: shop.priceAdjusted,
        databaseCommands: { perPurchase: work, perOrderUnderLoad: loadWork },
        bare: bareRounds.map((r) => ({
          name: r.name,
          runSeconds: r.runSeconds,
          orders: r.orders,
          ordersPerSecond: r.perSecond,
          rows: r.rows,
          errors: r.errorList,
        })),
        stock: stockRows,
        checks,
      },
      null,
      2,
    ),
  );
}

const failedChecks = checks.filter((c) => !c.pass);
if (failedChecks.length) {
  console.error(`\nbench: FAILED — ${failedChecks.map((c) => c.check).join('; ')}.`);
  process.exit(1);
}
if ([shop, ...bareRounds].some((r) => r.errorList?.length))
  console.warn('\nbench: some purchases failed (see errors above); the figures count only the completed ones.');
