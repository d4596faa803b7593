// Catalogue read benchmark: `node scripts/bench/catalog.mjs`
//
// In ONE run, with autocannon, one case after another (never in parallel, so they do not share the CPU):
//   the full product list, a filtered search and a product detail — through the gateway and straight to the
//   catalog service — beside a bare Node http server returning the very same bytes as the product list.
// Prints requests/s and p99 latency per case, then the target ratios:
//   gateway list ≥ 50% of the bare server's rps;  gateway ≤ 15% slower than the service direct (each route).
//
// Assumes the shop runs (`npm start`: gateway :8080, catalog :3001). Environment:
//   GATEWAY_URL       default http://127.0.0.1:8080   ("off" to measure the service and the bare server only)
//   CATALOG_URL       default http://127.0.0.1:3001
//   BENCH_DURATION    seconds per case, default 10
//   BENCH_CONNECTIONS concurrent connections, default 32
//   BENCH_JSON        write the results to this file as JSON too
import autocannon from 'autocannon';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const GATEWAY = (process.env.GATEWAY_URL || 'http://127.0.0.1:8080').replace(/\/+$/, '');
const CATALOG = (process.env.CATALOG_URL || 'http://127.0.0.1:3001').replace(/\/+$/, '');
const DURATION = Number(process.env.BENCH_DURATION || 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS || 32);

const LIST = '/api/products';
const SEARCH =
  '/api/products?gender=Men&category=Top%20Wear&color=Red,Black,Green&maxPrice=150&sortBy=priceAsc&search=jersey';

function fail(message) {
  console.error(`bench: ${message}`);
  process.exit(1);
}

async function fetchOk(url) {
  let res;
  try {
    res = await fetch(url, { signal: AbortSignal.timeout(5000) });
  } catch (err) {
    return { ok: false, why: err.cause?.code || err.message };
  }
  const body = Buffer.from(await res.arrayBuffer());
  return { ok: res.status === 200, why: `HTTP ${res.status}`, body, headers: res.headers };
}

function startBare(body, etag) {
  const file = path.join(os.tmpdir(), `bench-catalog-list-${process.pid}.json`);
  fs.writeFileSync(file, body);
  const child = spawn(process.execPath, [path.join(here, 'bare-server.mjs'), file, '0'], {
    env: { ...process.env, BARE_ETAG: etag || '"bare"' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    child.stdout.on('data', (chunk) => {
      const m = /listening (\d+)/.exec(chunk.toString());
      if (m)
        resolve({
          url: `http://127.0.0.1:${m[1]}`,
          stop: () => (child.kill('SIGTERM'), fs.rmSync(file, { force: true })),
        });
    });
    child.on('exit', (code) => reject(new Error(`bare server exited with ${code}`)));
  });
}

function run(url, duration = DURATION) {
  return new Promise((resolve, reject) => {
    autocannon({ url, connections: CONNECTIONS, duration, pipelining: 1, timeout: 10 }, (err, result) =>
      err ? reject(err) : resolve(result),
    );
  });
}

async function measure(name, target, url, bytes) {
  await run(url, 2); // warm-up: JIT, caches, keep-alive sockets
  const r = await run(url);
  const row = {
    case: name,
    target,
    rps: Math.round(r.requests.average),
    p50: r.latency.p50,
    p99: r.latency.p99,
    bytes,
    errors: r.errors + r.timeouts + r.non2xx,
  };
  console.log(
    `  ${name.padEnd(16)} ${target.padEnd(8)} ${String(row.rps).padStart(7)} req/s   p50 ${String(row.p50).padStart(4)} ms   p99 ${String(row.p99).padStart(4)} ms${row.errors ? `   ${row.errors} errors/non-2xx` : ''}`,
  );
  return row;
}

// ------------------------------------------------------------------ what is up, and the bytes to serve

const direct = await fetchOk(`${CATALOG}${LIST}`);
if (!direct.ok)
  fail(`the catalog does not answer ${CATALOG}${LIST} (${direct.why}). Start the shop (npm start) or set CATALOG_URL.`);
const products = JSON.parse(direct.body.toString('utf8'));
if (!Array.isArray(products) || products.length === 0)
  fail('the catalogue is empty: seed it first (npm start seeds an empty database).');
const detail = `/api/products/${products[0]._id}`;

let gatewayUp = false;
if (GATEWAY !== 'off') {
  const through = await fetchOk(`${GATEWAY}${LIST}`);
  gatewayUp = through.ok && through.body.equals(direct.body);
  if (!gatewayUp)
    console.warn(
      `bench: gateway ${GATEWAY} not measured (${through.ok ? 'its list differs from the service’s' : through.why})`,
    );
}

const cpu = os.cpus();
console.log(`Catalog read benchmark — ${new Date().toISOString()}`);
console.log(
  `  machine: ${cpu.length} × ${cpu[0]?.model?.trim() || 'unknown CPU'}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}, ${os.platform()} ${os.release()}`,
);
console.log(
  `  autocannon: ${CONNECTIONS} connections, ${DURATION} s per case (after a 2 s warm-up), one case at a time`,
);
console.log(`  product list: ${products.length} products, ${direct.body.length} bytes; detail ${detail}\n`);

const bare = await startBare(direct.body, direct.headers.get('etag'));
const rows = [];
try {
  rows.push(await measure('product list', 'bare', `${bare.url}${LIST}`, direct.body.length));
  rows.push(await measure('product list', 'service', `${CATALOG}${LIST}`, direct.body.length));
  if (gatewayUp) rows.push(await measure('product list', 'gateway', `${GATEWAY}${LIST}`, direct.body.length));
  const search = await fetchOk(`${CATALOG}${SEARCH}`);
  rows.push(await measure('filtered search', 'service', `${CATALOG}${SEARCH}`, search.body?.length ?? 0));
  if (gatewayUp)
    rows.push(await measure('filtered search', 'gateway', `${GATEWAY}${SEARCH}`, search.body?.length ?? 0));
  const one = await fetchOk(`${CATALOG}${detail}`);
  rows.push(await measure('product detail', 'service', `${CATALOG}${detail}`, one.body?.length ?? 0));
  if (gatewayUp) rows.push(await measure('product detail', 'gateway', `${GATEWAY}${detail}`, one.body?.length ?? 0));
} finally {
  bare.stop();
}

// ------------------------------------------------------------------ targets

const find = (c, t) => rows.find((r) => r.case === c && r.target === t);
const verdicts = [];
const listBare = find('product list', 'bare');
const listService = find('product list', 'service');
verdicts.push({ check: 'service list vs bare server (information)', ratio: listService.rps / listBare.rps });
if (gatewayUp) {
  const listGateway = find('product list', 'gateway');
  verdicts.push({
    check: 'gateway list ≥ 50% of bare server rps',
    ratio: listGateway.rps / listBare.rps,
    pass: listGateway.rps / listBare.rps >= 0.5,
  });
  for (const c of ['product list', 'filtered search', 'product detail']) {
    const s = find(c, 'service');
    const g = find(c, 'gateway');
    const slower = 1 - g.rps / s.rps;
    verdicts.push({
      check: `${c}: gateway ≤ 15% slower than service`,
      ratio: g.rps / s.rps,
      slower,
      pass: slower <= 0.15,
    });
  }
}
console.log('\nTargets:');
for (const v of verdicts) {
  const mark = v.pass === undefined ? 'info' : v.pass ? 'PASS' : 'FAIL';
  const extra = v.slower !== undefined ? ` (${(v.slower * 100).toFixed(0)}% slower)` : '';
  console.log(`  [${mark}] ${v.check}: ${(v.ratio * 100).toFixed(0)}%${extra}`);
}
if (!gatewayUp) console.log('  (gateway targets not checked: gateway not measured)');

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
        rows,
        verdicts,
      },
      null,
      2,
    ),
  );
}
