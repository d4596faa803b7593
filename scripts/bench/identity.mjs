// Identity benchmark: `node scripts/bench/identity.mjs` against a running shop (`npm start`).
//
// Checks the dev allowance docs/api.md#rate-limits asks for — one machine can register 1,000 users and fail 100 logins
// in a minute without being rate limited — and measures what it costs: registrations and logins per second with their
// p50/p99 (each one is a scrypt hash, the deliberate cost of a password).
//   GATEWAY_URL     default http://127.0.0.1:8080
//   BENCH_USERS     registrations, default 1000
//   BENCH_FAILED    failed logins, default 100
//   BENCH_PARALLEL  requests in flight, default 16
import { performance } from 'node:perf_hooks';

const GATEWAY = (process.env.GATEWAY_URL || 'http://127.0.0.1:8080').replace(/\/+$/, '');
const USERS = Number(process.env.BENCH_USERS || 1000);
const FAILED = Number(process.env.BENCH_FAILED || 100);
const PARALLEL = Number(process.env.BENCH_PARALLEL || 16);
const run = `${Date.now().toString(36)}`;

async function post(path, body) {
  const started = performance.now();
  const res = await fetch(`${GATEWAY}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  await res.arrayBuffer();
  return { status: res.status, ms: performance.now() - started };
}

/** Runs `count` calls of `make(i)` with at most PARALLEL in flight; returns every result. */
async function pool(count, make) {
  const results = [];
  let next = 0;
  const worker = async () => {
    while (next < count) results.push(await make(next++));
  };
  await Promise.all(Array.from({ length: Math.min(PARALLEL, count) }, worker));
  return results;
}

function summary(name, results, seconds, expected) {
  const ms = results.map((r) => r.ms).sort((a, b) => a - b);
  const at = (q) => ms[Math.min(ms.length - 1, Math.floor(q * ms.length))].toFixed(0);
  const statuses = {};
  for (const r of results) statuses[r.status] = (statuses[r.status] ?? 0) + 1;
  const ok = results.every((r) => r.status === expected);
  console.log(
    `  ${name.padEnd(15)} ${String(results.length).padStart(5)} in ${seconds.toFixed(1)} s  ` +
      `${(results.length / seconds).toFixed(0).padStart(4)}/s  p50 ${at(0.5)} ms  p99 ${at(0.99)} ms  ` +
      `statuses ${JSON.stringify(statuses)}`,
  );
  return ok;
}

const health = await fetch(`${GATEWAY}/health`).catch(() => null);
if (!health?.ok) {
  console.error(`bench: no shop at ${GATEWAY} (start it with npm start)`);
  process.exit(1);
}
console.log(`Identity benchmark — ${new Date().toISOString()} — ${GATEWAY}, ${PARALLEL} in flight`);

let t = performance.now();
const registered = await pool(USERS, (i) =>
  post('/api/users/register', { name: `Bench ${i}`, email: `bench.${run}.${i}@example.com`, password: 'Bench!2345' }),
);
const registerOk = summary('register', registered, (performance.now() - t) / 1000, 201);

t = performance.now();
const logins = await pool(Math.min(USERS, 200), (i) =>
  post('/api/users/login', { email: `bench.${run}.${i}@example.com`, password: 'Bench!2345' }),
);
const loginOk = summary('login', logins, (performance.now() - t) / 1000, 200);

t = performance.now();
const failed = await pool(FAILED, (i) =>
  post('/api/users/login', { email: `bench.${run}.${i}@example.com`, password: 'wrong-password' }),
);
const failedOk = summary('failed login', failed, (performance.now() - t) / 1000, 401);

console.log(
  `\n  [${registerOk && loginOk && failedOk ? 'PASS' : 'FAIL'}] ${USERS} registrations and ${FAILED} failed logins ` +
    'from one machine, none rate limited (the dev allowance of docs/api.md#rate-limits)',
);
process.exit(registerOk && loginOk && failedOk ? 0 : 1);
