// Admin orders benchmark (issue 25): `node scripts/bench/admin-orders.mjs` against a running shop (`npm start`).
//
// Order of the steps: seed, the database alone, the CSV export, then the lists through the gateway (last: a request
// the service gives up on goes on running in the database for a while and would slow the steps after it).
// Seeds BENCH_ORDERS synthetic orders into the orders service's database the way the catalogue benches seed theirs:
// by the service's own program (services/orders/dist/seed/synthetic-orders.main.js --count=N, MONGO_URI the orders
// database), which skips what an earlier run inserted. Then, through the gateway with the seeded admin's token, per
// concurrency in BENCH_CONCURRENCY, BENCH_REQUESTS requests of each case (after 2 warm-up requests), and their
// p50/p99/max, errors and the verdict against the issue's target (p99 ≤ 300 ms):
//   email search GET /api/admin/orders?page=1&q=<a buyer's whole email> (equality on the indexed customerEmail)
//   name search  GET /api/admin/orders?page=1&q=<the start of a name>   (a range on customerName/customerEmail)
//   filtered     GET /api/admin/orders?page=1&status=Shipped&from=<90 days ago>
//   first page   GET /api/admin/orders?page=1                          (newest first, 25, with X-Total-Count)
//   any page     GET /api/admin/orders?page=<1 to the last>              (the same, deep pages: skip in the database)
// Then the same queries straight to the orders database with the mongodb driver (no service, no timeout): what the
// database itself takes for each case's page (find, sort, limit 25, as the service asks) and count (countDocuments),
// p50/p99/max over BENCH_DB_RUNS runs of each. With BENCH_SKIP=lists,csv (and seed, if seeded) this step needs no
// running shop: ORDERS_MONGO_URI may point at any server, e.g. a standalone .tools/bin/ferretdb-dev.
// Then the CSV of every order (GET /api/admin/orders/export.csv, gzip accepted, as a browser asks) is read to its
// end while the VmRSS of the gateway and of orders is sampled every 100 ms from /proc/<pid>/status (the pids by the
// stack's pid files, scripts/bench/lib/rss.mjs): their peaks against the target (≤ 150 MB each), and the rows,
// bytes and time of the export. With BENCH_REMOVE=1 the synthetic orders are removed at the end.
//
// Environment:
//   GATEWAY_URL        default http://127.0.0.1:8080
//   ORDERS_MONGO_URI   the orders database, default mongodb://127.0.0.1:27017/shop_orders (npm start's)
//   BENCH_SCOPE        the stack whose pids are read (scripts/lib/procs.mjs pid files), default dev (npm start)
//   BENCH_ORDERS       orders to have, default 100000
//   BENCH_CONCURRENCY  comma-separated, default 1,4,8
//   BENCH_REQUESTS     requests per case and concurrency, default 40
//   BENCH_TIMEOUT_MS   per request, default 120000
//   BENCH_DB_RUNS      runs of each query straight to the database, default 20
//   BENCH_SKIP         comma-separated steps to skip: seed, lists, database, csv
//   BENCH_REMOVE       1: remove the synthetic orders at the end
//   BENCH_JSON         write the results to this file as JSON too
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { rssKiB, stackProcesses } from './lib/rss.mjs';
import { GATEWAY, adminToken, call, fail, machine, pool, quantiles } from './lib/shop.mjs';

const env = process.env;
const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '../..');
const ORDERS_MONGO_URI = env.ORDERS_MONGO_URI || 'mongodb://127.0.0.1:27017/shop_orders';
const SCOPE = env.BENCH_SCOPE || 'dev';
const ORDERS = Number(env.BENCH_ORDERS || 100_000);
const CONCURRENCY = (env.BENCH_CONCURRENCY || '1,4,8').split(',').map(Number);
const REQUESTS = Number(env.BENCH_REQUESTS || 40);
const TIMEOUT_MS = Number(env.BENCH_TIMEOUT_MS || 120_000);
const DB_RUNS = Number(env.BENCH_DB_RUNS || 20);
const SKIP = new Set((env.BENCH_SKIP || '').split(',').filter(Boolean));
const P99_TARGET_MS = 300;
const RSS_TARGET_MB = 150;
const SEED_MAIN = path.join(root, 'services/orders/dist/seed/synthetic-orders.main.js');

/** A latency column: "  79 ms", or a dash when no request succeeded. */
const ms = (value) => (value === null ? '—' : `${value}`).padStart(6) + ' ms';

/** Runs the orders' synthetic seed program with `arg`; resolves with its last line. */
function runSeed(arg) {
  if (!fs.existsSync(SEED_MAIN)) fail(`${path.relative(root, SEED_MAIN)} is missing: build first (npm run build).`);
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [SEED_MAIN, arg], {
      env: { ...env, MONGO_URI: ORDERS_MONGO_URI },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    child.on('exit', (code) =>
      code === 0 ? resolve(out.trim().split('\n').at(-1)) : reject(new Error(`seed exited ${code}: ${out}`)),
    );
  });
}

/** Latencies of `count` GETs of `path` with `parallel` in flight. */
async function measure(token, pathOf, count, parallel) {
  const results = await pool(count, (i) => call('GET', pathOf(i), undefined, token, TIMEOUT_MS), parallel);
  const ok = results.filter((r) => r.status === 200);
  const errors = {};
  for (const r of results.filter((x) => x.status !== 200))
    errors[r.status || r.why] = (errors[r.status || r.why] ?? 0) + 1;
  return { ...quantiles(ok.map((r) => r.ms)), errors };
}

/**
 * The same queries straight to the orders database (the mongodb driver, no service, no timeout), `runs` times one
 * after another: what the database itself takes for each case's page and count (p50, p99, max).
 */
async function databaseAlone(runs) {
  const { MongoClient } = await import('mongodb');
  const client = new MongoClient(ORDERS_MONGO_URI, { serverSelectionTimeoutMS: 5000 });
  await client.connect();
  const orders = client.db().collection('orders');
  const from = new Date(Date.now() - 90 * 86_400_000);
  const range = (p) => ({ $gte: p, $lt: `${p}\uffff` });
  const queries = [
    ['first page', {}, { createdAt: -1, _id: -1 }],
    ['email search', { customerEmail: 'buyer4242@example.com' }, { createdAt: -1, _id: -1 }],
    [
      'name search',
      { $or: [{ customerName: range('ben b') }, { customerEmail: range('ben b') }] },
      { createdAt: -1, _id: -1 },
    ],
    ['filtered', { status: 'Shipped', createdAt: { $gte: from } }, { createdAt: -1, _id: -1 }],
  ];
  const out = [];
  try {
    for (const [name, filter, sort] of queries) {
      const page = [];
      const count = [];
      for (let i = 0; i < runs; i++) {
        let t = performance.now();
        await orders
          .find(filter, { projection: { outbox: 0 } })
          .sort(sort)
          .limit(25)
          .toArray();
        page.push(performance.now() - t);
        t = performance.now();
        await orders.countDocuments(filter);
        count.push(performance.now() - t);
      }
      const p = quantiles(page);
      const c = quantiles(count);
      out.push({ name, runs, page: p, count: c });
      console.log(
        `  ${name.padEnd(14)} page ${ms(p.p50)} ${ms(p.p99)} ${ms(p.max)}   count ${ms(c.p50)} ${ms(c.p99)} ${ms(c.max)}`,
      );
    }
  } finally {
    await client.close();
  }
  return out;
}

/** Reads the CSV export to its end (gunzipping it) while sampling the RSS of the gateway and orders. */
async function exportRun(token) {
  const pids = stackProcesses(SCOPE);
  const watched = ['gateway', 'orders'].filter((name) => pids.has(name));
  if (watched.length < 2)
    console.log(`  (RSS: no pid file for ${['gateway', 'orders'].filter((n) => !pids.has(n))} in scope ${SCOPE})`);
  const before = Object.fromEntries(watched.map((name) => [name, rssKiB(pids.get(name)) / 1024]));
  const peak = { ...before };
  const sampler = setInterval(() => {
    for (const name of watched) peak[name] = Math.max(peak[name], rssKiB(pids.get(name)) / 1024 || 0);
  }, 100);
  const started = performance.now();
  let firstByteMs = null;
  let bytes = 0;
  let rows = 0;
  let encoding = 'identity';
  try {
    const res = await fetch(`${GATEWAY}/api/admin/orders/export.csv`, {
      headers: { authorization: `Bearer ${token}`, 'accept-encoding': 'gzip' },
      // the export of 100,000 orders takes a while; the fetch must not give up first
      signal: AbortSignal.timeout(30 * 60_000),
    });
    if (res.status !== 200) throw new Error(`export: HTTP ${res.status} ${await res.text()}`);
    encoding = res.headers.get('content-encoding') || 'identity';
    // fetch decodes gzip itself: count what it hands over (the CSV's bytes) and its rows
    for await (const chunk of Readable.fromWeb(res.body)) {
      firstByteMs ??= performance.now() - started;
      bytes += chunk.length;
      for (let i = 0; i < chunk.length; i++) if (chunk[i] === 10) rows++;
    }
  } finally {
    clearInterval(sampler);
  }
  const ms = performance.now() - started;
  return {
    seconds: +(ms / 1000).toFixed(1),
    firstByteMs: Math.round(firstByteMs ?? ms),
    bytes,
    lines: rows - 1, // the header
    contentEncoding: encoding,
    rssBeforeMb: Object.fromEntries(Object.entries(before).map(([k, v]) => [k, Math.round(v)])),
    rssPeakMb: Object.fromEntries(Object.entries(peak).map(([k, v]) => [k, Math.round(v)])),
  };
}

// ------------------------------------------------------------------ main

const started = new Date();
console.log(`Admin orders benchmark — ${started.toISOString()}`);
console.log(`  machine: ${machine()}`);
console.log(`  gateway ${GATEWAY}, orders database ${ORDERS_MONGO_URI}, pids of stack "${SCOPE}"`);
// The database step alone needs no shop: the gateway is asked for only by the steps through it.
const throughGateway = !SKIP.has('lists') || !SKIP.has('csv');
let token = null;
if (throughGateway) {
  const ready = await call('GET', '/ready');
  if (ready.status !== 200) fail(`no ready shop at ${GATEWAY} (${ready.why}). Start it with npm start.`);
  token = await adminToken();
}
const results = { at: started.toISOString(), machine: machine(), orders: ORDERS, cases: [], export: null };

if (!SKIP.has('seed')) {
  const t = performance.now();
  console.log(`  seeding: ${await runSeed(`--count=${ORDERS}`)} (${((performance.now() - t) / 1000).toFixed(1)} s)`);
}
if (!SKIP.has('database')) {
  console.log(`\n  The same queries straight to the orders database, ${DB_RUNS} runs of each:`);
  console.log(
    `  ${'case'.padEnd(14)} page ${'p50'.padStart(9)} ${'p99'.padStart(9)} ${'max'.padStart(9)}   count ${'p50'.padStart(9)} ${'p99'.padStart(9)} ${'max'.padStart(9)}`,
  );
  results.databaseAlone = await databaseAlone(DB_RUNS);
}

if (!SKIP.has('csv')) {
  console.log('\n  CSV export of every order through the gateway (gzip accepted), RSS sampled every 100 ms:');
  const e = await exportRun(token);
  results.export = e;
  console.log(
    `  ${e.lines} lines (rows), ${(e.bytes / 2 ** 20).toFixed(1)} MB of CSV (${e.contentEncoding} on the wire) in ${e.seconds} s, first byte after ${e.firstByteMs} ms`,
  );
  for (const name of Object.keys(e.rssPeakMb)) {
    const ok = e.rssPeakMb[name] <= RSS_TARGET_MB;
    console.log(
      `  ${name.padEnd(8)} RSS ${e.rssBeforeMb[name]} MB before, peak ${e.rssPeakMb[name]} MB [${ok ? 'PASS' : 'MISS'} ≤ ${RSS_TARGET_MB} MB]`,
    );
  }
}

if (!SKIP.has('lists')) {
  const from = new Date(Date.now() - 90 * 86_400_000).toISOString().slice(0, 10);
  // the cheap cases first: a request the service gave up on still runs in the database for a while
  const cases = [
    ['email search', (i) => `/api/admin/orders?page=1&q=buyer${(i * 7919) % ORDERS}%40example.com`],
    ['name search', (i) => `/api/admin/orders?page=1&q=${['ada', 'ben b', 'cleo', 'dev', 'milo m'][i % 5]}`],
    ['filtered', () => `/api/admin/orders?page=1&status=Shipped&from=${from}`],
    ['first page', () => '/api/admin/orders?page=1'],
    // pages anywhere in the list, the last included: what Next and a shared link open
    ['any page', (i) => `/api/admin/orders?page=${1 + ((i * 1231) % Math.ceil(ORDERS / 25))}`],
  ];
  console.log(`\n  ${REQUESTS} requests per case and concurrency (2 warm-up first); target p99 ≤ ${P99_TARGET_MS} ms`);
  console.log(
    `  ${'case'.padEnd(14)} ${'conc'.padStart(4)} ${'p50'.padStart(8)} ${'p99'.padStart(8)} ${'max'.padStart(8)}  errors  verdict`,
  );
  for (const [name, pathOf] of cases) {
    await measure(token, pathOf, 2, 1);
    for (const concurrency of CONCURRENCY) {
      const r = await measure(token, pathOf, REQUESTS, concurrency);
      const verdict = r.p99 !== null && r.p99 <= P99_TARGET_MS && !Object.keys(r.errors).length ? 'PASS' : 'MISS';
      results.cases.push({ name, concurrency, ...r, verdict });
      console.log(
        `  ${name.padEnd(14)} ${String(concurrency).padStart(4)} ${ms(r.p50)} ${ms(r.p99)} ${ms(r.max)}  ${JSON.stringify(r.errors).padEnd(6)}  ${verdict}`,
      );
    }
  }
}

if (env.BENCH_REMOVE === '1') console.log(`  ${await runSeed('--remove')}`);
if (env.BENCH_JSON) fs.writeFileSync(env.BENCH_JSON, JSON.stringify(results, null, 2));
process.exit(0);
