// Browsing benchmark: `node scripts/bench/browse.mjs` (figures and how to read them: docs/performance.md).
//
// The browse mix: a seeded random sequence of BENCH_REQUESTS catalogue reads — 55 % filtered and sorted lists
// (random filters, as the SPA's collection page sends them: no limit unless BENCH_LIST_LIMIT), 30 % product
// pages, 15 % similar products — in which nearly every list URL is new, as shoppers' are. Every gateway figure is
// reported against the architecture's own limit measured in the same run, the bare two-hop: a bare Node proxy
// (bare-proxy.mjs) in front of a bare Node server (bare-browse-server.mjs) answering every URL with the bytes the
// catalog really sent for it (recorded before the rounds), each its own process. In ONE run, one case after another
// (never in parallel), with autocannon: the bare two-hop; the mix through the gateway; straight to the catalog
// (information); both again while a writer changes stock BENCH_CHURN times a second (reservations and releases over
// RabbitMQ, as checkouts do); the bare server alone (information: what the hop costs). Every case gets the same
// requests over the same connections: before it every cache is emptied (a catalog version bump, as the seed does)
// and warmed with 2,000 requests of another sequence, then it answers the BENCH_REQUESTS of the sequence once (cold
// URLs are the point; a second pass would be the caches' alone). BENCH_ROUNDS rounds of all the cases; the medians
// are printed in a table, and one PASS/MISS line per target, against the bare two-hop (without churn, which it has
// no stock for): the mix through the gateway, with and without the churn, ≥ 60 % of its req/s, p99 ≤ 3× its p99,
// and 0 errors in every case.
//
// `node scripts/bench/browse.mjs --scale=65,10000,100000`: per catalogue size, a catalog of its own (port
// BENCH_SCALE_PORT, database bench_catalog_<size> on BENCH_MONGO_URL, seeded once: the NFL seed for 65, else
// `seed.main --synthetic=<size>`): its load time, RSS, memory per product, and for filtered lists (limit=24),
// searches (limit=24) and product pages the latency at BENCH_SCALE_RATE (200) requests a second, arriving at random
// (lib/open-loop.mjs: an open loop, latency from each request's arrival), and the throughput flat out,
// BENCH_DURATION seconds each; then, through a gateway of its own in front (port
// BENCH_SCALE_PORT + 1, its HTTP cache on), what a fan types into the header search — word starts, typos, a team then
// a word's start ("pakers hod") — as suggestions (GET /api/products/suggest?q=) and as searches (limit=24), and the
// filtered searches, each against issue 37's target: p99 ≤ 50 ms; and the full-text index's build time and RSS.
//
// Assumes the shop runs (gateway and catalog built from this tree; `npm start` or by hand). Environment:
//   GATEWAY_URL (http://127.0.0.1:8080), CATALOG_URL (http://127.0.0.1:3001), RABBITMQ_NAMESPACE (''),
//   REDIS_URL, RABBITMQ_URL, BENCH_REQUESTS (40000), BENCH_CONNECTIONS (32), BENCH_SEED (1), BENCH_CHURN (10),
//   BENCH_LIST_LIMIT (none), BENCH_ROUNDS (3: every case is run this many times, medians compared),
//   BENCH_MONGO_URL (mongodb://127.0.0.1:27017), BENCH_SCALE_PORT (3111), BENCH_DURATION (10: the scale runs),
//   BENCH_JSON,
//   GATEWAY_METRICS_URL (the gateway's port + 1000, /metrics: its cache's hit rate, shown when reachable).
import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { BRANDS, CATEGORIES, FILTER_COLORS, MATERIALS, PATTERNS, SIZES } from '@shop/contracts';
import { RpcClient, consumerTopology, namespacedExchange, namespacedQueue } from '@shop/nest-common';
import amqp from 'amqplib';
import autocannon from 'autocannon';
import { Redis } from 'ioredis';
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { openLoop } from './lib/open-loop.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '../..');
const env = process.env;
const GATEWAY = (env.GATEWAY_URL || 'http://127.0.0.1:8080').replace(/\/+$/, '');
const GATEWAY_METRICS =
  env.GATEWAY_METRICS_URL || `http://127.0.0.1:${Number(new URL(GATEWAY).port || 80) + 1000}/metrics`;
const CATALOG = (env.CATALOG_URL || 'http://127.0.0.1:3001').replace(/\/+$/, '');
const NAMESPACE = env.RABBITMQ_NAMESPACE || '';
const REDIS_URL = env.REDIS_URL || 'redis://127.0.0.1:6379';
const RABBITMQ_URL = env.RABBITMQ_URL || 'amqp://guest:guest@127.0.0.1:5672';
const REQUESTS = Number(env.BENCH_REQUESTS || 40_000);
const CONNECTIONS = Number(env.BENCH_CONNECTIONS || 32);
const SEED = Number(env.BENCH_SEED || 1);
const CHURN = Number(env.BENCH_CHURN || 10);
const LIST_LIMIT = Number(env.BENCH_LIST_LIMIT || 0);
const ROUNDS = Number(env.BENCH_ROUNDS || 3);
const MONGO_URL = (env.BENCH_MONGO_URL || 'mongodb://127.0.0.1:27017').replace(/\/+$/, '');
const SCALE_PORT = Number(env.BENCH_SCALE_PORT || 3111);
const DURATION = Number(env.BENCH_DURATION || 10);
const SCALE_RATE = Number(env.BENCH_SCALE_RATE || 200);
const WARM_UP = 2_000;

function fail(message) {
  console.error(`bench: ${message}`);
  process.exit(1);
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const port = (url) => Number(new URL(url).port || 80);

// ------------------------------------------------------------------ the mix

/** mulberry32: a small seedable PRNG, so that every run asks the same sequence. */
function prng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), a | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** What the mix draws from: product ids, collections and search words of a sample of the catalogue. */
async function sampleOf(base) {
  const products = new Map();
  const lists = ['newest', 'priceAsc', 'priceDesc', 'popularity'].flatMap((sortBy) =>
    ['', ...CATEGORIES.map((c) => `&category=${encodeURIComponent(c)}`)].map((f) => `sortBy=${sortBy}${f}`),
  );
  for (const query of lists) {
    const res = await fetch(`${base}/api/products?limit=100&${query}`);
    if (!res.ok) fail(`${base} answered ${res.status} to a product list`);
    for (const p of await res.json()) products.set(p._id, p);
  }
  if (!products.size) fail('the catalogue is empty: seed it first (npm start seeds an empty database).');
  const all = [...products.values()];
  const words = new Set(all.flatMap((p) => p.name.toLowerCase().match(/[a-z]{4,}/g) ?? []));
  return {
    ids: all.map((p) => p._id),
    // variants with stock to spare, for the churn's reservations (a line names its size and colour)
    inStock: all.flatMap((p) =>
      (p.variants ?? [])
        .filter((v) => v.countInStock > 5)
        .map((v) => ({ productId: p._id, size: v.size ?? undefined, color: v.color ?? undefined })),
    ),
    collections: [...new Set(all.map((p) => p.collections).filter(Boolean))],
    words: [...words],
  };
}

/**
 * A list as the SPA's collection page asks for it (web/src/features/catalog/filters.ts): the collection unless
 * `all`, filters the shopper picked (one colour; sizes, materials and brands comma-separated), a sort, a search;
 * no limit, unless `limit` is given (an API client paging, and the scale runs). `search`: sometimes, always, never.
 */
function listPath(rnd, sample, { limit, search = 'sometimes' } = {}) {
  const pick = (values) => values[Math.floor(rnd() * values.length)];
  const some = (values, most) => [...new Set(Array.from({ length: 1 + Math.floor(rnd() * most) }, () => pick(values)))];
  const q = new URLSearchParams();
  if (rnd() < 0.3) q.set('collection', pick(sample.collections));
  if (rnd() < 0.5) q.set('gender', pick(['Men', 'Women']));
  if (rnd() < 0.5) q.set('category', pick(CATEGORIES));
  if (rnd() < 0.25) q.set('size', some(SIZES, 2).join(','));
  if (rnd() < 0.25) q.set('color', pick(FILTER_COLORS));
  if (rnd() < 0.15) q.set('material', some(MATERIALS, 2).join(','));
  if (rnd() < 0.2) q.set('brand', some(BRANDS, 2).join(','));
  if (rnd() < 0.3) {
    const min = pick([0, 10, 20, 30, 50]);
    q.set('minPrice', String(min));
    if (rnd() < 0.7) q.set('maxPrice', String(min + pick([20, 50, 100])));
  }
  if (search === 'always' || (search === 'sometimes' && rnd() < 0.2)) q.set('search', pick(sample.words));
  if (rnd() < 0.6) q.set('sortBy', pick(['priceAsc', 'priceDesc', 'popularity']));
  if (limit) q.set('limit', String(limit));
  return `/api/products?${q}`;
}

/** 55 % lists, 30 % product pages, 15 % similar products. */
function browseMix(sample, count, seed) {
  const rnd = prng(seed);
  const id = () => sample.ids[Math.floor(rnd() * sample.ids.length)];
  return Array.from({ length: count }, () => {
    const r = rnd();
    if (r < 0.55) return listPath(rnd, sample, { limit: LIST_LIMIT });
    return r < 0.85 ? `/api/products/${id()}` : `/api/products/similar/${id()}`;
  });
}

// ------------------------------------------------------------------ measuring

/**
 * autocannon over a list of paths, each connection taking the next one and sending it once answered (flat out; a
 * given rate is lib/open-loop.mjs's): `amount` requests, or `duration` s. `elapsed`: seconds from the start to the
 * last response (autocannon ends an `amount` run at its next one-second tick, which would understate the rate by up
 * to a second).
 */
function run(base, paths, { amount, duration, connections = CONNECTIONS, from = 0 } = {}) {
  let next = from;
  const started = process.hrtime.bigint();
  let last = started;
  return new Promise((resolve, reject) => {
    const instance = autocannon(
      {
        url: base,
        connections,
        pipelining: 1,
        timeout: 10,
        ...(amount ? { amount } : { duration }),
        requests: [{ setupRequest: (req) => ({ ...req, path: paths[next++ % paths.length] }) }],
      },
      (err, result) => (err ? reject(err) : resolve({ ...result, elapsed: Number(last - started) / 1e9, next })),
    );
    instance.on('response', () => {
      last = process.hrtime.bigint();
    });
  });
}

function row(name, target, r, extra = {}) {
  const out = {
    case: name,
    target,
    rps: Math.round(r.requests.total / r.elapsed),
    p50: r.latency.p50,
    p99: r.latency.p99,
    requests: r.requests.total,
    errors: r.errors + r.timeouts + r.non2xx,
    ...extra,
  };
  console.log(
    `  ${name.padEnd(24)} ${target.padEnd(12)} ${String(out.rps).padStart(6)} req/s   p50 ${String(out.p50).padStart(3)} ms   p99 ${String(out.p99).padStart(4)} ms   CPU/request ${out.serverUsPerRequest}${out.perServerUs ? ` (${out.perServerUs.join(' + ')})` : ''} µs + client ${out.clientUsPerRequest} µs   load ${out.load}${out.hitRate !== undefined ? `   cache hits ${Math.round(out.hitRate * 100)}%` : ''}${out.errors ? `   ${out.errors} errors/non-2xx` : ''}`,
  );
  return out;
}

/** The gateway cache's hits and misses so far (its Prometheus counters), or undefined when its metrics are off. */
async function cacheCounts() {
  const text = await fetch(GATEWAY_METRICS).then(
    (r) => (r.ok ? r.text() : ''),
    () => '',
  );
  const count = (result) =>
    Number(new RegExp(`^shop_catalog_cache_requests_total\\{result="${result}"[^}]*\\} (\\d+)`, 'm').exec(text)?.[1]);
  const counts = { hits: count('hit'), misses: count('miss') };
  return Number.isNaN(counts.hits + counts.misses) ? undefined : counts;
}

/** Empties every cache as the seed does: a version bump that names no change (catalog reloads, gateway drops). */
async function coldCaches(redis, namespace, base) {
  const key = `${namespace}catalog:version`;
  await redis.publish(key, String(await redis.incr(key)));
  await fetch(`${base}/api/products/best-seller`).then((r) => r.arrayBuffer()); // waits for the reload
}

/** Fetches every URL once from the catalog; returns the recording file for the bare server (bare-browse-server.mjs). */
async function record(paths) {
  const unique = [...new Set(paths)];
  const index = {};
  const chunks = [];
  const byEtag = new Map();
  let offset = 0;
  let at = 0;
  const worker = async () => {
    while (at < unique.length) {
      const url = unique[at++];
      const res = await fetch(`${CATALOG}${url}`);
      const body = Buffer.from(await res.arrayBuffer());
      if (res.status !== 200) fail(`the catalog answered ${res.status} to ${url}`);
      const etag = res.headers.get('etag');
      if (!byEtag.has(etag)) {
        byEtag.set(etag, [offset, body.length]);
        chunks.push(body);
        offset += body.length;
      }
      index[url] = [...byEtag.get(etag), etag];
    }
  };
  await Promise.all(Array.from({ length: 16 }, worker));
  const head = Buffer.from(JSON.stringify(index));
  const length = Buffer.alloc(4);
  length.writeUInt32BE(head.length);
  const file = path.join(os.tmpdir(), `bench-browse-${process.pid}.bin`);
  fs.writeFileSync(file, Buffer.concat([length, head, ...chunks]));
  return { file, urls: unique.length, bytes: offset };
}

function startProcess(args, childEnv, ready) {
  const child = spawn(process.execPath, args, { env: childEnv, stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    let seen = '';
    const onData = (chunk) => {
      seen = (seen + chunk.toString()).slice(-4096);
      const match = ready.exec(seen);
      if (!match) return;
      child.stdout.off('data', onData);
      child.stdout.resume(); // keep draining its log
      resolve({ child, match, seen });
    };
    child.stdout.on('data', onData);
    child.on('exit', (code) => reject(new Error(`${path.basename(args[0])} exited with ${code}`)));
  });
}

async function startBare(file) {
  const { child, match } = await startProcess(
    [path.join(here, 'bare-browse-server.mjs'), file, '0'],
    env,
    /listening (\d+)/,
  );
  return { url: `http://127.0.0.1:${match[1]}`, pid: child.pid, stop: () => child.kill('SIGTERM') };
}

/** The proxy of the bare two-hop (bare-proxy.mjs) in front of `upstream`. */
async function startBareProxy(upstream) {
  const { child, match } = await startProcess(
    [path.join(here, 'bare-proxy.mjs'), upstream, '0'],
    env,
    /listening (\d+)/,
  );
  return { url: `http://127.0.0.1:${match[1]}`, pid: child.pid, stop: () => child.kill('SIGTERM') };
}

/**
 * Changes stock `perSecond` times a second, as checkouts do: over RabbitMQ, one checkout holds a unit of its
 * product, then lets it go, in turn. The same CHECKOUTS checkouts come back round (a released checkout reserves
 * afresh), so the reservations collection stays small, as the sweeper keeps it in a shop.
 */
function startChurn(variants, perSecond) {
  Logger.overrideLogger(false); // the RabbitMQ client's connection chatter
  const rpc = new RpcClient('catalog', { url: RABBITMQ_URL, namespace: NAMESPACE, timeoutMs: 5000 });
  const CHECKOUTS = 10;
  const counts = { writes: 0, failed: 0 };
  const holding = new Set();
  let tick = 0;
  const timer = setInterval(() => {
    const k = tick++ % CHECKOUTS;
    const checkoutId = `bench-churn-${k}`;
    const call = holding.has(k)
      ? rpc.send(PATTERNS.catalog.releaseStock, { checkoutId }).then(() => holding.delete(k))
      : rpc
          .send(PATTERNS.catalog.reserveStock, {
            checkoutId,
            lines: [{ ...variants[k % variants.length], quantity: 1 }],
          })
          .then(() => holding.add(k));
    call.then(
      () => (counts.writes += 1),
      () => (counts.failed += 1),
    );
  }, 1000 / perSecond);
  return {
    async stop() {
      clearInterval(timer);
      await sleep(500);
      // A release refused (an RPC timeout on a busy box) leaves its unit to the reservation sweeper; the run goes on.
      for (const k of holding)
        await rpc
          .send(PATTERNS.catalog.releaseStock, { checkoutId: `bench-churn-${k}` })
          .catch(() => (counts.failed += 1));
      await rpc.onApplicationShutdown();
      return counts;
    },
  };
}

/** The pid of the process listening on a local TCP port (Linux /proc), or undefined. */
function pidListeningOn(port) {
  const hexPort = `:${port.toString(16).toUpperCase().padStart(4, '0')}`;
  const inodes = new Set();
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    for (const line of fs.readFileSync(table, 'utf8').split('\n').slice(1)) {
      const cols = line.trim().split(/\s+/);
      if (cols[1]?.endsWith(hexPort) && cols[3] === '0A') inodes.add(cols[9]);
    }
  }
  for (const pid of fs.readdirSync('/proc').filter((p) => /^\d+$/.test(p))) {
    try {
      for (const fd of fs.readdirSync(`/proc/${pid}/fd`)) {
        const link = /^socket:\[(\d+)\]$/.exec(fs.readlinkSync(`/proc/${pid}/fd/${fd}`));
        if (link && inodes.has(link[1])) return Number(pid);
      }
    } catch {
      // gone, or not ours to read
    }
  }
  return undefined;
}

/** CPU seconds a process has used (user + system), from /proc (in clock ticks of 1/100 s on Linux). */
function cpuSeconds(pid) {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

function machine() {
  const cpu = os.cpus();
  return `${cpu.length} × ${cpu[0]?.model?.trim() || 'unknown CPU'}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}, ${os.platform()} ${os.release()}`;
}

// ------------------------------------------------------------------ the browse mix, in one run

async function browse() {
  const gatewayUp = await fetch(`${GATEWAY}/api/products?limit=1`).then(
    (r) => r.ok,
    () => false,
  );
  if (!gatewayUp) fail(`the gateway does not answer at ${GATEWAY}: start the shop or set GATEWAY_URL.`);
  const sample = await sampleOf(CATALOG);
  const measured = browseMix(sample, REQUESTS, SEED);
  const warmUp = browseMix(sample, WARM_UP, SEED + 1000);
  console.log(`Browse-mix benchmark — ${new Date().toISOString()}`);
  console.log(`  machine: ${machine()}`);
  console.log(
    `  ${REQUESTS} requests (seed ${SEED}, ${new Set(measured).size} distinct URLs, lists ${LIST_LIMIT ? `limit=${LIST_LIMIT}` : 'without a limit'}), ${CONNECTIONS} connections, catalogue sample ${sample.ids.length} products; every case answers them once, after a cold start and ${WARM_UP} warm-up requests`,
  );
  const recording = await record([...measured, ...warmUp]);
  console.log(
    `  recorded ${recording.urls} answers of the catalog for the bare server (${recording.bytes} distinct bytes)\n`,
  );

  const redis = new Redis(REDIS_URL);
  const bare = await startBare(recording.file);
  const proxy = await startBareProxy(bare.url).catch((err) => {
    bare.stop();
    throw err;
  });
  const rows = [];
  // Every case answers the same sequence once, from cold caches, over the same connections: the bare two-hop has no
  // cache to warm or fool, the shop's caches see each URL as often as a shopper's would.
  // CPU per request, besides req/s: on a shared box other work takes CPU from one case and not the next, while
  // what a request costs our processes does not change. Servers: the processes that answer (the proxy and the bare
  // server; the gateway and the catalog); client: this process (autocannon).
  const pids = {
    'bare server': [bare.pid],
    'bare two-hop': [proxy.pid, bare.pid],
    gateway: [pidListeningOn(port(GATEWAY)), pidListeningOn(port(CATALOG))],
    catalog: [pidListeningOn(port(CATALOG))],
  };
  // The database's CPU is not a request's (the bare server has none), but under churn it runs the stock writes on
  // the same cores: shown beside the figures, never added to them.
  const database = pidListeningOn(Number(new URL(MONGO_URL).port || 27017));
  const measure = async (name, target, base, { churn = false, isBare = false } = {}) => {
    await coldCaches(redis, NAMESPACE, CATALOG);
    await run(base, warmUp, { amount: WARM_UP });
    const writer = churn ? startChurn(sample.inStock, CHURN) : undefined;
    const servers = pids[target].filter(Boolean);
    const before = servers.map(cpuSeconds);
    const databaseBefore = database ? cpuSeconds(database) : 0;
    const client = process.cpuUsage();
    const cacheBefore = target === 'gateway' ? await cacheCounts() : undefined;
    const result = await run(base, measured, { amount: REQUESTS });
    const cacheAfter = cacheBefore && (await cacheCounts());
    const perServer = servers.map((pid, i) => cpuSeconds(pid) - before[i]);
    const databaseCpu = database && cpuSeconds(database) - databaseBefore;
    const serverCpu = perServer.reduce((sum, cpu) => sum + cpu, 0);
    const clientUsage = process.cpuUsage(client);
    const counts = await writer?.stop();
    const extra = {
      serverUsPerRequest: Math.round((serverCpu * 1e6) / result.requests.total),
      // A two-process case's servers one by one (gateway, catalog; proxy, bare server): where a request's CPU goes.
      ...(servers.length > 1
        ? { perServerUs: perServer.map((cpu) => Math.round((cpu * 1e6) / result.requests.total)) }
        : {}),
      clientUsPerRequest: Math.round((clientUsage.user + clientUsage.system) / result.requests.total),
      ...(database && !isBare ? { databaseCpuPerSecond: +(databaseCpu / result.elapsed).toFixed(2) } : {}),
      load: +os.loadavg()[0].toFixed(1),
      ...(cacheAfter
        ? {
            hitRate: +(
              (cacheAfter.hits - cacheBefore.hits) /
              (cacheAfter.hits - cacheBefore.hits + cacheAfter.misses - cacheBefore.misses)
            ).toFixed(3),
          }
        : {}),
      ...(counts
        ? { stockWritesPerSecond: +(counts.writes / result.elapsed).toFixed(1), failedWrites: counts.failed }
        : {}),
    };
    rows.push(row(name, target, result, extra));
    if (counts)
      console.log(
        `    (${extra.stockWritesPerSecond} stock writes a second, ${counts.failed} refused; the database used ${extra.databaseCpuPerSecond ?? '?'} s of CPU a second)`,
      );
  };
  const cases = [
    ['browse mix', 'bare two-hop', proxy.url, { isBare: true }],
    ['browse mix', 'gateway', GATEWAY],
    ['browse mix', 'catalog', CATALOG],
    ['browse mix + stock churn', 'gateway', GATEWAY, { churn: true }],
    ['browse mix + stock churn', 'catalog', CATALOG, { churn: true }],
    ['browse mix', 'bare server', bare.url, { isBare: true }],
  ];
  try {
    // Rounds of every case, one after another: a burst of foreign load on a shared box then spoils one
    // round of each case, not one case; medians are compared.
    for (let round = 1; round <= ROUNDS; round++) {
      console.log(`  round ${round} of ${ROUNDS}`);
      for (const [name, target, base, options] of cases) await measure(name, target, base, options);
    }
  } finally {
    proxy.stop();
    bare.stop();
    fs.rmSync(recording.file, { force: true });
    redis.disconnect();
  }

  const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
  const summary = cases.map(([name, target]) => {
    const runs = rows.filter((r) => r.case === name && r.target === target);
    return {
      case: name,
      target,
      rps: median(runs.map((r) => r.rps)),
      p50: median(runs.map((r) => r.p50)),
      p99: median(runs.map((r) => r.p99)),
      errors: runs.reduce((sum, r) => sum + r.errors, 0),
      usPerRequest: median(runs.map((r) => r.serverUsPerRequest + r.clientUsPerRequest)),
    };
  });
  const find = (c, t) => summary.find((r) => r.case === c && r.target === t);
  const twoHop = find('browse mix', 'bare two-hop');
  const twoHopP99 = Math.max(1, twoHop.p99); // autocannon's latencies are whole ms: never divide by 0
  const pct = (ratio) => `${Math.round(ratio * 100)} %`;
  console.log(
    `\nMedians of ${ROUNDS} round(s), ${REQUESTS} requests a case over ${CONNECTIONS} connections; "of two-hop": against the bare two-hop`,
  );
  console.log(
    `  ${'case'.padEnd(26)} ${'through'.padEnd(12)} ${'req/s'.padStart(7)} ${'of two-hop'.padStart(10)} ${'p50 ms'.padStart(6)} ${'p99 ms'.padStart(6)} ${'p99 ×'.padStart(6)} ${'errors'.padStart(6)}   CPU µs/request (servers + client)`,
  );
  for (const r of summary)
    console.log(
      `  ${r.case.padEnd(26)} ${r.target.padEnd(12)} ${String(r.rps).padStart(7)} ${pct(r.rps / twoHop.rps).padStart(10)} ${String(r.p50).padStart(6)} ${String(r.p99).padStart(6)} ${`${(r.p99 / twoHopP99).toFixed(1)}×`.padStart(6)} ${String(r.errors).padStart(6)}   ${r.usPerRequest}`,
    );
  const verdicts = [];
  for (const name of ['browse mix', 'browse mix + stock churn']) {
    const gateway = find(name, 'gateway');
    const ratio = gateway.rps / twoHop.rps;
    verdicts.push({
      check: `${name} through the gateway ≥ 60 % of the bare two-hop's req/s`,
      shown: `${pct(ratio)} (${gateway.rps} vs ${twoHop.rps} req/s)`,
      ratio,
      pass: ratio >= 0.6,
    });
    const p99 = gateway.p99 / twoHopP99;
    verdicts.push({
      check: `${name} through the gateway: p99 ≤ 3× the bare two-hop's`,
      shown: `${p99.toFixed(1)}× (${gateway.p99} vs ${twoHop.p99} ms)`,
      ratio: p99,
      pass: p99 <= 3,
    });
  }
  const broken = rows.filter((r) => r.errors > 0);
  verdicts.push({
    check: '0 errors (non-2xx, errors, timeouts) in every case of every round',
    shown: broken.length
      ? broken.map((r) => `${r.case} via ${r.target}: ${r.errors}`).join('; ')
      : `0 in ${rows.length} runs`,
    pass: broken.length === 0,
  });
  console.log(`\nTargets (medians of ${ROUNDS} round(s), against the bare two-hop of the same run):`);
  for (const v of verdicts) console.log(`  ${v.pass ? 'PASS' : 'MISS'}  ${v.check}: ${v.shown}`);
  const gatewayUs = find('browse mix', 'gateway').usPerRequest;
  console.log(
    `  info  on a box of our own (CPU per request, client included: ${gatewayUs} µs through the gateway, ${twoHop.usPerRequest} through the bare two-hop) the browse mix through the gateway would do ${pct(twoHop.usPerRequest / gatewayUs)} of the bare two-hop's req/s`,
  );
  return { requests: REQUESTS, seed: SEED, distinct: new Set(measured).size, rows, summary, verdicts };
}

// ------------------------------------------------------------------ scale: one catalog per catalogue size

function rssMb(pid) {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)[1]) / 1024;
}

async function deleteTopology(namespace) {
  const connection = await amqp.connect(RABBITMQ_URL);
  try {
    const channel = await connection.createChannel();
    const { queue, retryQueue, dlq, dlx } = consumerTopology(`${namespace}catalog.events`);
    for (const q of [namespacedQueue(namespace, 'catalog'), queue, retryQueue, dlq]) await channel.deleteQueue(q);
    for (const x of [dlx, namespacedExchange(namespace)]) await channel.deleteExchange(x);
    await channel.close();
  } finally {
    await connection.close();
  }
}

/** The teams as fans type them (the seed's eight): full nicknames and the short ones the search knows. */
const TEAM_WORDS = ['packers', 'niners', 'pats', 'steelers', 'eagles', 'ravens', 'falcons', 'cardinals', 'philly'];

/**
 * What a fan types into the header search, as the suggest and search cases send it: the start of a word of a product
 * name, a word with a typo (a letter dropped, doubled or changed), or a team then the start of a word, the team
 * itself mistyped at times ("pakers hod").
 */
function typedQuery(rnd, sample) {
  const pick = (values) => values[Math.floor(rnd() * values.length)];
  const start = (w) => w.slice(0, 2 + Math.floor(rnd() * (w.length - 1)));
  const typo = (w) => {
    const i = 1 + Math.floor(rnd() * (w.length - 2));
    const r = rnd();
    if (r < 0.4) return w.slice(0, i) + w.slice(i + 1);
    if (r < 0.7) return w.slice(0, i) + w[i] + w.slice(i);
    return w.slice(0, i) + pick('aeiorstln') + w.slice(i + 1);
  };
  const r = rnd();
  if (r < 0.3) return start(pick(sample.words));
  if (r < 0.55) return typo(pick(sample.words));
  const team = pick(TEAM_WORDS);
  return `${r < 0.8 ? team : typo(team)} ${start(pick(sample.words))}`;
}

/** A gateway (its HTTP cache on) in front of the scale run's catalog, on the next port. */
async function startGateway(catalogBase, namespace) {
  const gatewayPort = SCALE_PORT + 1;
  const child = spawn(process.execPath, [path.join(root, 'gateway/dist/main.js')], {
    env: {
      ...env,
      PORT: String(gatewayPort),
      CATALOG_URL: catalogBase,
      RABBITMQ_NAMESPACE: namespace,
      REDIS_URL,
      READY_CHECK_UPSTREAMS: 'false',
      METRICS_PORT: 'off',
      LOG_LEVEL: 'warn',
      NODE_ENV: 'development',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const url = `http://127.0.0.1:${gatewayPort}`;
  for (let i = 0; i < 150; i++) {
    const up = await fetch(`${url}/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (up) return { url, child };
    await sleep(100);
  }
  child.kill('SIGTERM');
  fail('the gateway in front of the scale run did not start');
}

async function scaleRun(size) {
  const namespace = `bench-scale-${size}.`;
  const catalogEnv = {
    ...env,
    PORT: String(SCALE_PORT),
    MONGO_URI: `${MONGO_URL}/bench_catalog_${size}`,
    REDIS_URL,
    RABBITMQ_URL,
    RABBITMQ_NAMESPACE: namespace,
    JWT_SECRET: randomBytes(32).toString('hex'),
    NODE_ENV: 'development',
    LOG_LEVEL: 'info',
    // The sweeps for expired holds and back-in-stock requests once an hour rather than every few seconds: FerretDB
    // answers `{hasHolds: true}` by reading every product (~170 s of CPU at 100,000), where MongoDB reads an index,
    // so on this box a sweep took a core for the whole run. This bench measures reads.
    RESERVATION_SWEEP_MS: '3600000',
    STOCK_ALERT_SWEEP_MS: '3600000',
  };
  const dist = path.join(root, 'services/catalog/dist');
  const seedArgs = [path.join(dist, 'seed/seed.main.js'), ...(size === 65 ? [] : [`--synthetic=${size}`])];
  const seeding = Date.now();
  const { child: seeder } = await startProcess(seedArgs, catalogEnv, /catalog: (seeded|\d+ products exist)/);
  if (seeder.exitCode === null) await new Promise((resolve) => seeder.once('exit', resolve));
  const seededMs = Date.now() - seeding;

  const started = Date.now();
  const { child, match, seen } = await startProcess(
    [path.join(dist, 'main.js')],
    catalogEnv,
    /catalogue loaded: (\d+) published products in (\d+) ms/,
  );
  const startMs = Date.now() - started;
  const base = `http://127.0.0.1:${SCALE_PORT}`;
  let gateway;
  try {
    const products = Number(match[1]);
    const loadMs = Number(match[2]);
    const rssLoaded = rssMb(child.pid);
    // The full-text search is built after the load (in the background when large): its time, and the RSS it adds.
    const searchBuilt = /search index built: \d+ products in (\d+) ms/;
    const built =
      searchBuilt.exec(seen) ??
      (await new Promise((resolve) => {
        let text = '';
        const onData = (chunk) => {
          text = (text + chunk.toString()).slice(-4096);
          const found = searchBuilt.exec(text);
          if (!found) return;
          child.stdout.off('data', onData);
          resolve(found);
        };
        child.stdout.on('data', onData);
      }));
    const searchIndexMs = Number(built[1]);
    const rssIndexed = rssMb(child.pid);
    gateway = await startGateway(base, namespace);
    const sample = await sampleOf(base);
    const rnd = prng(SEED);
    const arrivals = prng(SEED + 1);
    const lists = Array.from({ length: 5000 }, () => listPath(rnd, sample, { limit: 24, search: 'never' }));
    const searches = Array.from({ length: 5000 }, () => listPath(rnd, sample, { limit: 24, search: 'always' }));
    const details = sample.ids.map((id) => `/api/products/${id}`);
    const typed = Array.from({ length: 20_000 }, () => typedQuery(rnd, sample));
    const suggests = typed.map((q) => `/api/products/suggest?q=${encodeURIComponent(q)}`);
    const typedSearches = typed.map((q) => `/api/products?search=${encodeURIComponent(q)}&limit=24`);
    const result = {
      size,
      products,
      seedMs: seededMs,
      startMs,
      loadMs,
      rssLoadedMb: Math.round(rssLoaded),
      searchIndexMs,
      searchIndexRssMb: Math.round(rssIndexed - rssLoaded),
      typedQueries: new Set(typed).size,
    };
    // Latency at SCALE_RATE requests a second arriving at random (what a shopper waits), then capacity (flat out).
    // The catalog straight, and the search a fan types through the gateway (its HTTP cache included).
    for (const [name, paths, target] of [
      ['lists', lists, base],
      ['searches', searches, base],
      ['details', details, base],
      ['suggestsViaGateway', suggests, gateway.url],
      ['typedSearchesViaGateway', typedSearches, gateway.url],
      ['searchesViaGateway', searches, gateway.url],
    ]) {
      // Each run goes on where the one before stopped: the gateway's cache holds what was asked already, and a
      // text the warm-up asked would be answered from it (only the repeats the typed texts have are).
      const warm = await run(target, paths, { duration: 2 });
      const paced = await openLoop(target, paths, {
        duration: DURATION,
        rate: SCALE_RATE,
        random: arrivals,
        from: warm.next,
      });
      const flat = await run(target, paths, { duration: DURATION, from: paced.next });
      result[name] = {
        p50: paced.latency.p50,
        p99: paced.latency.p99,
        rps: Math.round(flat.requests.total / flat.elapsed),
        p99FlatOut: flat.latency.p99,
        errors: paced.errors + paced.non2xx + flat.errors + flat.non2xx,
      };
    }
    result.rssAfterMb = Math.round(rssMb(child.pid));
    const shown = (r) => `p99 ${r.p99} ms (${r.rps}/s flat out, p99 ${r.p99FlatOut} ms)`;
    console.log(
      `  ${String(size).padStart(7)} products: loaded in ${loadMs} ms (process ready ${startMs} ms), RSS ${result.rssLoadedMb} MB → ${result.rssAfterMb} MB`,
    );
    console.log(
      `          list ${shown(result.lists)}; search ${shown(result.searches)}; detail ${shown(result.details)}`,
    );
    const meets = (r) => `p50 ${r.p50} ms, p99 ${r.p99} ms [${r.p99 <= 50 && !r.errors ? 'PASS' : 'FAIL'} p99 ≤ 50 ms]`;
    console.log(
      `          search index built in ${searchIndexMs} ms, +${result.searchIndexRssMb} MB RSS; through the gateway (${result.typedQueries} distinct typed texts):`,
    );
    console.log(
      `            suggest ${meets(result.suggestsViaGateway)} (${result.suggestsViaGateway.rps}/s flat out)`,
    );
    console.log(
      `            typed search ${meets(result.typedSearchesViaGateway)} (${result.typedSearchesViaGateway.rps}/s flat out)`,
    );
    console.log(
      `            filtered search ${meets(result.searchesViaGateway)} (${result.searchesViaGateway.rps}/s flat out)`,
    );
    return result;
  } finally {
    gateway?.child.kill('SIGTERM');
    child.kill('SIGTERM');
    await new Promise((resolve) => child.on('exit', resolve));
    await deleteTopology(namespace);
  }
}

async function scale(sizes) {
  console.log(`Catalogue scale benchmark — ${new Date().toISOString()}`);
  console.log(`  machine: ${machine()}`);
  console.log(
    `  a catalog of its own per size on port ${SCALE_PORT}; per case ${DURATION} s of requests arriving at random at ${SCALE_RATE}/s (an open loop), then ${DURATION} s flat out (${CONNECTIONS} connections)\n`,
  );
  const runs = [];
  for (const size of sizes) runs.push(await scaleRun(size));
  const smallest = runs[0];
  console.log('');
  for (const r of runs.slice(1)) {
    r.memoryPerProductKb = +(
      ((r.rssLoadedMb - smallest.rssLoadedMb) * 1024) /
      (r.products - smallest.products)
    ).toFixed(2);
    r.listP99Ratio = +(r.lists.p99 / Math.max(1, smallest.lists.p99)).toFixed(1);
    console.log(
      `  ${r.size} products: ${r.memoryPerProductKb} KB of RSS per product over the ${smallest.size}-product catalog; list p99 ${r.listP99Ratio}× its figure [${r.listP99Ratio <= 5 ? 'PASS' : 'FAIL'} ≤ 5×]`,
    );
  }
  return { runs };
}

// ------------------------------------------------------------------ main

const scaleArg = process.argv.find((a) => a.startsWith('--scale='));
const results = scaleArg ? await scale(scaleArg.slice('--scale='.length).split(',').map(Number)) : await browse();
if (env.BENCH_JSON)
  fs.writeFileSync(
    env.BENCH_JSON,
    JSON.stringify({ at: new Date().toISOString(), machine: machine(), ...results }, null, 2),
  );
process.exit(0);
