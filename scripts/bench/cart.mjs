// Cart benchmark: `node scripts/bench/cart.mjs` against a running shop (`npm start`).
//
// Every gateway figure is reported against the architecture's own limit, the bare two-hop, measured in the same run
// with the same requests, the same connections and the same duration: a bare Node proxy (bare-proxy.mjs, its own
// process) in front of a bare Node server (bare-cart-server.mjs, its own process) that, per request, does the Redis
// work of the cart and answers a cart JSON the size of a real 3-line cart — for a read one Redis GET, for an add one
// GET and one SET … EX (a cart write's read and write). Beside it, the framework two-hop: the same work done by the
// libraries the shop is built on and nothing else — http-proxy-middleware alone on a bare Node server
// (framework-proxy.mjs) in front of a bare NestJS controller (framework-cart-server.mjs) — the least this stack costs;
// the gateway's figures are shown against it too (INFO lines), which separates the stack's own cost from ours.
// BENCH_ROUNDS rounds, each one case after another (never in parallel, so they do not share the CPU), every case
// after a 2 s warm-up:
//   guest read  (GET /api/cart?guestId=…)          through the bare two-hop, the framework two-hop, the gateway
//   guest add   (POST /api/cart with a guestId)     through the bare two-hop, the framework two-hop, the gateway
//   user add    (POST /api/cart with a bearer token) through the gateway (information: a user's cart is in MongoDB)
//   bare server: the read and the add requests straight to the bare server, no proxy (information: what the hop costs)
// Prints each case of each round (req/s, p50, p99, non-2xx, CPU time per request of the processes that served it:
// gateway and cart, found by npm start's pid files; proxy and bare server), then a table of the medians of the
// rounds and one PASS/MISS line per target, against the bare two-hop of the same run:
//   guest read ≥ 60 % of its req/s;  guest add ≥ 50 %;  each one's p99 ≤ 3× its p99;  0 errors in every case.
// Exits 1 if any case saw a non-2xx or an error (a benchmark of 409s is worthless); a MISS alone does not.
//
// Every add is quantity 1 and the adds are spread so that no cart line nears 99 or the product's stock: request k
// goes to guest (or user) k mod N and to line ⌊k / N⌋ mod L, over the L (product, size, colour) lines of the
// best-stocked published products. Reads rotate over guest carts pre-filled with 3 lines each. The bare two-hop gets
// requests of the same kind, path, headers and body.
//
// Environment:
//   GATEWAY_URL       default http://127.0.0.1:8080
//   REDIS_URL         default redis://127.0.0.1:6379 (the bare server's Redis, and to delete this run's guest carts)
//   BENCH_DURATION    seconds per case, default 10
//   BENCH_CONNECTIONS concurrent connections, default 50
//   BENCH_ROUNDS      rounds of every case, default 3 (medians compared)
//   BENCH_GUESTS      guest ids for the guest-add case, default 10000
//   BENCH_USERS       users registered for the user-add case, default 300 (counts against the register limit)
//   BENCH_READ_CARTS  pre-filled guest carts for the read case, default 1000
//   BENCH_CASES       which cases, default guest-read,guest-add,user-add,bare-server (a guest case brings its
//                     bare two-hop)
//   BENCH_JSON        write the results to this file as JSON too
//   BENCH_SCOPE       the stack whose gateway and cart CPU is read (scripts/lib/stack.mjs scope), default dev
import autocannon from 'autocannon';
import { Redis } from 'ioredis';
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { stackProcesses } from './lib/rss.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const GATEWAY = (process.env.GATEWAY_URL || 'http://127.0.0.1:8080').replace(/\/+$/, '');
const REDIS_URL = process.env.REDIS_URL || 'redis://127.0.0.1:6379';
const DURATION = Number(process.env.BENCH_DURATION || 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS || 50);
const GUESTS = Number(process.env.BENCH_GUESTS || 10000);
const USERS = Number(process.env.BENCH_USERS || 300);
const READ_CARTS = Number(process.env.BENCH_READ_CARTS || 1000);
const ROUNDS = Number(process.env.BENCH_ROUNDS || 3);
const CASES = (process.env.BENCH_CASES || 'guest-read,guest-add,user-add,bare-server').split(',').map((s) => s.trim());
const RUN = Date.now().toString(36);
const PARALLEL = 16; // requests in flight while setting up (registrations are scrypt-bound anyway)
const SCOPE = process.env.BENCH_SCOPE || 'dev';
const CLOCK_TICKS = Number(execFileSync('getconf', ['CLK_TCK']).toString()) || 100;

function fail(message) {
  console.error(`bench: ${message}`);
  process.exit(1);
}

async function call(method, url, body, token) {
  const headers = { 'content-type': 'application/json' };
  if (token) headers.authorization = `Bearer ${token}`;
  let res;
  try {
    res = await fetch(`${GATEWAY}${url}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(15000),
    });
  } catch (err) {
    return { status: 0, why: err.cause?.code || err.message };
  }
  const text = await res.text();
  let json;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, text, json, why: `HTTP ${res.status} ${text.slice(0, 200)}` };
}

/** Runs `count` calls of `make(i)` with at most PARALLEL in flight; returns every result. */
async function pool(count, make) {
  const results = new Array(count);
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const i = next++;
      results[i] = await make(i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(PARALLEL, count) }, worker));
  return results;
}

/**
 * CPU seconds (user + system) that `pid` has used so far, NaN when it is gone. On a shared box req/s moves with
 * everyone else's load; the CPU a request costs each process moves much less, so it is printed beside them.
 */
function cpuSeconds(pid) {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS; // utime, stime (fields 14 and 15 of proc(5))
  } catch {
    return NaN;
  }
}

/** Starts one of the bare yardsticks (a script beside this one) in its own process; resolves once it listens. */
function startScript(script, args, cleanup = () => undefined) {
  const child = spawn(process.execPath, [path.join(here, script), ...args], {
    env: { ...process.env, REDIS_URL },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    child.stdout.on('data', (chunk) => {
      const m = /listening (\d+)/.exec(chunk.toString());
      if (m)
        resolve({
          url: `http://127.0.0.1:${m[1]}`,
          pid: child.pid,
          stop: () =>
            new Promise((done) => {
              child.once('exit', done);
              child.kill('SIGTERM');
              cleanup();
            }),
        });
    });
    child.on('exit', (code) => reject(new Error(`${script} exited with ${code}`)));
  });
}

/** A yardstick's server (bare-cart-server.mjs, framework-cart-server.mjs) answering with `body`. */
function startCartServer(script, body) {
  const file = path.join(os.tmpdir(), `bench-cart-${process.pid}-${script}.json`);
  fs.writeFileSync(file, body);
  return startScript(script, [file, '0'], () => fs.rmSync(file, { force: true }));
}

/** One autocannon run; `makeRequest()` gives each request's {method, path, headers, body}. */
function run(url, makeRequest, duration = DURATION) {
  const opts = { url, connections: CONNECTIONS, duration, pipelining: 1, timeout: 10 };
  if (makeRequest) opts.requests = [{ setupRequest: (req) => ({ ...req, ...makeRequest() }) }];
  return new Promise((resolve, reject) => autocannon(opts, (err, result) => (err ? reject(err) : resolve(result))));
}

/**
 * One case of one round: `name` (guest read, guest add, …) sent `through` (gateway, bare two-hop, bare server) at
 * `url`. `pids` (name → pid): the processes whose CPU per request is reported.
 */
async function measure(round, name, through, url, makeRequest, pids) {
  await run(url, makeRequest, 2); // warm-up: JIT, caches, keep-alive sockets, the cart's product cache
  const cpuBefore = [...pids].map(([, pid]) => cpuSeconds(pid));
  const r = await run(url, makeRequest);
  const cpuUsPerRequest = Object.fromEntries(
    [...pids].map(([who, pid], i) => [who, Math.round(((cpuSeconds(pid) - cpuBefore[i]) * 1e6) / r.requests.total)]),
  );
  const statuses = {};
  for (const [code, v] of Object.entries(r.statusCodeStats || {})) statuses[code] = v.count;
  const row = {
    round,
    case: name,
    through,
    rps: Math.round(r.requests.average),
    p50: r.latency.p50,
    p99: r.latency.p99,
    requests: r.requests.total,
    non2xx: r.non2xx,
    errors: r.errors + r.timeouts,
    statuses,
    cpuUsPerRequest,
  };
  const bad = row.non2xx + row.errors;
  const cpu = Object.entries(cpuUsPerRequest)
    .map(([who, us]) => `${who} ${us}`)
    .join(', ');
  console.log(
    `  ${name.padEnd(10)} ${through.padEnd(12)} ${String(row.rps).padStart(7)} req/s   p50 ${String(row.p50).padStart(4)} ms   p99 ${String(row.p99).padStart(4)} ms   ${String(row.requests).padStart(6)} requests   ${bad ? `!! ${row.non2xx} non-2xx, ${row.errors} errors/timeouts ${JSON.stringify(statuses)}` : '0 non-2xx'}   CPU µs/request: ${cpu || 'n/a'}`,
  );
  return row;
}

// ------------------------------------------------------------------ what is up, and what to add

const ready = await call('GET', '/ready');
if (ready.status !== 200) fail(`no ready shop at ${GATEWAY} (${ready.why}). Start it with npm start.`);
const list = await call('GET', '/api/products');
if (list.status !== 200 || !Array.isArray(list.json) || list.json.length === 0)
  fail(`GET /api/products: ${list.why}; the catalogue must be seeded (npm start seeds an empty database).`);

// The best-stocked products, each line one (size, colour) they offer: up to 2 variants per product.
const stocked = list.json
  .filter((p) => p.countInStock >= 20 && p.sizes?.length && p.colors?.length)
  .sort((a, b) => b.countInStock - a.countInStock)
  .slice(0, 12);
if (stocked.length < 3) fail('fewer than 3 products with countInStock ≥ 20: nothing to add without hitting 409s.');
const lines = [];
for (const p of stocked)
  for (let v = 0; v < 2; v++) {
    const size = p.sizes[v % p.sizes.length];
    const color = p.colors[v % p.colors.length];
    if (!lines.some((l) => l.productId === p._id && l.size === size && l.color === color))
      lines.push({ productId: p._id, size, color, stock: p.countInStock });
  }
const userLines = stocked.map((p) => ({
  productId: p._id,
  size: p.sizes[0],
  color: p.colors[0],
  stock: p.countInStock,
}));
const guestId = (kind, i) => `guest_b${RUN}${kind}_${i}`;

// Pre-filled guest carts for the read case (3 lines each), and the real 3-line cart body for the bare server.
const readIds = Array.from({ length: READ_CARTS }, (_, i) => guestId('r', i));
const fills = await pool(READ_CARTS * 3, (k) => {
  const i = Math.floor(k / 3);
  const l = lines[(i + (k % 3)) % lines.length];
  return call('POST', '/api/cart', {
    productId: l.productId,
    quantity: 1,
    size: l.size,
    color: l.color,
    guestId: readIds[i],
  });
});
const badFill = fills.find((r) => r.status !== 200 && r.status !== 201);
if (badFill) fail(`pre-filling guest carts: ${badFill.why}`);
const sample = await call('GET', `/api/cart?guestId=${readIds[0]}`);
if (sample.status !== 200 || sample.json?.products?.length !== 3) fail(`reading a pre-filled cart: ${sample.why}`);
const cartBytes = Buffer.from(sample.text);

// Users for the user-add case.
let tokens = [];
if (CASES.includes('user-add')) {
  const t0 = Date.now();
  const regs = await pool(USERS, (i) =>
    call('POST', '/api/users/register', {
      name: `Bench ${i}`,
      email: `bench-cart-${RUN}-${i}@example.com`,
      password: 'Bench!2345cart',
    }),
  );
  const badReg = regs.find((r) => r.status !== 201 || !r.json?.token);
  if (badReg) fail(`registering users: ${badReg.why}`);
  tokens = regs.map((r) => r.json.token);
  console.log(`  (registered ${USERS} users in ${((Date.now() - t0) / 1000).toFixed(1)} s)`);
}

const cpu = os.cpus();
console.log(`Cart benchmark — ${new Date().toISOString()} — ${GATEWAY}`);
console.log(
  `  machine: ${cpu.length} × ${cpu[0]?.model?.trim() || 'unknown CPU'}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}, ${os.platform()} ${os.release()}`,
);
console.log(
  `  autocannon: ${CONNECTIONS} connections, ${DURATION} s per case (after a 2 s warm-up), one case at a time, ${ROUNDS} round(s)`,
);
console.log(
  `  adds: quantity 1 over ${lines.length} guest lines / ${userLines.length} user lines of ${stocked.length} products (stock ${stocked.at(-1).countInStock}–${stocked[0].countInStock}), ${GUESTS} guest ids, ${tokens.length} users; reads: ${READ_CARTS} 3-line carts of ${cartBytes.length} bytes\n`,
);

// ------------------------------------------------------------------ the cases

const jsonHeaders = { 'content-type': 'application/json' };
/** Guest adds: request k to guest k mod GUESTS, line ⌊k / GUESTS⌋. Each generator counts on its own. */
const guestAdds = (kind) => {
  const counter = { k: 0 };
  const next = () => {
    const k = counter.k++;
    const l = lines[Math.floor(k / GUESTS) % lines.length];
    return {
      method: 'POST',
      path: '/api/cart',
      headers: jsonHeaders,
      body: JSON.stringify({
        productId: l.productId,
        quantity: 1,
        size: l.size,
        color: l.color,
        guestId: guestId(kind, k % GUESTS),
      }),
    };
  };
  return Object.assign(next, { counter });
};
// The gateway's adds go on from round to round (so no line nears 99); the yardsticks' adds, of other guests, start
// over each time: the same kind of request, which their bare server does not look into.
const guestAdd = guestAdds('a');
let userK = 0;
const userAdd = () => {
  const k = userK++;
  const l = userLines[Math.floor(k / tokens.length) % userLines.length];
  return {
    method: 'POST',
    path: '/api/cart',
    headers: { ...jsonHeaders, authorization: `Bearer ${tokens[k % tokens.length]}` },
    body: JSON.stringify({ productId: l.productId, quantity: 1, size: l.size, color: l.color }),
  };
};
const guestReads = () => {
  let k = 0;
  return () => ({ method: 'GET', path: `/api/cart?guestId=${readIds[k++ % readIds.length]}` });
};

const stack = stackProcesses(SCOPE);
const served = new Map(['gateway', 'cart'].filter((name) => stack.has(name)).map((name) => [name, stack.get(name)]));
if (served.size < 2) console.warn(`bench: no ${SCOPE} gateway/cart pid files: their CPU per request is not reported`);
const bare = await startCartServer('bare-cart-server.mjs', cartBytes);
const proxy = await startScript('bare-proxy.mjs', [bare.url, '0']);
const twoHopPids = new Map([
  ['proxy', proxy.pid],
  ['bare', bare.pid],
]);
// The framework two-hop: the same requests through http-proxy-middleware alone into a bare NestJS controller.
const frameworkServer = await startCartServer('framework-cart-server.mjs', cartBytes);
const frameworkProxy = await startScript('framework-proxy.mjs', [frameworkServer.url, '0']);
const frameworkPids = new Map([
  ['proxy', frameworkProxy.pid],
  ['nest', frameworkServer.pid],
]);
const barePids = new Map([['bare', bare.pid]]);
const rows = [];
// Rounds of every case, one after another, each gateway case right after its bare two-hop: a burst of foreign load
// on a shared box then spoils one round of a pair, not one side of it; medians are compared.
const plan = [
  ...(CASES.includes('guest-read')
    ? [
        ['guest read', 'bare two-hop', proxy.url, guestReads, twoHopPids],
        ['guest read', 'framework', frameworkProxy.url, guestReads, frameworkPids],
        ['guest read', 'gateway', GATEWAY, guestReads, served],
      ]
    : []),
  ...(CASES.includes('guest-add')
    ? [
        ['guest add', 'bare two-hop', proxy.url, () => guestAdds('y'), twoHopPids],
        ['guest add', 'framework', frameworkProxy.url, () => guestAdds('x'), frameworkPids],
        ['guest add', 'gateway', GATEWAY, () => guestAdd, served],
      ]
    : []),
  ...(CASES.includes('user-add') && tokens.length ? [['user add', 'gateway', GATEWAY, () => userAdd, served]] : []),
  ...(CASES.includes('bare-server')
    ? [
        ['guest read', 'bare server', bare.url, guestReads, barePids],
        ['guest add', 'bare server', bare.url, () => guestAdds('z'), barePids],
      ]
    : []),
];
try {
  for (let round = 1; round <= ROUNDS; round++) {
    console.log(`  round ${round} of ${ROUNDS}`);
    for (const [name, through, url, requests, pids] of plan)
      rows.push(await measure(round, name, through, url, requests(), pids));
  }
} finally {
  await Promise.all([proxy.stop(), bare.stop(), frameworkProxy.stop(), frameworkServer.stop()]);
}

// The most any line got: it must stay below 99 and below the product's stock.
const guestK = guestAdd.counter.k;
const maxGuestLine = Math.ceil(guestK / (GUESTS * lines.length));
const maxUserLine = tokens.length ? Math.ceil(userK / (tokens.length * userLines.length)) : 0;
console.log(
  `\n  adds sent through the gateway: ${guestK} guest (≤ ${maxGuestLine} per line), ${userK} user (≤ ${maxUserLine} per line); lowest stock ${stocked.at(-1).countInStock}`,
);

// ------------------------------------------------------------------ clean up this run's guest carts

try {
  const redis = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 1 });
  await redis.connect();
  let removed = 0;
  let cursor = '0';
  do {
    // every key naming this run's guest ids (the cart's keys for them; the run's id is in no other key)
    const [next, keys] = await redis.scan(cursor, 'MATCH', `*guest_b${RUN}*`, 'COUNT', 1000);
    cursor = next;
    if (keys.length) removed += await redis.del(...keys);
  } while (cursor !== '0');
  redis.disconnect();
  console.log(
    `  removed ${removed} Redis keys of this run's guest carts (the ${tokens.length} users and their carts stay)`,
  );
} catch (err) {
  console.warn(`bench: could not remove this run's guest carts (${err.message})`);
}

// ------------------------------------------------------------------ medians and targets

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const summary = [];
for (const r of rows) {
  if (summary.some((m) => m.case === r.case && m.through === r.through)) continue;
  const runs = rows.filter((x) => x.case === r.case && x.through === r.through);
  summary.push({
    case: r.case,
    through: r.through,
    rps: median(runs.map((x) => x.rps)),
    p50: median(runs.map((x) => x.p50)),
    p99: median(runs.map((x) => x.p99)),
    bad: runs.reduce((sum, x) => sum + x.non2xx + x.errors, 0),
    cpuUsPerRequest: Object.fromEntries(
      Object.keys(r.cpuUsPerRequest).map((who) => [who, median(runs.map((x) => x.cpuUsPerRequest[who]))]),
    ),
  });
}
const find = (c, t) => summary.find((m) => m.case === c && m.through === t);
const pct = (ratio) => `${Math.round(ratio * 100)} %`;
console.log(
  `\nMedians of ${ROUNDS} round(s), ${CONNECTIONS} connections, ${DURATION} s a case; "of two-hop": against the bare two-hop of the same kind, "of framework": against the framework two-hop (http-proxy-middleware alone into a bare NestJS controller)`,
);
console.log(
  `  ${'case'.padEnd(10)} ${'through'.padEnd(12)} ${'req/s'.padStart(7)} ${'of two-hop'.padStart(10)} ${'of framework'.padStart(12)} ${'p50 ms'.padStart(6)} ${'p99 ms'.padStart(6)} ${'p99 ×'.padStart(6)} ${'errors'.padStart(6)}   CPU µs/request`,
);
for (const m of summary) {
  const twoHop = m.case === 'user add' ? undefined : find(m.case, 'bare two-hop');
  const framework = m.case === 'user add' || m.through === 'framework' ? undefined : find(m.case, 'framework');
  console.log(
    `  ${m.case.padEnd(10)} ${m.through.padEnd(12)} ${String(m.rps).padStart(7)} ${(twoHop ? pct(m.rps / twoHop.rps) : '').padStart(10)} ${(framework ? pct(m.rps / framework.rps) : '').padStart(12)} ${String(m.p50).padStart(6)} ${String(m.p99).padStart(6)} ${(twoHop ? `${(m.p99 / Math.max(1, twoHop.p99)).toFixed(1)}×` : '').padStart(6)} ${String(m.bad).padStart(6)}   ${
      Object.entries(m.cpuUsPerRequest)
        .map(([who, us]) => `${who} ${us}`)
        .join(', ') || 'n/a'
    }`,
  );
}

const verdicts = [];
for (const [name, min] of [
  ['guest read', 0.6],
  ['guest add', 0.5],
]) {
  const gateway = find(name, 'gateway');
  const twoHop = find(name, 'bare two-hop');
  if (!gateway || !twoHop) continue;
  const ratio = gateway.rps / twoHop.rps;
  verdicts.push({
    check: `${name} ≥ ${pct(min)} of the bare two-hop's req/s`,
    shown: `${pct(ratio)} (${gateway.rps} vs ${twoHop.rps} req/s)`,
    ratio,
    pass: ratio >= min,
  });
  const framework = find(name, 'framework');
  if (framework)
    verdicts.push({
      check: `${name}: the framework two-hop is ${pct(framework.rps / twoHop.rps)} of the bare two-hop; the gateway`,
      shown: `${pct(gateway.rps / framework.rps)} of the framework two-hop (${gateway.rps} vs ${framework.rps} req/s)`,
      info: true,
    });
  const p99 = gateway.p99 / Math.max(1, twoHop.p99); // autocannon's latencies are whole ms: never divide by 0
  verdicts.push({
    check: `${name} p99 ≤ 3× the bare two-hop's`,
    shown: `${p99.toFixed(1)}× (${gateway.p99} vs ${twoHop.p99} ms)`,
    ratio: p99,
    pass: p99 <= 3,
  });
}
const broken = rows.filter((r) => r.non2xx + r.errors > 0);
verdicts.push({
  check: '0 errors (non-2xx, errors, timeouts) in every case of every round',
  shown: broken.length
    ? broken
        .map(
          (r) =>
            `round ${r.round} ${r.case} via ${r.through}: ${r.non2xx} non-2xx ${JSON.stringify(r.statuses)}, ${r.errors} errors`,
        )
        .join('; ')
    : `0 in ${rows.length} runs`,
  pass: broken.length === 0,
});
console.log(`\nTargets (medians of ${ROUNDS} round(s), against the bare two-hop of the same run):`);
for (const v of verdicts) console.log(`  ${v.info ? 'INFO' : v.pass ? 'PASS' : 'MISS'}  ${v.check}: ${v.shown}`);

if (process.env.BENCH_JSON) {
  fs.writeFileSync(
    process.env.BENCH_JSON,
    JSON.stringify(
      {
        at: new Date().toISOString(),
        cpus: cpu.length,
        cpu: cpu[0]?.model,
        connections: CONNECTIONS,
        duration: DURATION,
        rounds: ROUNDS,
        cartBytes: cartBytes.length,
        rows,
        summary,
        verdicts,
      },
      null,
      2,
    ),
  );
}

if (broken.length) {
  console.error('\nbench: FAILED — some case saw non-2xx answers or errors (above). These figures are not valid.');
  process.exit(1);
}
if (maxGuestLine >= 99 || maxUserLine >= 99 || Math.max(maxGuestLine, maxUserLine) >= stocked.at(-1).countInStock)
  console.warn('bench: some line may have neared 99 or its stock: raise BENCH_GUESTS / BENCH_USERS');
