// Chaos: `npm run chaos` (or `node scripts/bench/chaos.mjs [--seconds=300] [--lite]`); figures and the audit's rules:
// docs/performance.md ("Chaos") and docs/architecture.md ("The purchase audit").
//
// Starts its own shop with two replicas of every service (scripts/lib/replica-stack.mjs: its own ports, FerretDB,
// Mailpit, fake PayPal, Redis db and RabbitMQ vhost, never another stack's), then for --seconds keeps 20 buyers
// purchasing through its gateway while it injects faults into the processes it started, by their ids:
//   - every ~10 s a random service replica is SIGKILLed (its twin keeps serving) and started again 2–5 s later;
//   - every ~60 s every connection to the stack's RabbitMQ vhost is closed (`rabbitmqctl close_all_connections`);
//   - twice, the database (FerretDB) is SIGSTOPped for 5 s; once, the SMTP server (Mailpit) is stopped for 30 s;
//   - once, the gateway is SIGKILLed and started again.
// --lite (the 60-second run of `npm test`): a kill every ~15 s, one broker drop, one database stall, SMTP down 10 s,
// one gateway kill.
// A buyer's purchase: add to cart → checkout (one in three with a discount code of limited uses) → pay the fake
// PayPal → PUT …/pay → finalize; one in seven abandons after paying (the checkout sweeper places the order); an admin
// cancels one order in ten (refunded). A step answered 5xx, or not at all, is retried (up to 90 s) until it completes
// or is refused with a 4xx; every such answer is counted by kind.
// After the load, once every process is back, it waits for the sweepers (holds expire, paid checkouts settle, events
// drain: the readings stop changing), then audits every store through the services' APIs, read-only queries, the
// fake PayPal's records and Mailpit's API (the rules: docs/architecture.md). One verdict line; exit 1 on any
// violation. CHAOS_JSON=<file> writes the figures as JSON.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { MongoClient } from 'mongodb';
import { startReplicaStack } from '../lib/replica-stack.mjs';
import { exitOnSignals, stopAll } from '../lib/procs.mjs';
import { ROOT, run } from '../lib/util.mjs';
import {
  ADDRESS,
  ADMIN,
  COLORS,
  SIZES,
  benchProduct,
  call,
  isLoopback,
  machine,
  money,
  pence,
  pool,
  sleep,
} from './lib/shop.mjs';

const arg = (name) => process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1];
const LITE = process.argv.includes('--lite');
const SECONDS = Number(arg('seconds') ?? process.env.CHAOS_SECONDS ?? (LITE ? 60 : 300));
const BUYERS = Number(arg('buyers') ?? process.env.CHAOS_BUYERS ?? 20);
const REPLICAS = Number(arg('replicas') ?? process.env.CHAOS_REPLICAS ?? 2);
const STEP_DEADLINE_MS = 90_000;
const RUN = Date.now().toString(36);
const PASSWORD = 'Chaos!2345buyer';
/** Sweeps made short so the audit can wait for them (production values: each service's config). */
const SWEEPS = {
  RESERVATION_SECONDS: 30, // checkout: an unpaid checkout's hold
  PAID_HOLD_SECONDS: 60, // catalog: a paid checkout's expired hold, kept this much longer before it asks again
  FINALIZE_GRACE_MS: 8000, // checkout: a paid checkout nobody finalized is placed by the service after this
  FINALIZE_SWEEP_MS: 2000,
  RESERVATION_SWEEP_MS: 2000, // catalog: expired holds given back
};
const CODE_LIMIT = LITE ? 6 : 25;

for (const [name, value, min] of [
  ['--seconds', SECONDS, 20],
  ['--buyers', BUYERS, 1],
  ['--replicas', REPLICAS, 2],
])
  if (!Number.isFinite(value) || value < min) {
    console.error(`chaos: ${name} must be a number ≥ ${min} (got ${value})`);
    process.exit(2);
  }

const t0 = performance.now();
const at = () => (performance.now() - t0) / 1000;
const stamp = () => `[chaos ${at().toFixed(1).padStart(6)} s]`;
const say = (text) => console.log(`${stamp()} ${text}`);
const rand = (n) => Math.floor(Math.random() * n);
const pick = (list) => list[rand(list.length)];
const chance = (p) => Math.random() < p;

let stallActive = false; // the database is SIGSTOPped now
let stopping = false; // the stack is being stopped: its processes' exits are no crashes
exitOnSignals(async () => {
  stopping = true;
  await resumeDatabase();
  await stopAll();
});

// ------------------------------------------------------------------ the stack

say(`starting the shop: ${REPLICAS} replicas of every service (${machine()})`);
const shop = await startReplicaStack({
  replicas: REPLICAS,
  extraEnv: Object.fromEntries(Object.entries(SWEEPS).map(([k, v]) => [k, String(v)])),
  note: (text) => say(text),
}).catch((err) => {
  console.error(`chaos: the stack did not start: ${err.message}${err.detail ? `\n${err.detail}` : ''}`);
  console.log('chaos: FAIL — the stack did not start');
  process.exit(1);
});
const { stack, urls } = shop;
for (const [name, url] of Object.entries({ gateway: urls.gateway, paypal: urls.paypal, mailpit: urls.mailpit }))
  if (!isLoopback(url)) throw new Error(`${name} ${url} is not on this machine`);
const GW = urls.gateway;
const api = (method, p, body, token, timeoutMs = 15000) => call(method, `${GW}${p}`, body, token, timeoutMs);
say(`shop ready at ${GW} (logs in ${path.relative(ROOT, shop.logDir)}/)`);
for (const p of stack.processes) say(`  ${p.id} pid ${p.handle.pid} :${p.port}`);

/** `fn` until it answers 2xx, for up to a minute (then the run fails with the last answer). */
async function must(what, fn, ok = (r) => r.status >= 200 && r.status < 300) {
  for (let i = 0; ; i++) {
    const r = await fn();
    if (ok(r)) return r;
    if (i >= 60) throw new Error(`${what}: ${r.why}`);
    await sleep(1000);
  }
}
process.on('uncaughtException', async (err) => {
  console.error(`chaos: ${err.stack}`);
  stopping = true;
  await stopAll();
  console.log(`chaos: FAIL — the run could not go on: ${err.message}`);
  process.exit(1);
});

// ------------------------------------------------------------------ the run's products, code and buyers

const admin = (await must('admin login', () => api('POST', '/api/users/login', ADMIN))).json.token;
const seeded = (await must('GET /api/products', () => api('GET', '/api/products'))).json;
const model = seeded.find((p) => p.images?.length);
const images = model.images.map((i) => ({ url: i.url, altText: i.altText || 'Chaos product' }));
/** Stock per variant: the first product sells out during the run (its last units raced for), the others do not. */
const STOCKS = [3, 400, 400, 400];
const products = [];
for (const [i, stock] of STOCKS.entries()) {
  const body = benchProduct(i, {
    stock,
    images,
    name: `Chaos jersey ${RUN} #${i + 1}`,
    sku: `CHAOS-${RUN}-${i + 1}`,
    description: 'A product created by scripts/bench/chaos.mjs: its stock is audited after the run.',
  });
  products.push((await must('creating a product', () => api('POST', '/api/admin/products', body, admin))).json);
}
const startStock = new Map(); // "productId|size|color" → units at the start
for (const [i, p] of products.entries())
  for (const size of SIZES) for (const color of COLORS) startStock.set(`${p._id}|${size}|${color}`, STOCKS[i]);
const CODE = `CHAOS${RUN}`.toUpperCase().slice(0, 32);
await must('creating the discount code', () =>
  api(
    'POST',
    '/api/admin/discounts',
    { code: CODE, type: 'percent', value: 10, usageLimit: CODE_LIMIT, active: true },
    admin,
  ),
);
const regs = await pool(BUYERS, (i) =>
  must('registering a buyer', () =>
    api('POST', '/api/users/register', {
      name: `Chaos Buyer ${i + 1}`,
      email: `chaos-${RUN}-${i}@example.com`,
      password: PASSWORD,
    }),
  ),
);
const buyers = regs.map((r, i) => ({ index: i, token: r.json.token, userId: r.json.user?._id ?? r.json._id }));
say(
  `${products.length} products (${STOCKS.join(', ')} units a variant), code ${CODE} (${CODE_LIMIT} uses), ${BUYERS} buyers`,
);

// ------------------------------------------------------------------ what the buyers see

const stats = {
  purchases: 0, // started
  succeeded: 0, // the buyer holds an order (finalized), or paid and left it to the service
  abandonedAfterPay: 0,
  refusedAtCheckout: new Map(), // message → count (sold out, code used up, …)
  refusedAtPay: new Map(),
  cancelled: 0,
  purchasesWithError: 0, // purchases that saw at least one 5xx or timeout
  errors: new Map(), // "step: kind" → count
  retried: new Map(), // step → { completed, refused, unresolved }
  unclear: [], // 4xx answers without a JSON message
  unresolved: [], // steps still failing at their deadline
};
/** Every payment a buyer made at the fake PayPal: { paypalOrderId, checkoutId, buyer, pence, pay, orderId }. */
const captures = [];
const inc = (map, key, n = 1) => map.set(key, (map.get(key) ?? 0) + n);
const kindOf = (r) =>
  r.status === 0 ? `no answer (${r.why})` : `${r.status} ${String(r.json?.message ?? r.text ?? '').slice(0, 80)}`;

/**
 * One step of a purchase: `send` until it answers other than 5xx / no answer, or STEP_DEADLINE_MS passes. Every
 * 5xx or missing answer is counted; a retried step is counted as completed, refused (4xx) or unresolved.
 */
async function stepOf(name, send, purchase, again = () => false) {
  const started = performance.now();
  let tries = 0;
  for (;;) {
    const r = await send();
    tries++;
    const failed = r.status === 0 || r.status >= 500;
    if (failed) {
      inc(stats.errors, `${name}: ${kindOf(r)}`);
      purchase.sawError = true;
    }
    if (!failed && !again(r)) {
      if (r.status >= 400 && typeof r.json?.message !== 'string') stats.unclear.push(`${name}: ${r.why}`);
      if (tries > 1) {
        const row = stats.retried.get(name) ?? { completed: 0, refused: 0, unresolved: 0 };
        row[r.status < 400 ? 'completed' : 'refused']++;
        stats.retried.set(name, row);
      }
      return r;
    }
    if (performance.now() - started > STEP_DEADLINE_MS) {
      const row = stats.retried.get(name) ?? { completed: 0, refused: 0, unresolved: 0 };
      row.unresolved++;
      stats.retried.set(name, row);
      stats.unresolved.push(`${name} (buyer ${purchase.buyer}, checkout ${purchase.checkoutId ?? '-'}): ${kindOf(r)}`);
      return r;
    }
    await sleep(Math.min(4000, 400 * tries));
  }
}

async function purchase(buyer) {
  stats.purchases++;
  const p = { buyer: buyer.index, sawError: false };
  const ok = (r) => r.status >= 200 && r.status < 300;
  try {
    const product = chance(0.25) ? products[0] : pick(products.slice(1));
    const line = { productId: product._id, quantity: 1 + rand(2), size: pick(SIZES), color: pick(COLORS) };
    const add = await stepOf('add', () => api('POST', '/api/cart', line, buyer.token), p);
    if (!ok(add)) return;
    const useCode = chance(1 / 3);
    const checkout = await stepOf(
      'checkout',
      () =>
        api(
          'POST',
          '/api/checkout',
          {
            checkoutItems: [line],
            shippingAddress: ADDRESS,
            paymentMethod: 'PayPal',
            ...(useCode ? { discountCode: CODE } : {}),
          },
          buyer.token,
        ),
      p,
    );
    if (!ok(checkout)) {
      if (checkout.status >= 400 && checkout.status < 500) inc(stats.refusedAtCheckout, kindOf(checkout));
      return;
    }
    p.checkoutId = checkout.json._id;
    const paypal = await call('POST', `${urls.paypal}/__fake/orders`, {
      value: money(pence(checkout.json.totalPrice)),
    });
    if (paypal.status !== 201) throw new Error(`the fake PayPal refused an order: ${paypal.why}`);
    const capture = {
      paypalOrderId: paypal.json.id,
      checkoutId: p.checkoutId,
      buyer: buyer.index,
      pence: pence(checkout.json.totalPrice),
    };
    captures.push(capture);
    const pay = await stepOf(
      'pay',
      () =>
        api(
          'PUT',
          `/api/checkout/${p.checkoutId}/pay`,
          { paymentStatus: 'paid', paymentDetails: { id: paypal.json.id } },
          buyer.token,
        ),
      p,
    );
    capture.pay = pay.status;
    if (!ok(pay)) {
      if (pay.status >= 400 && pay.status < 500) inc(stats.refusedAtPay, kindOf(pay));
      return;
    }
    if (chance(1 / 7)) {
      stats.abandonedAfterPay++;
      stats.succeeded++;
      return;
    }
    const fin = await stepOf(
      'finalize',
      () => api('POST', `/api/checkout/${p.checkoutId}/finalize`, undefined, buyer.token),
      p,
    );
    if (!ok(fin)) return;
    capture.orderId = fin.json._id;
    stats.succeeded++;
    if (chance(0.1)) {
      // an admin cancels it: refunded; retried while the refund is not confirmed yet (409 says so)
      const cancel = await stepOf(
        'cancel',
        () => api('PUT', `/api/admin/orders/${fin.json._id}`, { status: 'Cancelled' }, admin),
        p,
        (r) => r.status === 409 && /not confirmed yet/i.test(String(r.json?.message)),
      );
      if (ok(cancel)) stats.cancelled++;
    }
  } finally {
    if (p.sawError) stats.purchasesWithError++;
  }
}

// ------------------------------------------------------------------ faults

const faults = []; // { at, kind, target, recoveredIn (s), detail }
async function resumeDatabase() {
  if (!stallActive) return;
  try {
    process.kill(shop.ferret.pid, 'SIGCONT');
  } catch {
    // gone
  }
  stallActive = false;
}

/** Seconds until a canary round (catalogue read, a quote through checkout → catalog, a buyer's orders) all answer 2xx. */
async function recovery(since) {
  const canary = buyers[0];
  const quote = { checkoutItems: [{ productId: products[1]._id, quantity: 1, size: 'M', color: COLORS[0] }] };
  for (;;) {
    const rs = await Promise.all([
      api('GET', `/api/products/${products[1]._id}`, undefined, undefined, 5000),
      api('POST', '/api/checkout/quote', quote, canary.token, 5000),
      api('GET', '/api/orders/my-orders', undefined, canary.token, 5000),
    ]);
    if (rs.every((r) => r.status >= 200 && r.status < 300)) return (performance.now() - since) / 1000;
    if ((performance.now() - since) / 1000 > 120) return Infinity;
    await sleep(250);
  }
}

// ------------------------------------------------------------------ supervision, as Kubernetes restarts a pod

const restarts = new Set();
const restarting = new Set(); // ids of processes down or starting again: neither they nor their twins are killed
const killed = new WeakSet(); // handles this script stopped on purpose
const crashes = []; // processes that died of something else: { at, id, how, tail }

/** Starts `p` again (a process that fails to start, e.g. while the database is stalled, is tried again, 5 times). */
async function restartProcess(p) {
  restarting.add(p.id);
  try {
    await startAgain(p);
  } finally {
    restarting.delete(p.id);
  }
}
async function startAgain(p) {
  for (let attempt = 1; ; attempt++) {
    try {
      await stack.restart(p.id, 120_000);
      watch(p);
      return;
    } catch (err) {
      if (attempt >= 5) throw err;
      say(`${p.id} did not start (${err.message.split('\n')[0]}); starting it again in 2 s`);
      await sleep(2000);
    }
  }
}

/** Notices a process of the stack that exits without this script stopping it: a crash (an audit violation), restarted. */
function watch(p) {
  const handle = p.handle;
  void handle.exited.then(async (info) => {
    if (killed.has(handle) || stopping) return;
    const how = info.signal ? `killed by ${info.signal}` : `exited with code ${info.code}`;
    crashes.push({ at: at(), id: p.id, how, tail: handle.tail(12) });
    say(`CRASH: ${p.id} ${how}; restarting it (log: ${handle.logFile})`);
    restarting.add(p.id);
    const restart = sleep(2000).then(() => restartProcess(p).catch((err) => say(`${p.id} stays down: ${err.message}`)));
    restarts.add(restart);
    await restart;
    restarts.delete(restart);
  });
}
for (const p of stack.processes) watch(p);

async function killReplica() {
  const services = stack.processes.filter((p) => p.name !== 'gateway');
  // a replica whose twins are all up (none down or starting again): the service keeps serving
  const candidates = services.filter((p) =>
    services.filter((q) => q.name === p.name).every((q) => q.handle.running() && !restarting.has(q.id)),
  );
  if (!candidates.length) return;
  const victim = pick(candidates);
  const started = performance.now();
  const fault = { at: at(), kind: 'kill replica', target: victim.id };
  faults.push(fault);
  say(`SIGKILL ${victim.id} (pid ${victim.handle.pid})`);
  killed.add(victim.handle);
  restarting.add(victim.id);
  process.kill(victim.handle.pid, 'SIGKILL');
  const serving = recovery(started); // its twin serves meanwhile
  const restart = (async () => {
    await victim.handle.exited;
    const down = 2000 + rand(3000);
    await sleep(down);
    const back = performance.now();
    try {
      await restartProcess(victim);
      fault.readyIn = (performance.now() - back) / 1000;
      say(`${victim.id} back after ${(down / 1000).toFixed(1)} s down + ${fault.readyIn.toFixed(1)} s to ready`);
    } catch (err) {
      fault.detail = `restart failed: ${err.message}`;
      say(`${victim.id} did not come back: ${err.message}`);
    }
  })();
  restarts.add(restart);
  await restart.finally(() => restarts.delete(restart));
  fault.recoveredIn = await serving;
}

async function dropBroker() {
  const started = performance.now();
  const fault = { at: at(), kind: 'drop broker connections', target: `vhost ${shop.vhost}` };
  faults.push(fault);
  const output = await run(
    'rabbitmqctl',
    ['-q', 'close_all_connections', '-p', shop.vhost, 'chaos: a broker failover'],
    {
      capture: true,
    },
  ).catch((err) => `failed: ${err.message}`);
  fault.detail = String(output).trim();
  say(`closed every connection of vhost ${shop.vhost} ${fault.detail}`);
  fault.recoveredIn = await recovery(started);
}

async function stallDatabase(seconds) {
  const fault = { at: at(), kind: 'SIGSTOP database', target: `ferretdb (pid ${shop.ferret.pid}) ${seconds} s` };
  faults.push(fault);
  say(`SIGSTOP the database for ${seconds} s`);
  stallActive = true;
  process.kill(shop.ferret.pid, 'SIGSTOP');
  await sleep(seconds * 1000);
  await resumeDatabase();
  const resumed = performance.now();
  say('SIGCONT the database');
  fault.recoveredIn = await recovery(resumed);
}

async function stopSmtp(seconds) {
  const fault = { at: at(), kind: 'SMTP server down', target: `mailpit ${seconds} s` };
  faults.push(fault);
  say(`stopping the SMTP server (Mailpit) for ${seconds} s`);
  killed.add(shop.mailpit);
  await shop.mailpit.stop();
  await sleep(seconds * 1000);
  await shop.restartMailpit();
  const back = performance.now();
  const before = await mailCount();
  say('SMTP server back');
  // recovered: the first email delivered after it is back (those held back by the outage are retried)
  for (;;) {
    if ((await mailCount()) > before) break;
    if ((performance.now() - back) / 1000 > 120) break;
    await sleep(250);
  }
  fault.recoveredIn = (performance.now() - back) / 1000;
}

async function killGateway() {
  const gw = stack.processes.find((p) => p.name === 'gateway');
  const fault = { at: at(), kind: 'kill gateway', target: gw.id };
  faults.push(fault);
  say(`SIGKILL the gateway (pid ${gw.handle.pid})`);
  const started = performance.now();
  killed.add(gw.handle);
  process.kill(gw.handle.pid, 'SIGKILL');
  await gw.handle.exited;
  await sleep(1000);
  await restartProcess(gw);
  say(`gateway back after ${((performance.now() - started) / 1000).toFixed(1)} s`);
  fault.recoveredIn = await recovery(started);
}

async function mailCount() {
  const r = await call('GET', `${shop.mailpit.url}/api/v1/messages?limit=1`, undefined, undefined, 3000);
  return r.json?.total ?? -1;
}

/** The run's faults, in seconds from the start of the load. */
function schedule() {
  const plan = [];
  const every = LITE ? 15 : 10;
  for (let s = 8; s < SECONDS - 8; s += every - 2 + Math.random() * 4) plan.push({ at: s, run: killReplica });
  const drops = LITE ? [0.5] : [];
  if (!LITE) for (let s = 60; s < SECONDS - 10; s += 60) drops.push(s / SECONDS);
  for (const f of drops) plan.push({ at: f * SECONDS, run: dropBroker });
  for (const f of LITE ? [0.3] : [0.3, 0.7]) plan.push({ at: f * SECONDS, run: () => stallDatabase(5) });
  plan.push({ at: (LITE ? 0.55 : 0.45) * SECONDS, run: () => stopSmtp(LITE ? 10 : 30) });
  plan.push({ at: (LITE ? 0.75 : 0.55) * SECONDS, run: killGateway });
  return plan.sort((a, b) => a.at - b.at);
}

// ------------------------------------------------------------------ the load

const plan = schedule();
say(`load: ${BUYERS} buyers for ${SECONDS} s; ${plan.length} faults planned`);
const loadStart = performance.now();
const loadEnd = loadStart + SECONDS * 1000;
const faultRuns = plan.map(async (f) => {
  await sleep(Math.max(0, loadStart + f.at * 1000 - performance.now()));
  await f.run().catch((err) => say(`fault failed: ${err.message}`));
});
let lastReport = performance.now();
await Promise.all([
  ...buyers.map(async (b) => {
    await sleep(rand(3000));
    while (performance.now() < loadEnd) {
      await purchase(b).catch((err) => say(`buyer ${b.index}: ${err.message}`));
      if (performance.now() - lastReport > 15000) {
        lastReport = performance.now();
        say(
          `${stats.purchases} purchases started, ${stats.succeeded} succeeded, ${[...stats.errors.values()].reduce((a, b) => a + b, 0)} 5xx/timeouts so far`,
        );
      }
      await sleep(200 + rand(600));
    }
  }),
  ...faultRuns,
]);
await Promise.all([...restarts]);
await resumeDatabase();
say(`load over: ${stats.purchases} purchases started, ${stats.succeeded} succeeded; every process back`);

// ------------------------------------------------------------------ settling, then the audit

/** Units held now by checkouts' stock holds, per variant, from the catalog's database (read-only). */
async function catalogHeldUnits(now = new Date()) {
  // Isolated on purpose: the only reader of catalog's stock holds (`holds.<checkoutId>` in its products: their shape
  // belongs to catalog, docs/catalog.md).
  const client = await MongoClient.connect(`${urls.mongo}/${urls.dbPrefix}catalog`, {
    serverSelectionTimeoutMS: 10000,
  });
  try {
    const holding = await client
      .db()
      .collection('products')
      .find({ hasHolds: true }, { projection: { holds: 1 } })
      .toArray();
    const held = new Map(); // variant key → units whose hold has not expired
    const expired = []; // holds past their expiry (and the sweep) still holding units
    for (const product of holding) {
      for (const [checkoutId, hold] of Object.entries(product.holds ?? {})) {
        for (const l of hold.lines ?? []) {
          const key = `${String(product._id)}|${l.size}|${l.color}`;
          if (hold.expiresAt > now) held.set(key, (held.get(key) ?? 0) + l.quantity);
          else expired.push({ checkoutId, key, quantity: l.quantity, expiresAt: hold.expiresAt });
        }
      }
    }
    return { held, expired };
  } finally {
    await client.close();
  }
}

async function readMail() {
  const messages = [];
  for (let start = 0; ; start += 500) {
    const r = await must('Mailpit messages', () =>
      call('GET', `${shop.mailpit.url}/api/v1/messages?start=${start}&limit=500`),
    );
    messages.push(...r.json.messages);
    if (messages.length >= r.json.total || !r.json.messages.length) return messages;
  }
}

async function snapshot() {
  const [orders, mail, held, stock] = await Promise.all([
    must('GET /api/admin/orders', () => api('GET', '/api/admin/orders', undefined, admin, 30000)),
    readMail(),
    catalogHeldUnits(),
    Promise.all(
      products.map((p) =>
        must('GET /api/admin/products/:id', () => api('GET', `/api/admin/products/${p._id}`, undefined, admin)),
      ),
    ),
  ]);
  return { orders: orders.json, mail, held, stock: stock.map((r) => r.json) };
}
const fingerprint = (s) =>
  JSON.stringify([
    s.orders.length,
    s.orders.filter((o) => o.status === 'Cancelled').length,
    s.mail.length,
    [...s.held.held.values()].reduce((a, b) => a + b, 0),
    s.held.expired.length,
    s.stock.map((p) => p.countInStock),
  ]);

const settleStart = performance.now();
const minWait = Math.max(
  SWEEPS.FINALIZE_GRACE_MS + 3 * SWEEPS.FINALIZE_SWEEP_MS,
  SWEEPS.RESERVATION_SECONDS * 1000 + 3 * SWEEPS.RESERVATION_SWEEP_MS,
);
say(`waiting for the sweepers: at least ${(minWait / 1000).toFixed(0)} s, then until the stores stop changing`);
await sleep(minWait);
let snap = await snapshot();
for (let stable = 0; stable < 2 && performance.now() - settleStart < 240_000;) {
  await sleep(4000);
  const next = await snapshot();
  stable = fingerprint(next) === fingerprint(snap) && next.held.expired.length === 0 ? stable + 1 : 0;
  snap = next;
}
say(`settled after ${((performance.now() - settleStart) / 1000).toFixed(0)} s; auditing`);

const violations = [];
const violate = (rule, detail) => violations.push({ rule, detail });
const buyerIds = new Set(buyers.map((b) => b.userId));
const orders = snap.orders.filter((o) => buyerIds.has(String(o.user?._id)));

// 1. Money: every capture ends as exactly one order or exactly one full refund.
const paypalRecords = await pool(captures.length, (i) =>
  must('the fake PayPal order', () => call('GET', `${urls.paypal}/__fake/orders/${captures[i].paypalOrderId}`)),
);
const ordersByPayment = new Map();
for (const o of orders) {
  const id = o.paymentDetails?.id;
  if (!id) violate('no order without a capture', `order ${o._id} has no PayPal payment`);
  else ordersByPayment.set(id, [...(ordersByPayment.get(id) ?? []), o]);
}
const captureIds = new Set(captures.map((c) => c.paypalOrderId));
for (const o of orders)
  if (o.paymentDetails?.id && !captureIds.has(o.paymentDetails.id))
    violate('no order without a capture', `order ${o._id} names PayPal order ${o.paymentDetails.id}, never paid`);
const ledger = { captured: 0, orders: 0, refundedUnplaceable: 0, refundedCancelled: 0 };
captures.forEach((c, i) => {
  const unit = paypalRecords[i].json.order.purchase_units?.[0];
  const capture = unit?.payments?.captures?.[0];
  const refunds = unit?.payments?.refunds ?? [];
  const refunded = refunds.reduce((n, r) => n + pence(Number(r.amount?.value ?? 0)), 0);
  const mine = ordersByPayment.get(c.paypalOrderId) ?? [];
  const what = `capture ${c.paypalOrderId} (checkout ${c.checkoutId}, £${pounds(c.pence)})`;
  if (!capture) return violate('every capture ends as one order or one refund', `${what}: no capture at PayPal`);
  ledger.captured++;
  if (mine.length > 1)
    return violate(
      'every capture ends as one order or one refund',
      `${what}: ${mine.length} orders (${mine.map((o) => o._id).join(', ')})`,
    );
  if (refunds.length > 1 || (refunds.length === 1 && refunded !== c.pence))
    return violate(
      'every capture ends as one order or one refund',
      `${what}: ${refunds.length} refunds of £${pounds(refunded)} in all`,
    );
  const order = mine[0];
  if (!order && refunds.length === 0)
    return violate('every capture ends as one order or one refund', `${what}: neither an order nor a refund`);
  if (order && order.status !== 'Cancelled' && refunds.length)
    return violate(
      'no refund without a cancelled or unplaceable order',
      `${what}: refunded, yet order ${order._id} is ${order.status}`,
    );
  if (order && order.status === 'Cancelled' && !refunds.length)
    return violate(
      'every capture ends as one order or one refund',
      `${what}: order ${order._id} cancelled, never refunded`,
    );
  if (!order) ledger.refundedUnplaceable++;
  else if (order.status === 'Cancelled') ledger.refundedCancelled++;
  else ledger.orders++;
});
function pounds(p) {
  return (p / 100).toFixed(2);
}

// 2. Stock: starting stock = on hand + units in orders not cancelled + units held by unexpired checkouts.
const ordered = new Map();
for (const o of orders)
  if (o.status !== 'Cancelled')
    for (const l of o.orderItems ?? []) {
      const key = `${l.productId}|${l.size}|${l.color}`;
      ordered.set(key, (ordered.get(key) ?? 0) + l.quantity);
    }
const stockRows = [];
for (const p of snap.stock)
  for (const v of p.variants ?? []) {
    const key = `${p._id}|${v.size}|${v.color}`;
    const row = {
      key,
      start: startStock.get(key),
      onHand: v.countInStock,
      ordered: ordered.get(key) ?? 0,
      held: snap.held.held.get(key) ?? 0,
    };
    stockRows.push(row);
    if (row.start !== row.onHand + row.ordered + row.held)
      violate(
        'starting stock = on hand + ordered + held',
        `${p.name} ${v.size}/${v.color}: ${row.start} ≠ ${row.onHand} on hand + ${row.ordered} ordered + ${row.held} held`,
      );
    if (row.onHand < 0) violate('stock never below 0', `${p.name} ${v.size}/${v.color}: ${row.onHand}`);
  }
for (const e of snap.held.expired)
  violate(
    '0 held once every hold expired',
    `checkout ${e.checkoutId} still holds ${e.quantity} of ${e.key} (expired ${e.expiresAt.toISOString()})`,
  );

// 3. The limited code: uses = orders that carry it, never above its limit.
const codes = (await must('GET /api/admin/discounts', () => api('GET', '/api/admin/discounts', undefined, admin))).json;
const code = codes.find((c) => c.code === CODE);
const carrying = orders.filter((o) => o.discount?.code === CODE).length;
if (!code) violate('uses = orders that carry the code', `code ${CODE} not listed`);
else {
  if (code.uses !== carrying)
    violate('uses = orders that carry the code', `${CODE}: ${code.uses} uses counted, ${carrying} orders carry it`);
  if (code.uses > CODE_LIMIT || carrying > CODE_LIMIT)
    violate('never above its limit', `${CODE}: ${code.uses} uses, ${carrying} orders, limit ${CODE_LIMIT}`);
}

// 4. Email: one confirmation per order, one cancellation per refunded (cancelled) order, none for anything else.
// An email is its Message-ID (RFC 5322): the shop gives every delivery of one event's email the same one, so a copy
// delivered again (the SMTP server stored it, then went away before its "250 OK" reached us, and the send was
// retried) is the same email to the buyer's mail client. Mailpit stores each copy: they are counted, not violations.
const subjects = new Map(); // subject → Set of Message-IDs
let copies = 0;
for (const m of snap.mail) {
  const ids = subjects.get(m.Subject) ?? new Set();
  if (ids.has(m.MessageID)) copies++;
  subjects.set(m.Subject, ids.add(m.MessageID));
}
const emailsWith = (subject) => subjects.get(subject)?.size ?? 0;
const orderIds = new Set(orders.map((o) => o._id));
for (const o of orders) {
  const confirmed = emailsWith(`Your order ${o._id} is confirmed`);
  if (confirmed !== 1) violate('one confirmation email per order', `order ${o._id}: ${confirmed}`);
  const cancelled = emailsWith(`Your order ${o._id} has been cancelled`);
  if (cancelled !== (o.status === 'Cancelled' ? 1 : 0))
    violate('one cancellation email per refunded order', `order ${o._id} (${o.status}): ${cancelled}`);
}
for (const [subject] of subjects) {
  const m = /^Your order (\S+) (is confirmed|has been cancelled)$/.exec(subject);
  if (m && !orderIds.has(m[1])) violate('no email for an order that does not exist', subject);
}

// 5. Dead letters: each listed with its cause; none a lost order, payment or email.
const deadLetters = await readDeadLetters();
for (const d of deadLetters) {
  // An email whose event is here is lost unless it went out anyway (an earlier delivery); an order's or a payment's
  // event (orders.*, checkout.*) dead-lettered by any consumer is work on an order or payment left undone.
  const data = d.payload?.data ?? {};
  const orderId = String(data.orderId ?? '');
  const emailed =
    (d.type === 'orders.order.placed' && subjects.has(`Your order ${orderId} is confirmed`)) ||
    (d.type === 'orders.order.status-changed' && subjects.has(`Your order ${orderId} has been cancelled`));
  d.lost = d.queue.includes('notifications') ? !emailed : /^(orders|checkout)\./.test(d.type ?? '');
  if (d.lost)
    violate('no dead letter is a lost order, payment or email', `${d.queue}: ${d.type} ${d.eventId} — ${d.error}`);
}

async function readDeadLetters() {
  const require = createRequire(import.meta.url);
  const { DeadLetters } = require(path.join(ROOT, 'packages/nest-common/dist/index.js'));
  const output = await run('rabbitmqctl', ['-q', 'list_queues', '-p', shop.vhost, 'name', 'messages'], {
    capture: true,
  });
  const queues = String(output)
    .split('\n')
    .map((l) => l.trim().split(/\s+/))
    .filter(([name, n]) => name?.endsWith('.dlq') && Number(n) > 0);
  const out = [];
  for (const [name] of queues) {
    const dlq = await DeadLetters.open(urls.rabbit, name.replace(/\.dlq$/, ''));
    try {
      for (const d of await dlq.list(1000)) {
        let payload;
        try {
          payload = JSON.parse(d.body);
        } catch {
          payload = undefined;
        }
        out.push({ queue: name, ...d, payload });
      }
    } finally {
      await dlq.close();
    }
  }
  return out;
}

// 6. No process of the shop dies of a fault it was not dealt (each crash: its log's last lines above).
for (const c of crashes) violate('no process dies of a fault', `${c.id} ${c.how} at ${c.at.toFixed(0)} s`);

// 7. The buyers: every retried step completed or was refused with a clear 4xx.
for (const u of stats.unresolved) violate('a retried step completes or is refused with a 4xx', u);
for (const u of stats.unclear) violate('a refusal is a JSON {message} 4xx', u);

// ------------------------------------------------------------------ the report

const errorTotal = [...stats.errors.values()].reduce((a, b) => a + b, 0);
console.log('');
console.log(
  `chaos: ${SECONDS} s, ${BUYERS} buyers, ${REPLICAS} replicas of every service (${LITE ? 'lite' : 'every fault'})`,
);
console.log(
  `  purchases: ${stats.purchases} started, ${stats.succeeded} succeeded (${stats.abandonedAfterPay} left after pay for the service to place), ${stats.cancelled} cancelled by the admin; ${orders.length} orders`,
);
console.log(
  `  money: ${ledger.captured} captures = ${ledger.orders} orders + ${ledger.refundedCancelled} cancelled and refunded + ${ledger.refundedUnplaceable} refunded unplaced`,
);
console.log(
  `  refused at checkout: ${[...stats.refusedAtCheckout].map(([k, n]) => `${n} × ${k}`).join('; ') || 'none'}`,
);
console.log(`  refused at pay: ${[...stats.refusedAtPay].map(([k, n]) => `${n} × ${k}`).join('; ') || 'none'}`);
console.log(`  buyer-visible 5xx / no answer: ${errorTotal} in ${stats.purchasesWithError} purchases`);
for (const [k, n] of [...stats.errors].sort((a, b) => b[1] - a[1])) console.log(`    ${String(n).padStart(4)} × ${k}`);
console.log(
  `  retried steps: ${[...stats.retried].map(([s, r]) => `${s} ${r.completed} completed, ${r.refused} refused (4xx), ${r.unresolved} unresolved`).join('; ') || 'none'}`,
);
console.log(`  faults: ${faults.length}`);
for (const f of faults)
  console.log(
    `    ${f.at.toFixed(0).padStart(4)} s  ${f.kind.padEnd(24)} ${f.target.padEnd(30)} recovered in ${Number.isFinite(f.recoveredIn) ? `${f.recoveredIn.toFixed(1)} s` : 'never'}${f.readyIn !== undefined ? ` (restarted replica ready in ${f.readyIn.toFixed(1)} s)` : ''}${f.detail ? `  ${f.detail}` : ''}`,
  );
console.log(
  `  stock: ${stockRows.length} variants; ${stockRows.reduce((n, r) => n + r.ordered, 0)} units in live orders, ${stockRows.reduce((n, r) => n + r.held, 0)} held by unexpired checkouts`,
);
console.log(`  code ${CODE}: ${code?.uses} uses of ${CODE_LIMIT}, ${carrying} orders carry it`);
console.log(
  `  email: ${snap.mail.length} messages in Mailpit, ${copies} of them a second copy of an email (same Message-ID, delivered again after the SMTP server went away mid-send)`,
);
console.log(`  dead letters: ${deadLetters.length}`);
for (const d of deadLetters)
  console.log(`    ${d.queue}: ${d.type} ${d.eventId} — ${d.error}${d.lost ? '  (LOST)' : ''}`);
for (const v of violations) console.log(`  VIOLATION [${v.rule}] ${v.detail}`);

if (process.env.CHAOS_JSON)
  fs.writeFileSync(
    process.env.CHAOS_JSON,
    JSON.stringify(
      {
        seconds: SECONDS,
        buyers: BUYERS,
        replicas: REPLICAS,
        lite: LITE,
        stats: {
          ...stats,
          refusedAtCheckout: Object.fromEntries(stats.refusedAtCheckout),
          refusedAtPay: Object.fromEntries(stats.refusedAtPay),
          errors: Object.fromEntries(stats.errors),
          retried: Object.fromEntries(stats.retried),
        },
        orders: orders.length,
        mail: { messages: snap.mail.length, copies },
        money: ledger,
        faults,
        deadLetters,
        violations,
      },
      null,
      2,
    ),
  );

stopping = true;
for (const c of crashes)
  console.log(
    `  crash of ${c.id} (${c.how}) at ${c.at.toFixed(0)} s; its last lines:\n${c.tail.replace(/^/gm, '      ')}`,
  );
await shop.stop();
if (violations.length) {
  // the next run starts from an empty log directory: keep this one's
  const kept = `${shop.logDir}-failed-${RUN}`;
  fs.renameSync(shop.logDir, kept);
  console.log(`  the stack's logs: ${path.relative(ROOT, kept)}/`);
}
const verdict = violations.length
  ? `chaos: FAIL — ${violations.length} audit violation(s) after ${stats.purchases} purchases and ${faults.length} faults`
  : `chaos: PASS — 0 audit violations after ${stats.purchases} purchases (${stats.succeeded} succeeded), ${faults.length} faults, ${errorTotal} buyer-visible 5xx/timeouts`;
console.log(verdict);
process.exit(violations.length ? 1 : 0);
