// Cart benchmark: `node scripts/bench/cart.mjs` against a running shop (`npm start`).
//
// In ONE run, with autocannon, one case after another (never in parallel, so they do not share the CPU):
//   guest add (POST /api/cart with a guestId), user add (POST /api/cart with a bearer token) and guest read
//   (GET /api/cart?guestId=…) — all through the gateway — beside a bare Node http server (its own process,
//   bare-cart-server.mjs) that per request does one Redis GET and one SET … EX of a cart JSON the size of a real
//   3-line cart and answers it: the Redis work one cart process cannot go below.
// And, unless BENCH_CASES leaves it out, the bare hop: the same bare server behind a bare Node proxy
// (bare-proxy.mjs), the least that putting one Node HTTP hop in front of it costs — the floor of the gateway → cart
// design, beside which the gateway's and the cart's own costs can be read.
// Prints requests/s, p50 and p99 per case, non-2xx per case, the CPU time per request of the processes that served
// it (gateway and cart, found by npm start's pid files; the bare server), then the target ratios of the bare
// server's req/s:
//   guest add ≥ 20%;  guest read ≥ 40%.  Exits 1 if any case saw a non-2xx (a benchmark of 409s is worthless).
//
// Every add is quantity 1 and the adds are spread so that no cart line nears 99 or the product's stock: request k
// goes to guest (or user) k mod N and to line ⌊k / N⌋ mod L, over the L (product, size, colour) lines of the
// best-stocked published products. Reads rotate over guest carts pre-filled with 3 lines each.
//
// Environment:
//   GATEWAY_URL       default http://127.0.0.1:8080
//   REDIS_URL         default redis://127.0.0.1:6379 (the bare server's Redis, and to delete this run's guest carts)
//   BENCH_DURATION    seconds per case, default 10
//   BENCH_CONNECTIONS concurrent connections, default 50
//   BENCH_GUESTS      guest ids for the guest-add case, default 10000
//   BENCH_USERS       users registered for the user-add case, default 300 (counts against the register limit)
//   BENCH_READ_CARTS  pre-filled guest carts for the read case, default 1000
//   BENCH_CASES       which cases, default guest-add,user-add,guest-read,bare-hop (the bare server always runs)
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
const CASES = (process.env.BENCH_CASES || 'guest-add,user-add,guest-read,bare-hop').split(',').map((s) => s.trim());
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

function startBare(body) {
  const file = path.join(os.tmpdir(), `bench-cart-${process.pid}.json`);
  fs.writeFileSync(file, body);
  return startScript('bare-cart-server.mjs', [file, '0'], () => fs.rmSync(file, { force: true }));
}

/** One autocannon run; `makeRequest()` gives each request's {method, path, headers, body}. */
function run(url, makeRequest, duration = DURATION) {
  const opts = { url, connections: CONNECTIONS, duration, pipelining: 1, timeout: 10 };
  if (makeRequest) opts.requests = [{ setupRequest: (req) => ({ ...req, ...makeRequest() }) }];
  return new Promise((resolve, reject) => autocannon(opts, (err, result) => (err ? reject(err) : resolve(result))));
}

/** `pids` (name → pid): the processes whose CPU per request is reported. */
async function measure(name, url, makeRequest, pids) {
  await run(url, makeRequest, 2); // warm-up: JIT, caches, keep-alive sockets, the cart's product cache
  const cpuBefore = [...pids].map(([, pid]) => cpuSeconds(pid));
  const r = await run(url, makeRequest);
  const cpuUsPerRequest = Object.fromEntries(
    [...pids].map(([who, pid], i) => [who, Math.round(((cpuSeconds(pid) - cpuBefore[i]) * 1e6) / r.requests.total)]),
  );
  const statuses = {};
  for (const [code, v] of Object.entries(r.statusCodeStats || {})) statuses[code] = v.count;
  const row = {
    case: name,
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
    `  ${name.padEnd(12)} ${String(row.rps).padStart(7)} req/s   p50 ${String(row.p50).padStart(4)} ms   p99 ${String(row.p99).padStart(4)} ms   ${String(row.requests).padStart(6)} requests   ${bad ? `!! ${row.non2xx} non-2xx, ${row.errors} errors/timeouts ${JSON.stringify(statuses)}` : '0 non-2xx'}   CPU µs/request: ${cpu || 'n/a'}`,
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
  `  autocannon: ${CONNECTIONS} connections, ${DURATION} s per case (after a 2 s warm-up), one case at a time`,
);
console.log(
  `  adds: quantity 1 over ${lines.length} guest lines / ${userLines.length} user lines of ${stocked.length} products (stock ${stocked.at(-1).countInStock}–${stocked[0].countInStock}), ${GUESTS} guest ids, ${tokens.length} users; reads: ${READ_CARTS} 3-line carts of ${cartBytes.length} bytes\n`,
);

// ------------------------------------------------------------------ the cases

const jsonHeaders = { 'content-type': 'application/json' };
let guestK = 0;
const guestAdd = () => {
  const k = guestK++;
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
      guestId: guestId('a', k % GUESTS),
    }),
  };
};
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
let readK = 0;
const guestRead = () => ({ method: 'GET', path: `/api/cart?guestId=${readIds[readK++ % readIds.length]}` });

const stack = stackProcesses(SCOPE);
const served = new Map(['gateway', 'cart'].filter((name) => stack.has(name)).map((name) => [name, stack.get(name)]));
if (served.size < 2) console.warn(`bench: no ${SCOPE} gateway/cart pid files: their CPU per request is not reported`);
const bare = await startBare(cartBytes);
const rows = [];
try {
  rows.push(await measure('bare server', bare.url, null, new Map([['bare', bare.pid]])));
  if (CASES.includes('guest-add')) rows.push(await measure('guest add', GATEWAY, guestAdd, served));
  if (CASES.includes('user-add')) rows.push(await measure('user add', GATEWAY, userAdd, served));
  if (CASES.includes('guest-read')) rows.push(await measure('guest read', GATEWAY, guestRead, served));
  if (CASES.includes('bare-hop')) {
    const proxy = await startScript('bare-proxy.mjs', [bare.url, '0']);
    try {
      const pids = new Map([
        ['proxy', proxy.pid],
        ['bare', bare.pid],
      ]);
      rows.push(await measure('bare hop', proxy.url, null, pids));
    } finally {
      await proxy.stop();
    }
  }
} finally {
  await bare.stop();
}

// The most any line got: it must stay below 99 and below the product's stock.
const maxGuestLine = Math.ceil(guestK / (GUESTS * lines.length));
const maxUserLine = tokens.length ? Math.ceil(userK / (tokens.length * userLines.length)) : 0;
console.log(
  `\n  adds sent: ${guestK} guest (≤ ${maxGuestLine} per line), ${userK} user (≤ ${maxUserLine} per line); lowest stock ${stocked.at(-1).countInStock}`,
);

// ------------------------------------------------------------------ clean up this run's guest carts

try {
  const redis = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 1 });
  await redis.connect();
  let removed = 0;
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `*cart:guest:guest_b${RUN}*`, 'COUNT', 1000);
    cursor = next;
    if (keys.length) removed += await redis.del(...keys);
  } while (cursor !== '0');
  redis.disconnect();
  console.log(
    `  removed ${removed} guest carts of this run from Redis (the ${tokens.length} users and their carts stay)`,
  );
} catch (err) {
  console.warn(`bench: could not remove this run's guest carts (${err.message})`);
}

// ------------------------------------------------------------------ targets

const find = (c) => rows.find((r) => r.case === c);
const base = find('bare server');
const verdicts = [];
const target = (name, min) => {
  const r = find(name);
  if (!r) return;
  const ratio = r.rps / base.rps;
  verdicts.push({
    check: min ? `${name} ≥ ${min * 100}% of bare server rps` : `${name} vs bare server (information)`,
    ratio,
    pass: min ? ratio >= min : undefined,
  });
};
target('guest add', 0.2);
target('user add', 0);
target('guest read', 0.4);
target('bare hop', 0);
console.log('\nTargets:');
for (const v of verdicts) {
  const mark = v.pass === undefined ? 'info' : v.pass ? 'PASS' : 'FAIL';
  console.log(`  [${mark}] ${v.check}: ${(v.ratio * 100).toFixed(0)}%`);
}

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
        cartBytes: cartBytes.length,
        rows,
        verdicts,
      },
      null,
      2,
    ),
  );
}

const broken = rows.filter((r) => r.non2xx + r.errors > 0);
if (broken.length) {
  console.error(
    `\nbench: FAILED — ${broken.map((r) => `${r.case}: ${r.non2xx} non-2xx, ${r.errors} errors/timeouts ${JSON.stringify(r.statuses)}`).join('; ')}. These figures are not valid.`,
  );
  process.exit(1);
}
if (maxGuestLine >= 99 || maxUserLine >= 99 || Math.max(maxGuestLine, maxUserLine) >= stocked.at(-1).countInStock)
  console.warn('bench: some line may have neared 99 or its stock: raise BENCH_GUESTS / BENCH_USERS');
