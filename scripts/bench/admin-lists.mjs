// Admin lists benchmark (issue 25): `node scripts/bench/admin-lists.mjs` (figures and how to read them:
// docs/performance.md, "Admin lists").
//
// Starts a catalog and an identity of its own (ports BENCH_CATALOG_PORT, BENCH_IDENTITY_PORT), each on a database
// of its own on BENCH_MONGO_URL (the development FerretDB: `npm start`'s on 27017 by default), seeded once through
// the service's own seed program (`seed.main --synthetic=<n>`: BENCH_PRODUCTS products, BENCH_USERS users), each
// database dropped first and the service started on it empty. Then,
// for each list, three cases at each concurrency of BENCH_CONCURRENCY, BENCH_DURATION seconds each, with
// autocannon and an admin token of the run's own JWT secret:
//   - first page:    GET …?page=1 (newest first)
//   - search:        GET …?page=1&q=<a word of a name, a SKU or an email, varied>
//   - filtered page: GET …?page=1..3&<filters>&sort=<a field> (products: category, lowStock; users: role)
// and the same first page while an admin renames a product or a user BENCH_WRITES times a second (each list read
// then replays the change log first). It prints p50 and p99 per case, the req/s, non-2xx answers, and a PASS/FAIL
// line against the target (p99 ≤ BENCH_TARGET_P99 ms, 300 by default). For reference it also times, straight on the
// same database with the MongoDB driver, the queries a list answered from the database would send (find with the
// filter, sort, skip and limit, plus countDocuments): the design this bench justifies not taking on FerretDB.
//
// Environment: BENCH_MONGO_URL (mongodb://127.0.0.1:27017), REDIS_URL, RABBITMQ_URL, BENCH_PRODUCTS (10000),
// BENCH_USERS (10000), BENCH_CONCURRENCY (1,8,32), BENCH_DURATION (10), BENCH_WRITES (5), BENCH_TARGET_P99 (300),
// BENCH_CATALOG_PORT (3121), BENCH_IDENTITY_PORT (3123), BENCH_DB_SAMPLES (5: 0 skips the database reference),
// BENCH_LISTS (products,users), BENCH_JSON (a file for the results).
import autocannon from 'autocannon';
import jwt from 'jsonwebtoken';
import { MongoClient } from 'mongodb';
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import amqp from 'amqplib';
import { consumerTopology, namespacedExchange, namespacedQueue } from '@shop/nest-common';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '../..');
const env = process.env;
const MONGO_URL = (env.BENCH_MONGO_URL || 'mongodb://127.0.0.1:27017').replace(/\/+$/, '');
const REDIS_URL = env.REDIS_URL || 'redis://127.0.0.1:6379';
const RABBITMQ_URL = env.RABBITMQ_URL || 'amqp://guest:guest@127.0.0.1:5672';
const PRODUCTS = Number(env.BENCH_PRODUCTS || 10_000);
const USERS = Number(env.BENCH_USERS || 10_000);
const CONCURRENCY = (env.BENCH_CONCURRENCY || '1,8,32').split(',').map(Number);
const DURATION = Number(env.BENCH_DURATION || 10);
const WRITES = Number(env.BENCH_WRITES || 5);
const TARGET = Number(env.BENCH_TARGET_P99 || 300);
const CATALOG_PORT = Number(env.BENCH_CATALOG_PORT || 3121);
const IDENTITY_PORT = Number(env.BENCH_IDENTITY_PORT || 3123);
const DB_SAMPLES = Number(env.BENCH_DB_SAMPLES || 5);
const LISTS = (env.BENCH_LISTS || 'products,users').split(',');
const SECRET = randomBytes(32).toString('hex');
const ADMIN = jwt.sign(
  { sub: '64b7f9f9f9f9f9f9f9f9f9f9', role: 'admin', name: 'Bench Admin', iatMs: Date.now() },
  SECRET,
  {
    algorithm: 'HS256',
    expiresIn: '2h',
  },
);

function machine() {
  const cpu = os.cpus();
  return `${cpu.length} × ${cpu[0]?.model?.trim() || 'unknown CPU'}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}, load ${os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')}`;
}

/** mulberry32: the same sequence of queries every run. */
function prng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function startProcess(args, childEnv, ready) {
  const child = spawn(process.execPath, args, { env: childEnv, stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    let seen = '';
    const onData = (chunk) => {
      seen = (seen + chunk.toString()).slice(-8192);
      const match = ready.exec(seen);
      if (!match) return;
      child.stdout.off('data', onData);
      child.stdout.resume(); // keep draining its log
      resolve({ child, match });
    };
    child.stdout.on('data', onData);
    child.on('exit', (code) =>
      reject(new Error(`${path.basename(args[0])} exited with ${code} (last output: ${seen.slice(-500)})`)),
    );
  });
}

/**
 * A service of the run's own on a fresh database: started on it empty (so that its start-up reads nothing), then
 * seeded by its own seed program, which tells running replicas that everything changed.
 */
async function startService(service, port, count) {
  const namespace = `bench-admin-lists.`;
  const database = `bench_admin_${service}_${count}`;
  const serviceEnv = {
    ...env,
    PORT: String(port),
    MONGO_URI: `${MONGO_URL}/${database}`,
    REDIS_URL,
    RABBITMQ_URL,
    RABBITMQ_NAMESPACE: namespace,
    JWT_SECRET: SECRET,
    NODE_ENV: 'development',
    LOG_LEVEL: 'info',
  };
  const client = await MongoClient.connect(`${MONGO_URL}/${database}`);
  await client.db(database).dropDatabase();
  await client.close();
  const dist = path.join(root, `services/${service}/dist`);
  const { child } = await startProcess([path.join(dist, 'main.js')], serviceEnv, /service listening/);
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 100; i++) {
    if ((await fetch(`${base}/ready`).catch(() => null))?.ok) break;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  const seeding = performance.now();
  const { child: seeder } = await startProcess(
    [path.join(dist, 'seed/seed.main.js'), `--synthetic=${count}`],
    serviceEnv,
    /(seeded \d+ synthetic|nothing seeded)/,
  );
  if (seeder.exitCode === null) await new Promise((resolve) => seeder.once('exit', resolve));
  const seedMs = performance.now() - seeding;
  return { base, child, namespace, seedMs, database };
}

async function stopService(svc, service) {
  svc.child.kill('SIGTERM');
  await new Promise((resolve) => svc.child.once('exit', resolve));
  const connection = await amqp.connect(RABBITMQ_URL);
  try {
    const channel = await connection.createChannel();
    const { queue, retryQueue, dlq, dlx } = consumerTopology(`${svc.namespace}${service}.events`);
    for (const q of [namespacedQueue(svc.namespace, service), queue, retryQueue, dlq]) await channel.deleteQueue(q);
    await channel.deleteExchange(dlx);
    if (service === 'identity') await channel.deleteExchange(namespacedExchange(svc.namespace));
    await channel.close();
  } finally {
    await connection.close();
  }
}

function rssMb(pid) {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  return Math.round(Number(/VmRSS:\s+(\d+) kB/.exec(status)[1]) / 1024);
}

async function get(base, url) {
  const res = await fetch(`${base}${url}`, { headers: { authorization: `Bearer ${ADMIN}` } });
  const body = await res.json();
  if (res.status !== 200) throw new Error(`${url} answered ${res.status}: ${JSON.stringify(body)}`);
  return { body, total: Number(res.headers.get('x-total-count')) };
}

function load(base, paths, connections) {
  let next = 0;
  return new Promise((resolve, reject) => {
    autocannon(
      {
        url: base,
        connections,
        pipelining: 1,
        timeout: 10,
        duration: DURATION,
        headers: { authorization: `Bearer ${ADMIN}` },
        requests: [{ setupRequest: (req) => ({ ...req, path: paths[next++ % paths.length] }) }],
      },
      (err, result) => (err ? reject(err) : resolve(result)),
    );
  });
}

/** Renames one of `ids` every 1/perSecond s through the admin API, until stopped. */
function startWrites(base, kind, ids, perSecond) {
  let n = 0;
  const counts = { writes: 0, failed: 0, lastFailure: '' };
  const timer = setInterval(() => {
    const id = ids[n++ % ids.length];
    fetch(`${base}/api/admin/${kind}/${id}`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: `Renamed by the bench ${n}` }),
    })
      .then(async (res) => {
        if (res.ok) counts.writes++;
        else {
          counts.failed++;
          counts.lastFailure = `${res.status} ${await res.text()}`.slice(0, 200);
        }
      })
      .catch((err) => {
        counts.failed++;
        counts.lastFailure = err.message;
      });
  }, 1000 / perSecond);
  return { stop: () => clearInterval(timer), counts };
}

const results = [];
let failed = false;

function report(list, name, connections, r, extra = '') {
  const errors = r.errors + r.non2xx + r.timeouts;
  const ok = r.latency.p99 <= TARGET && errors === 0;
  if (!ok) failed = true;
  results.push({
    list,
    case: name,
    connections,
    p50: r.latency.p50,
    p99: r.latency.p99,
    rps: r.requests.average,
    errors,
  });
  console.log(
    `  ${list.padEnd(8)} ${name.padEnd(24)} ${String(connections).padStart(3)} conn  p50 ${String(r.latency.p50).padStart(4)} ms  p99 ${String(r.latency.p99).padStart(4)} ms  ${String(Math.round(r.requests.average)).padStart(5)} req/s  errors ${errors}${extra}  [${ok ? 'PASS' : 'FAIL'} p99 ≤ ${TARGET} ms]`,
  );
}

async function runCases(list, base, cases, writes) {
  for (const [name, paths] of cases) {
    for (const connections of CONCURRENCY) report(list, name, connections, await load(base, paths, connections));
  }
  const writer = startWrites(base, writes.kind, writes.ids, WRITES);
  const r = await load(base, cases[0][1], 8);
  writer.stop();
  report(
    list,
    `first page + ${WRITES} edits/s`,
    8,
    r,
    `  (${writer.counts.writes} edits, ${writer.counts.failed} failed)`,
  );
}

/** The queries a list answered from the database would send, timed straight on the bench's database. */
async function databaseReference(database, collection, cases) {
  if (DB_SAMPLES <= 0) return;
  const client = await MongoClient.connect(`${MONGO_URL}/${database}`);
  try {
    const coll = client.db(database).collection(collection);
    for (const [name, filter, sort] of cases) {
      const times = [];
      for (let i = 0; i < DB_SAMPLES; i++) {
        const started = performance.now();
        await Promise.all([coll.find(filter).sort(sort).skip(0).limit(25).toArray(), coll.countDocuments(filter)]);
        times.push(performance.now() - started);
      }
      times.sort((a, b) => a - b);
      console.log(
        `  ${collection.padEnd(8)} ${name.padEnd(24)} from the database: median ${times[Math.floor(times.length / 2)].toFixed(0)} ms, worst ${times.at(-1).toFixed(0)} ms (${DB_SAMPLES} sequential)`,
      );
      results.push({
        list: collection,
        case: `${name} (database)`,
        medianMs: Math.round(times[Math.floor(times.length / 2)]),
        worstMs: Math.round(times.at(-1)),
      });
    }
  } finally {
    await client.close();
  }
}

console.log(`Admin lists benchmark — ${new Date().toISOString()}`);
console.log(`  machine: ${machine()}`);
console.log(
  `  ${PRODUCTS} products, ${USERS} users on ${MONGO_URL}; each case ${DURATION} s at ${CONCURRENCY.join(', ')} connections\n`,
);

// ---------------------------------------------------------------- products (catalog)
if (LISTS.includes('products')) {
  const catalog = await startService('catalog', CATALOG_PORT, PRODUCTS);
  try {
    const rssBefore = rssMb(catalog.child.pid);
    const started = performance.now();
    const first = await get(catalog.base, '/api/admin/products?page=1&limit=100');
    console.log(
      `  catalog: seeded in ${(catalog.seedMs / 1000).toFixed(1)} s; the first paged read (loads the admin copy) ${(performance.now() - started).toFixed(0)} ms, total ${first.total}; RSS ${rssBefore} → ${rssMb(catalog.child.pid)} MB`,
    );
    const rnd = prng(1);
    const words = [...new Set(first.body.flatMap((p) => p.name.split(/\s+/)).filter((w) => w.length > 3))];
    const skus = first.body.map((p) => p.sku.slice(0, 9).toLowerCase());
    const searches = Array.from({ length: 500 }, () => {
      const q = rnd() < 0.5 ? words[Math.floor(rnd() * words.length)] : skus[Math.floor(rnd() * skus.length)];
      return `/api/admin/products?page=1&q=${encodeURIComponent(q)}`;
    });
    const categories = ['Top Wear', 'Bottom Wear', 'Accessories', 'Equipment'];
    const sorts = ['name', '-price', 'countInStock', '-createdAt'];
    const filtered = Array.from({ length: 500 }, () => {
      const page = 1 + Math.floor(rnd() * 3);
      const category = categories[Math.floor(rnd() * categories.length)];
      const low = rnd() < 0.5 ? '&lowStock=true' : '';
      return `/api/admin/products?page=${page}&category=${encodeURIComponent(category)}&published=true${low}&sort=${sorts[Math.floor(rnd() * sorts.length)]}`;
    });
    await runCases(
      'products',
      catalog.base,
      [
        ['first page', ['/api/admin/products?page=1']],
        ['search', searches],
        ['filtered page', filtered],
      ],
      { kind: 'products', ids: first.body.slice(0, 20).map((p) => p._id) },
    );
    await databaseReference(catalog.database, 'products', [
      ['first page', {}, { createdAt: -1, _id: -1 }],
      ['search', { $or: [{ name: /retro/i }, { sku: /retro/i }, { brand: /retro/i }] }, { createdAt: -1, _id: -1 }],
      ['filtered page', { category: 'Top Wear', isPublished: true }, { pricePence: 1, _id: 1 }],
    ]);
  } finally {
    await stopService(catalog, 'catalog');
  }
}

// ---------------------------------------------------------------- users (identity)
if (LISTS.includes('users')) {
  const identity = await startService('identity', IDENTITY_PORT, USERS);
  try {
    const rssBefore = rssMb(identity.child.pid);
    const started = performance.now();
    const first = await get(identity.base, '/api/admin/users?page=1&limit=100');
    console.log(
      `\n  identity: seeded in ${(identity.seedMs / 1000).toFixed(1)} s; the first paged read (loads the admin copy) ${(performance.now() - started).toFixed(0)} ms, total ${first.total}; RSS ${rssBefore} → ${rssMb(identity.child.pid)} MB`,
    );
    const rnd = prng(2);
    const terms = ['ada', 'stone', 'synthetic.12', 'Jordan Park', 'rivera', 'lee', 'synthetic.9999', 'okafor'];
    const searches = Array.from(
      { length: 200 },
      () => `/api/admin/users?page=1&q=${encodeURIComponent(terms[Math.floor(rnd() * terms.length)])}`,
    );
    const sorts = ['name', '-email', 'createdAt', '-name'];
    const filtered = Array.from({ length: 200 }, () => {
      const role = rnd() < 0.5 ? 'admin' : 'customer';
      return `/api/admin/users?page=${1 + Math.floor(rnd() * 3)}&role=${role}&sort=${sorts[Math.floor(rnd() * sorts.length)]}`;
    });
    await runCases(
      'users',
      identity.base,
      [
        ['first page', ['/api/admin/users?page=1']],
        ['search', searches],
        ['filtered page', filtered],
      ],
      {
        kind: 'users',
        ids: first.body
          .filter((u) => u.role === 'customer')
          .slice(0, 20)
          .map((u) => u._id),
      },
    );
    await databaseReference(identity.database, 'users', [
      ['first page', {}, { createdAt: -1, _id: -1 }],
      ['search', { $or: [{ name: /ada/i }, { email: /ada/i }] }, { name: 1, _id: 1 }],
      ['filtered page', { role: 'admin' }, { name: 1, _id: 1 }],
    ]);
  } finally {
    await stopService(identity, 'identity');
  }
}

if (env.BENCH_JSON) fs.writeFileSync(env.BENCH_JSON, JSON.stringify({ machine: machine(), results }, null, 2));
console.log(`\n${failed ? 'FAIL' : 'PASS'}: every list case p99 ≤ ${TARGET} ms with no errors`);
process.exit(failed ? 1 : 0);
