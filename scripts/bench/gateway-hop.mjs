// The gateway's own cost, without the shop: `node scripts/bench/gateway-hop.mjs` (after `npm run build`).
//
// One bare server (bare-cart-server.mjs: a cart's Redis work and a 3-line cart JSON) is the upstream of three proxies,
// each in its own process: the bare proxy (bare-proxy.mjs, the smallest hop Node can make), http-proxy-middleware
// alone (framework-proxy.mjs, the least the stack the gateway is built on costs) and the built gateway
// (gateway/dist/main.js, every service URL pointed at the bare server, the rest of its configuration its defaults:
// request ids, access log, metrics, security headers, body limits, the HTTP cache on its routes). Each case runs
// through each proxy in turn (never in parallel, so they do not share the CPU), after a 2 s warm-up:
//   read  GET /api/cart?guestId=<uuid>                 (a guest cart read, as the SPA sends it)
//   add   POST /api/cart with a JSON body and a guestId (a guest add, as the SPA sends it)
// Prints, per round and proxy, req/s, p99 and the CPU time (user + system, /proc/<pid>/stat) the proxy's process spent
// per request, then the medians of the rounds. The CPU per request is the figure to compare: on a shared box req/s
// moves with everyone else's load much more than it does. Exits 1 if any request failed or was not a 2xx.
//
// Environment:
//   REDIS_URL         default redis://127.0.0.1:6379 (the bare server's)
//   BENCH_DURATION    seconds per case, default 10
//   BENCH_CONNECTIONS concurrent connections, default 50
//   BENCH_ROUNDS      rounds, default 3 (medians compared)
//   BENCH_GATEWAY_PORT the gateway's port, default 0 (any free one); its metrics listen on any free port too
import autocannon from 'autocannon';
import { execFileSync, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.resolve(here, '../..');
const DURATION = Number(process.env.BENCH_DURATION || 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS || 50);
const ROUNDS = Number(process.env.BENCH_ROUNDS || 3);
const CLOCK_TICKS = Number(execFileSync('getconf', ['CLK_TCK']).toString()) || 100;
const GATEWAY_MAIN = path.join(ROOT, 'gateway/dist/main.js');

if (!fs.existsSync(GATEWAY_MAIN)) {
  console.error('bench: gateway/dist/main.js is missing: build first (npm run build)');
  process.exit(1);
}

/** CPU seconds (user + system) that `pid` has used so far. */
function cpuSeconds(pid) {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS; // utime, stime (fields 14 and 15 of proc(5))
}

/** Starts `args` in a node process of its own; resolves with its port once its stdout matches `ready`. */
function start(args, env, ready) {
  const child = spawn(process.execPath, args, {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    let seen = '';
    const onData = (chunk) => {
      seen += chunk;
      const m = ready.exec(seen);
      if (!m) return;
      child.stdout.off('data', onData);
      child.stdout.resume(); // the gateway's access log, read and dropped
      resolve({ port: Number(m[1]), pid: child.pid, stop: () => child.kill('SIGTERM') });
    };
    child.stdout.on('data', onData);
    child.once('exit', (code) => reject(new Error(`${args[0]} exited with ${code}`)));
  });
}

const cart = {
  guestId: randomUUID(),
  products: [1, 2, 3].map((n) => ({
    productId: `65f0c0ffee0000000000000${n}`,
    name: `Home jersey, number ${n}`,
    size: 'L',
    color: 'Navy',
    price: 89.99,
    quantity: n,
    image: `/uploads/products/65f0c0ffee0000000000000${n}-main.webp`,
  })),
  totalPrice: 539.94,
};
const cartFile = path.join(os.tmpdir(), `bench-gateway-hop-${process.pid}.json`);
fs.writeFileSync(cartFile, JSON.stringify(cart));

const LISTENING = /listening (\d+)/;
const upstream = await start([path.join(here, 'bare-cart-server.mjs'), cartFile, '0'], {}, LISTENING);
const upstreamUrl = `http://127.0.0.1:${upstream.port}`;
const gatewayEnv = {
  PORT: process.env.BENCH_GATEWAY_PORT || '0',
  HOST: '127.0.0.1',
  METRICS_PORT: '0',
  NODE_ENV: 'production',
  LOG_LEVEL: 'info',
  ...Object.fromEntries(['CATALOG', 'CART', 'IDENTITY', 'CHECKOUT', 'ORDERS'].map((s) => [`${s}_URL`, upstreamUrl])),
};
const proxies = {
  bare: await start([path.join(here, 'bare-proxy.mjs'), upstreamUrl, '0'], {}, LISTENING),
  framework: await start([path.join(here, 'framework-proxy.mjs'), upstreamUrl, '0'], {}, LISTENING),
  gateway: await start([GATEWAY_MAIN], gatewayEnv, /"port":(\d+)[^\n]*"gateway listening"/),
};

const guests = Array.from({ length: 1000 }, () => randomUUID());
let k = 0;
const ACCEPT = 'application/json, text/plain, */*';
const cases = {
  read: () => ({
    method: 'GET',
    path: `/api/cart?guestId=${guests[k++ % guests.length]}`,
    headers: { accept: ACCEPT },
  }),
  add: () => ({
    method: 'POST',
    path: '/api/cart',
    headers: { accept: ACCEPT, 'content-type': 'application/json' },
    body: JSON.stringify({
      productId: cart.products[0].productId,
      quantity: 1,
      size: 'L',
      color: 'Navy',
      guestId: guests[k++ % guests.length],
    }),
  }),
};

function run(port, makeRequest, duration) {
  const opts = { url: `http://127.0.0.1:${port}`, connections: CONNECTIONS, duration, pipelining: 1, timeout: 10 };
  opts.requests = [{ setupRequest: (req) => ({ ...req, ...makeRequest() }) }];
  return new Promise((resolve, reject) => autocannon(opts, (err, result) => (err ? reject(err) : resolve(result))));
}

const cpu = {}; // "<case> <proxy>" → µs per request, one per round
let bad = 0;
try {
  for (let round = 1; round <= ROUNDS; round++) {
    for (const [name, makeRequest] of Object.entries(cases)) {
      for (const [through, proxy] of Object.entries(proxies)) {
        await run(proxy.port, makeRequest, 2); // warm-up: JIT, keep-alive sockets
        const before = cpuSeconds(proxy.pid);
        const r = await run(proxy.port, makeRequest, DURATION);
        const us = Math.round(((cpuSeconds(proxy.pid) - before) * 1e6) / r.requests.total);
        (cpu[`${name} ${through}`] ??= []).push(us);
        bad += r.non2xx + r.errors + r.timeouts;
        const failures =
          r.non2xx + r.errors + r.timeouts ? `   !! ${r.non2xx} non-2xx, ${r.errors + r.timeouts} errors` : '';
        console.log(
          `round ${round}  ${name.padEnd(4)} ${through.padEnd(9)} ${String(Math.round(r.requests.average)).padStart(6)} req/s   p99 ${String(r.latency.p99).padStart(3)} ms   CPU ${String(us).padStart(4)} µs/request${failures}`,
        );
      }
    }
  }
} finally {
  for (const proc of [...Object.values(proxies), upstream]) proc.stop();
  fs.rmSync(cartFile, { force: true });
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
console.log(`\nmedian CPU µs/request of ${ROUNDS} rounds (${CONNECTIONS} connections, ${DURATION} s per case):`);
for (const name of Object.keys(cases)) {
  const row = Object.keys(proxies).map((through) => `${through} ${median(cpu[`${name} ${through}`])}`);
  console.log(`  ${name.padEnd(4)}  ${row.join('   ')}`);
}
if (bad) {
  console.error(`bench: ${bad} requests failed or were not 2xx`);
  process.exit(1);
}
