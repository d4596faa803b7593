/**
 * The dev MongoDB-wire server applies each single-document write atomically, as MongoDB does
 * (tools/ferretdb/patches/sqlite-atomic-writes.json). Upstream FerretDB v1 answers update, findAndModify and delete by
 * reading the filter's documents, applying the change in Go and writing them back, so two commands on one document
 * both read it before either wrote: a conditional decrement sold stock it no longer had and a $inc was lost. The shop
 * holds stock, discount uses and carts with conditional single-document updates, so these are the guarantees it
 * stands on. Each check fails on a build without the patch (TEST_FERRET_BINARY=<that build> shows it).
 *
 * A FerretDB of its own (ferretdb-own.ts): the checks load one database with many concurrent writers. With
 * TEST_EXTERNAL_MONGO_URL (`npm test` against a MongoDB, docs/operations.md) they run against that server instead, in a
 * database of their own dropped at the end: these are MongoDB's guarantees, which the real server must show too.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MongoClient, type Collection } from 'mongodb';
import { randomBytes } from 'node:crypto';
import { EXTERNAL_MONGO_URL, freePort, OwnFerret } from './ferretdb-own';

const TRIALS = 5;
const BUYERS = 40;
const UNITS = 10;

type Counter = { _id: string; n: number; state?: string; by?: number };

const SERVER = EXTERNAL_MONGO_URL ? 'the external MongoDB (TEST_EXTERNAL_MONGO_URL)' : 'the dev MongoDB-wire server';
// on an external server, a database of this run's (dropped at the end); on our own FerretDB, a fresh data directory
const DATABASE = EXTERNAL_MONGO_URL ? `test_atomic_${randomBytes(4).toString('hex')}` : 'shop_atomic';

describe(`${SERVER}: single-document writes are atomic`, () => {
  let server: OwnFerret | undefined;
  let client: MongoClient;
  const counters = (): Collection<Counter> => client.db(DATABASE).collection<Counter>('counters');

  beforeAll(async () => {
    let url = EXTERNAL_MONGO_URL;
    if (!url) {
      server = new OwnFerret(mkdtempSync(join(tmpdir(), 'ferretdb-atomic-')), await freePort());
      await server.start();
      url = server.url;
    }
    // a connection per concurrent command, so that they reach the server together
    client = await MongoClient.connect(url, { serverSelectionTimeoutMS: 10_000, maxPoolSize: BUYERS + 10 });
    await counters().insertOne({ _id: 'warm-up', n: 0 });
  });
  afterAll(async () => {
    if (EXTERNAL_MONGO_URL) await client?.db(DATABASE).dropDatabase();
    await client?.close(true);
    await server?.stop('SIGKILL');
    if (server) rmSync(server.dataDir, { recursive: true, force: true });
  });

  it(`lets exactly ${UNITS} of ${BUYERS} concurrent conditional decrements of ${UNITS} units through, never below zero`, async () => {
    for (let trial = 0; trial < TRIALS; trial++) {
      const _id = `stock-${trial}`;
      await counters().insertOne({ _id, n: UNITS });
      const answers = await Promise.all(
        Array.from({ length: BUYERS }, () =>
          counters().findOneAndUpdate({ _id, n: { $gte: 1 } }, { $inc: { n: -1 } }, { returnDocument: 'after' }),
        ),
      );
      const sold = answers.filter((doc) => doc !== null);
      expect({ trial, sold: sold.length }).toEqual({ trial, sold: UNITS });
      // each winner saw its own unit go: the documents returned hold every count from UNITS-1 down to 0 once
      expect(sold.map((doc) => doc!.n).sort((a, b) => a - b)).toEqual(Array.from({ length: UNITS }, (_, i) => i));
      expect(await counters().findOne({ _id })).toEqual({ _id, n: 0 });
    }
  });

  it('loses no $inc of many concurrent ones, and updateOne reports each as modified', async () => {
    for (let trial = 0; trial < TRIALS; trial++) {
      const _id = `inc-${trial}`;
      await counters().insertOne({ _id, n: 0 });
      const results = await Promise.all(
        Array.from({ length: BUYERS }, () => counters().updateOne({ _id }, { $inc: { n: 1 } })),
      );
      expect(results.every((r) => r.modifiedCount === 1)).toBe(true);
      expect(await counters().findOne({ _id })).toEqual({ _id, n: BUYERS });
    }
  });

  it('returns from findAndModify the document its own write made, whichever way it is asked', async () => {
    const _id = 'ticket';
    await counters().insertOne({ _id, n: 0 });
    const [after, before] = await Promise.all([
      Promise.all(
        Array.from({ length: BUYERS / 2 }, () =>
          counters().findOneAndUpdate({ _id }, { $inc: { n: 1 } }, { returnDocument: 'after' }),
        ),
      ),
      Promise.all(
        Array.from({ length: BUYERS / 2 }, () =>
          counters().findOneAndUpdate({ _id }, { $inc: { n: 1 } }, { returnDocument: 'before' }),
        ),
      ),
    ]);
    // every write saw the one before it: "after" answers and "before" answers + 1 are BUYERS distinct numbers 1..BUYERS
    const seen = [...after.map((doc) => doc!.n), ...before.map((doc) => doc!.n + 1)].sort((a, b) => a - b);
    expect(seen).toEqual(Array.from({ length: BUYERS }, (_, i) => i + 1));
    expect(await counters().findOne({ _id })).toEqual({ _id, n: BUYERS });
  });

  it('gives a conditional claim to exactly one of many concurrent claimants', async () => {
    for (let trial = 0; trial < TRIALS; trial++) {
      const _id = `claim-${trial}`;
      await counters().insertOne({ _id, n: 0, state: 'open' });
      const results = await Promise.all(
        Array.from({ length: BUYERS }, (_, by) =>
          counters().updateOne({ _id, state: 'open' }, { $set: { state: 'taken', by }, $inc: { n: 1 } }),
        ),
      );
      expect(results.filter((r) => r.modifiedCount === 1)).toHaveLength(1);
      expect(await counters().findOne({ _id })).toMatchObject({ state: 'taken', n: 1 });
    }
  });

  it('hands each document of a queue to one of many concurrent findOneAndDelete calls', async () => {
    const jobs = client.db(DATABASE).collection<{ _id: string; queue: string }>('jobs');
    await jobs.insertMany(Array.from({ length: UNITS }, (_, i) => ({ _id: `job-${i}`, queue: 'mail' })));
    const taken = await Promise.all(
      Array.from({ length: BUYERS }, () => jobs.findOneAndDelete({ queue: 'mail' }, { sort: { _id: 1 } })),
    );
    const ids = taken.filter((doc) => doc !== null).map((doc) => doc!._id);
    expect(ids.sort()).toEqual(Array.from({ length: UNITS }, (_, i) => `job-${i}`).sort());
    expect(await jobs.countDocuments({})).toBe(0);
  });
});
