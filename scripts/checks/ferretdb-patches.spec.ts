/**
 * The dev MongoDB-wire server (tools/ferretdb) is built with the source patches of tools/ferretdb/patches:
 * without them FerretDB's SQLite backend scans and decodes a whole collection to find one document by _id
 * (its _id index is on an expression its lookups do not use), and so does any filter naming _id and more.
 * These checks fail on the unpatched build (EXPLAIN says SCAN; no filter pushdown for a two-key filter),
 * and hold what the patches must keep: the same documents found, updated and deleted.
 */
import mongoose from 'mongoose';

const url = (process.env.TEST_MONGO_URL ?? 'mongodb://127.0.0.1:27018').replace(/\/+$/, '');

type Explained = { queryPlanner?: { Plan?: string[] }; filterPushdown?: boolean };

describe('the dev MongoDB-wire server: lookups by _id', () => {
  let conn: mongoose.Connection;
  const coll = () => conn.db!.collection<{ _id: string; n: number; owner: string }>('lookups');
  const explain = (filter: object) => conn.db!.command({ explain: { find: 'lookups', filter } }) as Promise<Explained>;

  beforeAll(async () => {
    conn = await mongoose.createConnection(`${url}/ferretdb_patches_${process.pid}`).asPromise();
    await coll().insertMany(
      Array.from({ length: 300 }, (_, i) => ({ _id: `doc-${i}`, n: i, owner: i % 2 ? 'odd' : 'even' })),
    );
  });
  afterAll(async () => {
    await conn?.dropDatabase();
    await conn?.close();
  });

  it('finds a document by _id through the _id index, not by scanning the table', async () => {
    const plan = (await explain({ _id: 'doc-7' })).queryPlanner?.Plan?.join(' ') ?? '';
    expect(plan).toMatch(/SEARCH .* USING INDEX/);
    expect(plan).not.toMatch(/\bSCAN\b/);
    expect(await coll().findOne({ _id: 'doc-7' })).toEqual({ _id: 'doc-7', n: 7, owner: 'odd' });
  });

  it('narrows a filter holding _id and other conditions by its _id, and still applies the others', async () => {
    const explained = await explain({ _id: 'doc-8', owner: 'even' });
    expect(explained.filterPushdown).toBe(true);
    expect(explained.queryPlanner?.Plan?.join(' ')).toMatch(/USING INDEX/);
    expect(await coll().findOne({ _id: 'doc-8', owner: 'even' })).toMatchObject({ n: 8 });
    expect(await coll().findOne({ _id: 'doc-8', owner: 'odd' })).toBeNull();
    expect(await coll().findOne({ _id: 'doc-8', n: { $gt: 8 } })).toBeNull();
  });

  it('updates and deletes exactly the documents a guarded _id filter names', async () => {
    expect((await coll().updateOne({ _id: 'doc-10', n: 11 }, { $set: { n: -1 } })).modifiedCount).toBe(0);
    expect((await coll().updateOne({ _id: 'doc-10', n: 10 }, { $set: { n: -1 } })).modifiedCount).toBe(1);
    expect(await coll().findOne({ _id: 'doc-10' })).toMatchObject({ n: -1 });
    expect((await coll().deleteOne({ _id: 'doc-12', owner: 'odd' })).deletedCount).toBe(0);
    expect((await coll().deleteOne({ _id: 'doc-12', owner: 'even' })).deletedCount).toBe(1);
    expect(await coll().countDocuments({})).toBe(299);
    expect(await coll().countDocuments({ n: -1 })).toBe(1);
  });

  it('keeps _id unique', async () => {
    await expect(coll().insertOne({ _id: 'doc-1', n: 1, owner: 'odd' })).rejects.toMatchObject({ code: 11000 });
  });
});
