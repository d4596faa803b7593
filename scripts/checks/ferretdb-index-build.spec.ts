/**
 * The dev MongoDB-wire server's index builds (tools/ferretdb/patches/sqlite-index-build.json). As on MongoDB, a build
 * belongs to the server: a client that stops waiting for it (the services create their indexes at start with a
 * 2.5 s socket timeout), a server stopped or killed midway, or a request one of whose indexes fails, must leave each
 * index either built and listed or not there at all. Upstream FerretDB could leave an SQLite index no metadata named
 * (after a stop signal it cancels a build still running 3 s later; after a failed index it forgot the ones before),
 * and every later createIndexes of that index failed on "index ... already exists" until it was dropped by hand.
 *
 * These checks stop, kill and restart the server, so they run a FerretDB of their own (ferretdb-own.ts) on a fresh
 * data directory. Where the sqlite3 program is installed, they also write what an interrupted build of an older
 * FerretDB left behind into its files.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MongoClient, type Collection, type IndexDescription } from 'mongodb';
import { describeOurFerretDB, freePort, OwnFerret, sleep } from './ferretdb-own';

const BASE = Date.UTC(2025, 0, 1);
const COUNT = 30_000; // about 2 s of index builds on the dev box: long enough to be caught midway
const INDEXES: IndexDescription[] = [
  { key: { status: 1, t: -1 } },
  { key: { 'user._id': 1, t: -1 } },
  { key: { n: 1 }, unique: true },
];
const NAMES = ['status_1_t_-1', 'user._id_1_t_-1', 'n_1'];
// a build longer than the 3 s FerretDB gives requests once it is told to stop (about 4 s on the dev box)
const LONG_BUILD: IndexDescription[] = [
  { key: { t: 1 } },
  { key: { note: 1, t: 1 } },
  { key: { status: 1, n: -1 } },
  { key: { 'user._id': 1, n: 1 } },
  { key: { n: -1, t: 1 } },
  { key: { t: -1, note: 1 } },
  { key: { status: -1, note: 1 } },
];
const LONG_NAMES = LONG_BUILD.map((i) =>
  Object.entries(i.key)
    .map(([field, dir]) => `${field}_${String(dir)}`)
    .join('_'),
);

type Order = { _id: number; user: { _id: string }; status: string; n: number; t: Date; note: string };
type Explained = { queryPlanner?: { Plan?: string[] } };

function order(i: number): Order {
  const status = ['Paid', 'Shipped', 'Delivered'][i % 3];
  return { _id: i, user: { _id: `u${i % 1000}` }, status, n: i, t: new Date(BASE + i * 60_000), note: 'x'.repeat(150) };
}

describeOurFerretDB('the dev MongoDB-wire server: index builds belong to the server', () => {
  let server: OwnFerret;
  let client: MongoClient | undefined;
  const orders = (): Collection<Order> => client!.db('shop_builds').collection<Order>('orders');

  async function connectClient(): Promise<void> {
    await client?.close(true);
    client = await MongoClient.connect(server.url, { serverSelectionTimeoutMS: 10_000 });
  }

  async function restart(signal: NodeJS.Signals): Promise<void> {
    await client?.close(true);
    client = undefined;
    await server.stop(signal);
    await server.start();
    await connectClient();
  }

  /** Sends a createIndexes on a connection of its own, and leaves it to finish or fail. */
  async function startBuild({ socketTimeoutMS = 0, indexes = INDEXES } = {}): Promise<{
    outcome: Promise<unknown>;
    close: () => Promise<void>;
  }> {
    const own = await MongoClient.connect(server.url, { socketTimeoutMS, serverSelectionTimeoutMS: 10_000 });
    await own.db('shop_builds').command({ ping: 1 });
    const outcome = own
      .db('shop_builds')
      .collection('orders')
      .createIndexes(indexes)
      .then(
        (names) => ({ names }),
        (err: Error) => ({ error: err.message }),
      );
    return { outcome, close: () => own.close(true) };
  }

  const indexNames = async () => (await orders().indexes()).map((i) => i.name).sort();

  /** The indexes are there and answer queries: the same index created again is a no-op, and finds use them. */
  async function expectBuiltAndUsable(): Promise<void> {
    expect(await indexNames()).toEqual(['_id_', ...NAMES].sort());
    expect(await orders().createIndexes(INDEXES)).toEqual(NAMES);

    const explain = (find: object) => client!.db('shop_builds').command({ explain: find }) as Promise<Explained>;
    const shipped = await explain({ find: 'orders', filter: { status: 'Shipped' } });
    expect(shipped.queryPlanner?.Plan?.join(' ')).toMatch(
      /SEARCH orders_\w+ USING INDEX orders_\w+_status_1_t_-1_shop/,
    );
    const mine = await explain({ find: 'orders', filter: { 'user._id': 'u7' } });
    expect(mine.queryPlanner?.Plan?.join(' ')).toMatch(/USING INDEX orders_\w+_user\._id_1_t_-1 /);
    expect(mine.queryPlanner?.Plan?.join(' ')).not.toMatch(/\bSCAN\b/);

    const last = Array.from({ length: COUNT }, (_, i) => COUNT - 1 - i);
    const newest = await orders().find({ status: 'Shipped' }).sort({ t: -1, _id: -1 }).limit(3).toArray();
    expect(newest.map((o) => o._id)).toEqual(last.filter((i) => i % 3 === 1).slice(0, 3));
    const found = await orders().find({ 'user._id': 'u7' }).sort({ t: -1 }).toArray();
    expect(found.map((o) => o._id)).toEqual(last.filter((i) => i % 1000 === 7));
    await expect(orders().insertOne(order(5))).rejects.toMatchObject({ code: 11000 }); // n is unique
  }

  async function dropBuilt(): Promise<void> {
    await orders().dropIndexes();
    expect(await indexNames()).toEqual(['_id_']);
  }

  beforeAll(async () => {
    server = new OwnFerret(mkdtempSync(join(tmpdir(), 'ferretdb-index-build-')), await freePort());
    await server.start();
    await connectClient();
    for (let start = 0; start < COUNT; start += 5000) {
      await orders().insertMany(Array.from({ length: 5000 }, (_, k) => order(start + k)));
    }
  }, 120_000);

  afterAll(async () => {
    await client?.close(true);
    await server?.stop('SIGKILL');
    if (server) rmSync(server.dataDir, { recursive: true, force: true });
  });

  it('finishes and records a build the client stopped waiting for', async () => {
    const build = await startBuild({ socketTimeoutMS: 300 });
    expect(await build.outcome).toMatchObject({ error: expect.stringMatching(/timed out/) });
    await build.close();
    // the build goes on without the client; listIndexes answers meanwhile (sqlite-schema-lock.json), as on MongoDB
    // without the indexes not built yet, and never with some of a request's indexes only
    const seen = [await indexNames()];
    while (seen[seen.length - 1].length === 1) {
      await sleep(100);
      seen.push(await indexNames());
    }
    expect(seen[0]).toEqual(['_id_']);
    expect(seen.filter((names) => names.length !== 1 && names.length !== 1 + NAMES.length)).toEqual([]);
    await expectBuiltAndUsable();
    await dropBuilt();
  }, 60_000);

  it.each([200, 700, 1200])(
    'leaves a build whole or undone when the server is killed %i ms into it, and builds it again',
    async (ms) => {
      const build = await startBuild();
      await sleep(ms);
      await restart('SIGKILL');
      await build.close();
      // all of the request's indexes or none: it had committed or not
      expect([['_id_'], ['_id_', ...NAMES].sort()]).toContainEqual(await indexNames());
      await orders().createIndexes(INDEXES);
      await expectBuiltAndUsable();
      await dropBuilt();
    },
    60_000,
  );

  it('finishes a build before it stops, however long it takes', async () => {
    const build = await startBuild({ indexes: LONG_BUILD });
    await sleep(300);
    await restart('SIGTERM');
    await build.close();
    expect(await indexNames()).toEqual(['_id_', ...LONG_NAMES].sort());
    await orders().dropIndexes();
  }, 60_000);

  it('creates none of the indexes of a request one of which fails, as MongoDB', async () => {
    await orders().insertOne({ ...order(COUNT), n: 7 }); // a second n: 7, which a unique index on n refuses
    await expect(orders().createIndexes(INDEXES)).rejects.toThrow(/UNIQUE constraint failed/);
    expect(await indexNames()).toEqual(['_id_']);
    await orders().deleteOne({ _id: COUNT });
    await orders().createIndexes(INDEXES);
    await expectBuiltAndUsable();
    await dropBuilt();
  }, 60_000);

  const sqlite3 = spawnSync('sqlite3', ['-version'], { encoding: 'utf8' }).status === 0;
  (sqlite3 ? describe : describe.skip)('what an older build left in SQLite (needs the sqlite3 program)', () => {
    const file = () => join(server.dataDir, 'shop_builds.sqlite');
    const sql = (statement: string) => {
      const out = spawnSync('sqlite3', [file(), statement], { encoding: 'utf8' });
      if (out.status !== 0) throw new Error(`sqlite3: ${out.stderr}`);
      return out.stdout.trim();
    };
    const table = () => sql(`SELECT table_name FROM _ferretdb_collections WHERE name = 'orders'`);

    it('adopts an index SQLite holds without metadata, or rebuilds it when it is another index', async () => {
      await client?.close(true);
      client = undefined;
      await server.stop('SIGTERM');
      const t = table();
      // status_1_t_-1 as FerretDB makes it; user._id_1_t_-1 on another expression (the name is all that matches)
      sql(
        `CREATE INDEX "${t}_status_1_t_-1" ON "${t}" (_ferretdb_sjson->"status", _ferretdb_sjson->"t" DESC);` +
          `CREATE INDEX "${t}_user._id_1_t_-1" ON "${t}" (_ferretdb_sjson->"note")`,
      );
      await server.start();
      await connectClient();
      expect(await indexNames()).toEqual(['_id_']);

      await orders().createIndexes(INDEXES);
      expect(server.log).toMatch(/adopting an index .*index=\S+_status_1_t_-1/);
      expect(server.log).toMatch(/rebuilding an index .*index=\S+_user\._id_1_t_-1/);
      expect(sql(`SELECT sql FROM sqlite_master WHERE name = '${t}_user._id_1_t_-1'`)).toContain('"user"->"_id"');
      await expectBuiltAndUsable();
    }, 60_000);

    it('creates, when it opens the database, an index the metadata lists but SQLite lacks', async () => {
      await client?.close(true);
      client = undefined;
      await server.stop('SIGTERM');
      const t = table();
      sql(`DROP INDEX "${t}_n_1"`);
      await server.start();
      await connectClient();
      expect(server.log).toMatch(/creating an index the metadata lists but SQLite lacks.*index=\S+_n_1/);
      expect(sql(`SELECT count(*) FROM sqlite_master WHERE name = '${t}_n_1'`)).toBe('1');
      await expectBuiltAndUsable();
    }, 60_000);
  });
});
