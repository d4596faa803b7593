/**
 * The dev MongoDB-wire server (tools/ferretdb) is built with the source patches of tools/ferretdb/patches:
 * without them FerretDB's SQLite backend scans and decodes a whole collection to find one document by _id
 * (its _id index is on an expression its lookups do not use), and decodes every document of a collection for any
 * filter but a lone _id. These checks fail on the unpatched build (EXPLAIN says SCAN; no filter pushdown), and
 * hold what the patches must keep: the same documents found, updated and deleted — for narrowing, FerretDB's own
 * answer to the same filter wrapped in a $nor of a $nor, which nothing narrows, is the reference.
 */
import mongoose from 'mongoose';
import { describeOurFerretDB } from './ferretdb-own';

const url = (process.env.TEST_MONGO_URL ?? 'mongodb://127.0.0.1:27018').replace(/\/+$/, '');

type Explained = { queryPlanner?: { Plan?: string[] }; filterPushdown?: boolean };

describeOurFerretDB('the dev MongoDB-wire server: lookups by _id', () => {
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

  it('finds the documents of an _id $in list through the _id index, and still applies the rest of the filter', async () => {
    const ids = ['doc-3', 'doc-4', 'doc-299', 'doc-missing'];
    const explained = await explain({ _id: { $in: ids } });
    expect(explained.filterPushdown).toBe(true);
    const plan = explained.queryPlanner?.Plan?.join(' ') ?? '';
    expect(plan).toMatch(/SEARCH .* USING INDEX/);
    expect(plan).not.toMatch(/\bSCAN\b/);
    const found = await coll()
      .find({ _id: { $in: ids } })
      .sort({ n: 1 })
      .toArray();
    expect(found.map((d) => d._id)).toEqual(['doc-3', 'doc-4', 'doc-299']);
    const odd = await coll()
      .find({ _id: { $in: ids }, owner: 'odd' })
      .toArray();
    expect(odd.map((d) => d._id).sort()).toEqual(['doc-299', 'doc-3']);
    expect(await coll().countDocuments({ _id: { $in: ids }, n: { $gt: 3 } })).toBe(2);
  });

  it('answers an _id $in list of mixed types (not narrowed by the _id index) as MongoDB does', async () => {
    expect(
      (
        await coll()
          .find({ _id: { $in: ['doc-5', 5] } })
          .toArray()
      ).map((d) => d._id),
    ).toEqual(['doc-5']);
    expect(
      await coll()
        .find({ _id: { $in: [] } })
        .toArray(),
    ).toEqual([]);
  });

  it('narrows an _id $in list of ObjectIds the same way', async () => {
    const objects = conn.db!.collection<{ _id: mongoose.Types.ObjectId; n: number }>('lookups_by_object_id');
    const ids = Array.from({ length: 50 }, () => new mongoose.Types.ObjectId());
    await objects.insertMany(ids.map((_id, n) => ({ _id, n })));
    const wanted = [ids[1]!, ids[20]!, new mongoose.Types.ObjectId()];
    const explained = (await conn.db!.command({
      explain: { find: 'lookups_by_object_id', filter: { _id: { $in: wanted } } },
    })) as Explained;
    expect(explained.queryPlanner?.Plan?.join(' ')).toMatch(/SEARCH .* USING INDEX/);
    const found = await objects
      .find({ _id: { $in: wanted } })
      .sort({ n: 1 })
      .toArray();
    expect(found.map((d) => d.n)).toEqual([1, 20]);
  });

  it('keeps _id unique', async () => {
    await expect(coll().insertOne({ _id: 'doc-1', n: 1, owner: 'odd' })).rejects.toMatchObject({ code: 11000 });
  });
});

describeOurFerretDB('the dev MongoDB-wire server: filters narrowed in SQLite', () => {
  type Doc = { _id: number; [field: string]: unknown };
  let conn: mongoose.Connection;
  const coll = () => conn.db!.collection<Doc>('narrowed');

  // Every shape a field can take where a filter on it may match: values, arrays of values, arrays of documents,
  // nested documents, missing, null, other types, and strings no narrowing may touch (FerretDB stores no array of
  // arrays).
  const shapes: unknown[] = [
    'odd',
    'even',
    ['odd', 'x'],
    [],
    null,
    7,
    true,
    false,
    { _id: 'odd' },
    [{ _id: 'odd' }, { _id: 'even' }],
    { _id: ['odd'] },
    { _id: { c: 'odd' } },
    { _id: { c: ['odd'] } },
    [{ _id: { c: 'odd' } }],
    'a<b',
    'é',
    'odd ',
  ];

  beforeAll(async () => {
    conn = await mongoose.createConnection(`${url}/ferretdb_narrowed_${process.pid}`).asPromise();
    const docs: Doc[] = [];
    shapes.forEach((a, i) => {
      docs.push({ _id: docs.length, f: a, flag: i % 2 === 0 });
      docs.push({ _id: docs.length, u: a, f: shapes[(i + 3) % shapes.length] });
    });
    docs.push({ _id: docs.length });
    await coll().insertMany(docs);
    await coll().createIndex({ f: 1, flag: 1 });
    await coll().createIndex({ 'u._id': 1 });
    await coll().createIndex({ 'u._id.c': 1 });
  });
  afterAll(async () => {
    await conn?.dropDatabase();
    await conn?.close();
  });

  const filters: object[] = [
    { f: 'odd' },
    { f: 'even', flag: true },
    { f: { $in: ['odd', 'even'] } },
    { flag: true },
    { flag: false },
    { f: 'a<b' },
    { f: 'é' },
    { f: 'missing' },
    { 'u._id': 'odd' },
    { 'u._id': { $in: ['even'] } },
    { 'u._id.c': 'odd' },
    { 'u._id': 'odd', f: 'even' },
    { f: 7 },
    { f: { $gte: 'a', $lt: 'p' } },
    { f: { $lte: 7 } },
    { flag: { $in: [true] } },
    { f: null },
    { $or: [{ f: 'odd' }, { flag: true }] },
  ];

  it.each(filters.map((f) => [JSON.stringify(f), f]))(
    'finds what FerretDB finds without narrowing: %s',
    async (_, filter) => {
      const ids = async (f: object) => (await coll().find(f).sort({ _id: 1 }).toArray()).map((d) => d._id);
      expect(await ids(filter)).toEqual(await ids({ $nor: [{ $nor: [filter] }] }));
    },
  );

  // The count command (estimatedDocumentCount, a plain count) is answered in SQL where the filter converts exactly
  // (sqlite-count-command.json): the same number as the documents FerretDB finds without narrowing.
  it.each(filters.map((f) => [JSON.stringify(f), f]))(
    'counts what it finds (the count command): %s',
    async (_, filter) => {
      const count = async (command: object) =>
        ((await conn.db!.command({ count: 'narrowed', ...command })) as { n: number }).n;
      const found = (
        await coll()
          .find({ $nor: [{ $nor: [filter] }] })
          .toArray()
      ).length;
      expect({ filter, n: await count({ query: filter }) }).toEqual({ filter, n: found });
      expect({ filter, n: await count({ query: filter, skip: 1, limit: 2 }) }).toEqual({
        filter,
        n: Math.min(2, Math.max(0, found - 1)),
      });
    },
  );

  it('answers estimatedDocumentCount with every document of the collection', async () => {
    expect(await coll().estimatedDocumentCount()).toBe(shapes.length * 2 + 1);
  });

  it("narrows equalities, ranges and $in in SQLite, through the field's order index", async () => {
    const explain = (filter: object) =>
      conn.db!.command({ explain: { find: 'narrowed', filter } }) as Promise<Explained>;
    for (const filter of [
      { f: 'odd' },
      { flag: true },
      { f: { $in: ['odd', 'even'] } },
      { 'u._id': 'odd' },
      { f: 'a<b' },
      { f: 7 },
      { f: { $gte: 'a', $lt: 'b' } },
    ]) {
      expect({ filter, pushdown: (await explain(filter)).filterPushdown }).toEqual({ filter, pushdown: true });
    }
    const plan = async (filter: object) => (await explain(filter)).queryPlanner?.Plan?.join(' ');
    // The type's rank and the value, in the order index that goes with {f: 1, flag: 1}; f holds arrays in some
    // documents, found by a second seek (an array matches by an element: the handler's to say).
    expect(await plan({ f: 'odd' })).toMatch(
      /MULTI-INDEX OR .*USING INDEX narrowed_\w+_f_1_flag_1_shop \(<expr>=\? AND <expr>=\?\) .*USING INDEX narrowed_\w+_f_1_flag_1_shop \(<expr>=\?\)/,
    );
    expect(await plan({ f: 'odd', flag: true })).toMatch(/USING INDEX narrowed_\w+_f_1_flag_1_shop/);
    // A dotted path: each term a seek, those for an array along the path in the type index of each prefix.
    for (const [filter, types] of [
      [{ 'u._id': 'odd' }, /USING INDEX narrowed_\w+__shop_type_u \(<expr>=\?\)/],
      [{ 'u._id.c': 'odd' }, /__shop_type_u \(<expr>=\?\) .*USING INDEX narrowed_\w+__shop_type_u\._id \(<expr>=\?\)/],
    ] as const) {
      expect({ filter, plan: await plan(filter) }).toEqual({ filter, plan: expect.stringMatching(types) });
      expect({ filter, plan: await plan(filter) }).toEqual({ filter, plan: expect.not.stringMatching(/\bSCAN\b/) });
    }
    // Not narrowed: an operator the patches do not convert.
    for (const filter of [{ f: { $ne: 'odd' } }, { f: { $exists: true } }]) {
      expect({ filter, pushdown: (await explain(filter)).filterPushdown }).toEqual({ filter, pushdown: false });
    }
  });
});
