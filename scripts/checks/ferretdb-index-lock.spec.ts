/**
 * The dev MongoDB-wire server builds an index without holding up the other databases
 * (tools/ferretdb/patches/sqlite-schema-lock.json). Upstream FerretDB held its registry's one lock through the whole
 * build, so every request to every database waited for it: at start, a new index over 100,000 orders (8 s) made the
 * catalog's, checkout's and notifications' start-up queries time out. As on MongoDB, requests to other databases and
 * reads of the building database now go on during a build; writes to that database wait for it (SQLite has one
 * writer per database file, and the build is that writer); and the changes to one database's collections and indexes
 * still take turns, so a drop sent during a build applies after it, to what it built.
 *
 * A FerretDB of its own (ferretdb-own.ts), since it loads the server with builds of seconds; the figures of each
 * build are printed. TEST_FERRET_BINARY=<an older build> shows the stall this removes (the first check then fails).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MongoClient, type Db, type IndexDescription } from 'mongodb';
import { describeOurFerretDB, freePort, OwnFerret, sleep } from './ferretdb-own';

const COUNT = 30_000;
// one request of several indexes (one transaction): about 4 s on the dev box, the stall of a big start-up build
const BUILD: IndexDescription[] = [
  { key: { status: 1, t: -1 } },
  { key: { 'user._id': 1, t: -1 } },
  { key: { t: 1 } },
  { key: { note: 1, t: 1 } },
  { key: { n: -1, t: 1 } },
  { key: { status: -1, note: 1 } },
];
const NAMES = BUILD.map((i) =>
  Object.entries(i.key)
    .map(([field, dir]) => `${field}_${String(dir)}`)
    .join('_'),
);
const BASE = Date.UTC(2025, 0, 1);

type Order = { _id: number; user: { _id: string }; status: string; n: number; t: Date; note: string };
type Event = { _id: string; kind: string };
type Product = { _id: string; name: string; price: number };

function order(i: number): Order {
  const status = ['Paid', 'Shipped', 'Delivered'][i % 3];
  return { _id: i, user: { _id: `u${i % 1000}` }, status, n: i, t: new Date(BASE + i * 60_000), note: 'x'.repeat(150) };
}

const median = (ms: number[]) => [...ms].sort((a, b) => a - b)[Math.floor(ms.length / 2)];

/** How long each call of a probe took while a build ran, and whether the build was still running at its end. */
type Probe = { name: string; ms: number[]; duringBuild: number };

describeOurFerretDB('the dev MongoDB-wire server: an index build does not stall the other databases', () => {
  let server: OwnFerret;
  let client: MongoClient;
  const ordersDb = (): Db => client.db('shop_lock_orders');
  const catalogDb = (): Db => client.db('shop_lock_catalog');
  const events = () => ordersDb().collection<Event>('events');
  const products = () => catalogDb().collection<Product>('products');
  const indexNames = async () => (await ordersDb().collection('orders').indexes()).map((i) => i.name).sort();

  /** Sends the build on a connection of its own; `done` is when it answered. */
  async function startBuild(): Promise<{ outcome: Promise<string[]>; started: number; done: () => number }> {
    let finished = 0;
    const started = Date.now();
    const outcome = ordersDb()
      .collection('orders')
      .createIndexes(BUILD)
      .finally(() => (finished = Date.now()));
    return { outcome, started, done: () => finished };
  }

  /** Calls each probe over and over, one at a time, until the build answers; a probe of a stalled server waits. */
  async function probeDuring(
    build: { outcome: Promise<unknown>; done: () => number },
    probes: Record<string, () => Promise<unknown>>,
  ): Promise<Probe[]> {
    const results = Object.keys(probes).map((name) => ({ name, ms: [] as number[], duringBuild: 0 }));
    let building = true;
    void build.outcome.finally(() => (building = false));
    await sleep(300); // the build is under way
    await Promise.all(
      results.map(async (r) => {
        while (building) {
          const t0 = Date.now();
          await probes[r.name]();
          const t1 = Date.now();
          r.ms.push(t1 - t0);
          if (!build.done() || t1 < build.done()) r.duringBuild++;
          await sleep(50);
        }
      }),
    );
    return results;
  }

  const report = (what: string, buildMs: number, probes: Probe[]) =>
    console.log(
      `${what}: build ${buildMs} ms; ` +
        probes
          .map((p) => `${p.name} ${median(p.ms)} ms median, ${Math.max(...p.ms)} max (${p.ms.length} calls)`)
          .join('; '),
    );

  beforeAll(async () => {
    server = new OwnFerret(mkdtempSync(join(tmpdir(), 'ferretdb-index-lock-')), await freePort());
    await server.start();
    client = await MongoClient.connect(server.url, { serverSelectionTimeoutMS: 10_000, maxPoolSize: 20 });
    for (let start = 0; start < COUNT; start += 5000) {
      await ordersDb()
        .collection<Order>('orders')
        .insertMany(Array.from({ length: 5000 }, (_, k) => order(start + k)));
    }
    await events().insertMany([{ _id: 'e1', kind: 'placed' }]);
    await products().insertMany(
      Array.from({ length: 50 }, (_, i) => ({ _id: `p${i}`, name: `product ${i}`, price: i })),
    );
  }, 120_000);

  afterAll(async () => {
    await client?.close(true);
    await server?.stop('SIGKILL');
    if (server) rmSync(server.dataDir, { recursive: true, force: true });
  });

  it('answers other databases, and reads of its own, within a fraction of the build; builds and records it all', async () => {
    const build = await startBuild();
    const probes = await probeDuring(build, {
      'ping (other db)': () => catalogDb().command({ ping: 1 }),
      'find (other db)': () =>
        products()
          .find({ price: { $gte: 40 } })
          .toArray(),
      'insert (other db)': () => catalogDb().collection('carts').insertOne({ at: new Date() }),
      'find (same db, other collection)': () => events().findOne({ _id: 'e1' }),
      'listCollections (same db)': () => ordersDb().listCollections().toArray(),
    });
    expect(await build.outcome).toEqual(NAMES);
    const buildMs = build.done() - build.started;
    report('during a build', buildMs, probes);

    expect(buildMs).toBeGreaterThan(1500); // long enough for a stall to show
    for (const probe of probes) {
      expect({ probe: probe.name, answeredDuringBuild: probe.duringBuild >= 3 }).toEqual({
        probe: probe.name,
        answeredDuringBuild: true,
      });
      expect({ probe: probe.name, slowest: Math.max(...probe.ms) < buildMs / 4 }).toEqual({
        probe: probe.name,
        slowest: true,
      });
    }

    // complete and recorded: listed, used by queries, their order indexes made
    expect(await indexNames()).toEqual(['_id_', ...NAMES].sort());
    const explained = (await ordersDb().command({
      explain: { find: 'orders', filter: { status: 'Shipped' }, sort: { t: -1 }, limit: 3 },
    })) as { queryPlanner?: { Plan?: string[] }; sortPushdown?: boolean };
    expect(explained.queryPlanner?.Plan?.join(' ')).toMatch(/USING INDEX orders_\w+_status_1_t_-1_shop/);
    expect(explained.sortPushdown).toBe(true);
    const newest = await ordersDb().collection('orders').find({ status: 'Shipped' }).sort({ t: -1 }).limit(3).toArray();
    expect(newest.map((o) => o._id)).toEqual([COUNT - 2, COUNT - 5, COUNT - 8]);
    expect(await ordersDb().collection('orders').countDocuments({ 'user._id': 'u7' })).toBe(COUNT / 1000);
    await ordersDb().collection('orders').dropIndexes();
  }, 120_000);

  it('lets a write to the building database wait for the build, and then apply', async () => {
    await ordersDb().collection('orders').dropIndexes();
    const build = await startBuild();
    await sleep(300);
    const t0 = Date.now();
    await events().insertOne({ _id: 'e2', kind: 'paid' });
    const waited = Date.now() - t0;
    await build.outcome;
    console.log(`a write to the building database waited ${waited} ms of a ${build.done() - build.started} ms build`);
    expect(await events().countDocuments()).toBe(2);
    expect(await indexNames()).toEqual(['_id_', ...NAMES].sort());
  }, 60_000);

  it('applies a dropIndexes sent during a build after it, to what it built', async () => {
    await ordersDb().collection('orders').dropIndexes();
    const build = await startBuild();
    await sleep(300);
    await ordersDb().collection('orders').dropIndex(NAMES[0]); // waits for the build: the index exists then
    expect(await build.outcome).toEqual(NAMES);
    expect(await indexNames()).toEqual(['_id_', ...NAMES.slice(1)].sort());
    await ordersDb().collection('orders').dropIndexes();
  }, 60_000);

  it('drops the database sent a dropDatabase during a build, after it, and can make it again', async () => {
    const build = await startBuild();
    await sleep(300);
    await ordersDb().dropDatabase();
    expect(await build.outcome).toEqual(NAMES);
    expect(await ordersDb().listCollections().toArray()).toEqual([]);
    expect((await client.db('admin').admin().listDatabases()).databases.map((d) => d.name)).not.toContain(
      'shop_lock_orders',
    );

    await ordersDb().collection<Order>('orders').insertOne(order(1));
    await ordersDb().collection('orders').createIndexes(BUILD);
    expect(await indexNames()).toEqual(['_id_', ...NAMES].sort());
    expect(await ordersDb().collection('orders').countDocuments({ status: 'Shipped' })).toBe(1);
  }, 60_000);
});
