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
// The products are BENCH_PRODUCTS of its own, created through the admin API with BENCH_STOCK units each (images
// copied from an existing product), so their stock is known exactly; purchase k of buyer b takes product
// (b + k) mod BENCH_PRODUCTS. Each buyer first makes one warm-up purchase (checked, not timed); a purchase started
// before the deadline is finished.
// Prints orders per second, p50/p99 of each step and of the whole purchase, errors by step and status. Then, after
// BENCH_SETTLE seconds for the events, CHECKS (exit 1 if any fails):
//   orders — every checkout the bench paid became exactly one order: each buyer's GET /api/orders/my-orders
//            checkoutIds hold every paid checkout id once (none missing, no duplicates, none the bench did not pay —
//            but for checkouts whose pay answered 503 after PayPal took the money, which the service's sweeper
//            settles and finalizes: run the shop with a short FINALIZE_GRACE_MS and a BENCH_SETTLE beyond it);
//   stock  — per product, stock before − sum of the quantities of those orders = stock after
//            (GET /api/admin/products/:id);
//   carts  — every buyer's cart is empty (the orders.order.placed event takes the ordered lines out), but for the
//            lines of a last purchase that failed after its add;
//   money  — every fake PayPal capture whose PUT …/pay failed was refunded (or the checkout is paid after all).
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
//   BENCH_STOCK     units of each, default 100000
//   BENCH_SETTLE    seconds to wait after the run before checking, default 5
//   BENCH_JSON      write the results to this file as JSON too
import fs from 'node:fs';
import os from 'node:os';
import { performance } from 'node:perf_hooks';
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
const RUN = Date.now().toString(36);

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
const buyers = regs.map((r, i) => ({
  index: i,
  token: r.token,
  purchases: 0,
  paid: new Set(), // checkout ids this buyer paid (PUT …/pay answered 200)
  finalized: new Map(), // checkout id → order id from the finalize answer
  unfinished: [], // checkouts created but not finalized: {id, items, paid, paypalOrderId}
  leftover: 0, // units in its cart when its last purchase failed after the add: they stay in the cart
}));
const registerSeconds = (performance.now() - t0) / 1000;

const cpu = os.cpus();
console.log(`Checkout benchmark — ${new Date().toISOString()} — ${GATEWAY}, fake PayPal ${PAYPAL}`);
console.log(`  machine: ${machine()}`);
console.log(
  `  ${BUYERS} buyers (registered in ${registerSeconds.toFixed(1)} s), ${DURATION} s after one warm-up purchase each; ${PRODUCTS} products of ${STOCK} units created for this run (${products.map((p) => `£${p.price}`).join(', ')})\n`,
);

// ------------------------------------------------------------------ the purchases

const timings = { add: [], checkout: [], pay: [], 'pay (fake)': [], 'pay (PUT)': [], finalize: [], purchase: [] };
const errors = new Map(); // "step status" → {count, sample}
let staleCarts = 0; // cart answers holding lines of the previous purchase, which was finalized
let leftoverCarts = 0; // cart answers holding lines of a failed earlier purchase (expected)
let priceAdjusted = 0;

function error(step, r) {
  const key = `${step} ${r.status || r.why}`;
  const e = errors.get(key) ?? { count: 0, sample: r.why };
  e.count++;
  errors.set(key, e);
}

/** Counts a step's error; the purchase ends there. */
function failed(step, r) {
  error(step, r);
  return false;
}

/** One purchase; true when it ended in an order. `timed` adds its figures to the results. */
async function purchase(buyer, timed) {
  const k = buyer.purchases++;
  const product = products[(buyer.index + k) % products.length];
  const record = (step, ms) => timed && timings[step].push(ms);
  const started = performance.now();
  let at = started;
  const lap = (step) => {
    const now = performance.now();
    record(step, now - at);
    at = now;
  };

  const add = await call(
    'POST',
    '/api/cart',
    { productId: product._id, quantity: 1, size: SIZES[k % SIZES.length], color: COLORS[buyer.index % COLORS.length] },
    buyer.token,
  );
  if (add.status !== 200 && add.status !== 201) return failed('add', add);
  lap('add');
  const cartLines = add.json?.products ?? [];
  if (cartLines.length !== 1 || cartLines[0].quantity !== 1) {
    if (buyer.leftover) leftoverCarts++;
    else staleCarts++;
  }
  buyer.leftover = cartLines.reduce((n, l) => n + l.quantity, 0); // until this purchase's order takes them out

  const checkout = await call(
    'POST',
    '/api/checkout',
    {
      checkoutItems: cartLines.map((l) => ({
        productId: l.productId,
        quantity: l.quantity,
        size: l.size,
        color: l.color,
      })),
      shippingAddress: ADDRESS,
      paymentMethod: 'PayPal',
      totalPrice: add.json.totalPrice,
    },
    buyer.token,
  );
  if (checkout.status !== 201 || !checkout.json?._id) return failed('checkout', checkout);
  lap('checkout');
  const id = checkout.json._id;
  const items = checkout.json.checkoutItems.map((l) => ({ productId: l.productId, quantity: l.quantity }));
  if (checkout.json.priceAdjusted) priceAdjusted++;
  const pending = { id, items, paid: false, paypalOrderId: undefined };
  buyer.unfinished.push(pending);

  const paypal = await call('POST', `${PAYPAL}/__fake/orders`, { value: money(pence(checkout.json.totalPrice)) });
  if (paypal.status !== 201 || !paypal.json?.id) return failed('pay (fake)', paypal);
  pending.paypalOrderId = paypal.json.id; // captured: money has moved
  const paypalDone = performance.now();
  record('pay (fake)', paypalDone - at);
  const pay = await call(
    'PUT',
    `/api/checkout/${id}/pay`,
    { paymentStatus: 'paid', paymentDetails: { id: paypal.json.id } },
    buyer.token,
  );
  if (pay.status !== 200 || pay.json?.isPaid !== true) return failed('pay', pay);
  record('pay (PUT)', performance.now() - paypalDone);
  lap('pay');
  buyer.paid.add(id);
  pending.paid = true;

  const finalize = await call('POST', `/api/checkout/${id}/finalize`, undefined, buyer.token);
  if (finalize.status !== 201 || !finalize.json?._id) return failed('finalize', finalize);
  lap('finalize');
  if (finalize.json.checkoutId !== id) error('finalize (answer names another checkout)', finalize);
  buyer.finalized.set(id, finalize.json._id);
  buyer.unfinished.splice(buyer.unfinished.indexOf(pending), 1);
  buyer.leftover = 0;
  record('purchase', performance.now() - started);
  return true;
}

await Promise.all(buyers.map((b) => purchase(b, false)));
const warmErrors = [...errors.values()].reduce((n, e) => n + e.count, 0);
const warmOrders = buyers.reduce((n, b) => n + b.finalized.size, 0);

const runStart = performance.now();
const deadline = runStart + DURATION * 1000;
let orders = 0;
await Promise.all(
  buyers.map(async (b) => {
    while (performance.now() < deadline) {
      if (await purchase(b, true)) orders++;
      else await sleep(100); // a failed step: do not spin on errors
    }
  }),
);
const runSeconds = (performance.now() - runStart) / 1000;

const rows = Object.entries(timings).map(([step, ms]) => ({ step, ...quantiles(ms) }));
const attempted = buyers.reduce((n, b) => n + b.purchases, 0) - BUYERS;
console.log(
  `  ${orders} orders in ${runSeconds.toFixed(1)} s = ${(orders / runSeconds).toFixed(1)} orders/s (${attempted} purchases started; warm-up: ${warmOrders} orders, ${warmErrors} errors)\n`,
);
console.log(
  `  ${'step'.padEnd(11)} ${'count'.padStart(6)} ${'p50 ms'.padStart(8)} ${'p99 ms'.padStart(8)} ${'max ms'.padStart(8)}`,
);
for (const r of rows)
  console.log(
    `  ${r.step.padEnd(11)} ${String(r.count).padStart(6)} ${String(r.p50 ?? '-').padStart(8)} ${String(r.p99 ?? '-').padStart(8)} ${String(r.max ?? '-').padStart(8)}`,
  );
const errorList = [...errors.entries()].map(([key, e]) => ({ key, count: e.count, sample: e.sample }));
console.log(`\n  errors: ${errorList.length ? '' : 'none'}`);
for (const e of errorList) console.log(`    ${e.key}: ${e.count} × (e.g. ${e.sample})`);
console.log(
  `  cart answers that still held the previous, finalized purchase's lines (its order event not applied yet, so this checkout bought them again): ${staleCarts}`,
);
console.log(
  `  cart answers holding the lines of a failed earlier purchase: ${leftoverCarts}; checkouts with priceAdjusted: ${priceAdjusted}`,
);

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
    `${settledByService.length} whose pay answered 503 after PayPal took the money, settled and finalized by the service` +
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
    `  checkouts the bench created but did not finalize: ${unfinished.length} — ${unfinished.filter((u) => u.paid).length} paid (the service finalizes those after its grace period), ${captured.length} captured at PayPal but not paid, ${unfinished.length - captured.length - unfinished.filter((u) => u.paid).length} never paid (their stock is held until the reservation expires)`,
  );

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
        runSeconds,
        orders,
        ordersPerSecond: orders / runSeconds,
        rows,
        errors: errorList,
        staleCarts,
        leftoverCarts,
        priceAdjusted,
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
if (errorList.length)
  console.warn('\nbench: some purchases failed (see errors above); the figures count only the completed ones.');
