import mongoose from 'mongoose';
import { parseExposition, testMongoUrl, uniqueSuffix, withDatabase, type Exposition } from '../testing';
import { Metrics } from './metrics';
import { collectionOf, MongoCommandMetrics, NO_COLLECTION } from './mongo-command-metrics';

describe('MongoCommandMetrics against the real MongoDB-wire server', () => {
  const metrics = new Metrics('catalog', { defaultMetrics: false });
  const commands = new MongoCommandMetrics(metrics);
  const dbName = `test_mongo_commands_${uniqueSuffix()}`;
  let client: InstanceType<typeof mongoose.mongo.MongoClient>;

  const scrape = async (): Promise<Exposition> => parseExposition((await metrics.exposition()).body);
  const moved = (before: Exposition, after: Exposition, name: string, labels: Record<string, string>) =>
    after.sum(name, labels) - before.sum(name, labels);

  beforeAll(async () => {
    client = new mongoose.mongo.MongoClient(withDatabase(testMongoUrl(), dbName), {
      monitorCommands: true,
      serverSelectionTimeoutMS: 5000,
    });
    commands.watch(client);
    commands.watch(client); // once only: a second watch must not count twice
    await client.connect();
  });
  afterAll(async () => {
    await client?.db(dbName).dropDatabase();
    await client?.close();
  });

  it('counts an insert and a find by collection and operation, with their duration', async () => {
    const before = await scrape();
    const jerseys = client.db(dbName).collection('jerseys');
    await jerseys.insertOne({ name: 'Ravens home', stock: 3 });
    await jerseys.findOne({ name: 'Ravens home' });
    await jerseys.findOne({ name: 'Ravens away' });
    await client
      .db(dbName)
      .collection('carts')
      .insertMany([{ lines: [] }, { lines: [] }]); // one insert command
    const after = await scrape();

    expect(moved(before, after, 'shop_mongo_commands_total', { collection: 'jerseys', op: 'insert' })).toBe(1);
    expect(moved(before, after, 'shop_mongo_commands_total', { collection: 'jerseys', op: 'find' })).toBe(2);
    expect(moved(before, after, 'shop_mongo_commands_total', { collection: 'carts', op: 'insert' })).toBe(1);
    expect(moved(before, after, 'shop_mongo_command_failures_total', { collection: 'jerseys' })).toBe(0);
    expect(
      moved(before, after, 'shop_mongo_command_seconds_total', { collection: 'jerseys', op: 'find' }),
    ).toBeGreaterThan(0);
    const sample = after.samples.find((s) => s.name === 'shop_mongo_commands_total');
    expect(sample?.labels.service).toBe('catalog');
  });

  it('labels a getMore by its cursor’s collection, and commands that name none $cmd', async () => {
    const jerseys = client.db(dbName).collection('jerseys');
    await jerseys.insertMany(Array.from({ length: 5 }, (_, i) => ({ name: `bulk ${i}`, stock: i })));
    const before = await scrape();
    expect(await jerseys.find({}, { batchSize: 2 }).toArray()).toHaveLength(6);
    await client.db('admin').command({ ping: 1 });
    const after = await scrape();

    expect(moved(before, after, 'shop_mongo_commands_total', { collection: 'jerseys', op: 'find' })).toBe(1);
    expect(
      moved(before, after, 'shop_mongo_commands_total', { collection: 'jerseys', op: 'getMore' }),
    ).toBeGreaterThanOrEqual(
      2, // 6 documents in batches of 2 (a last, empty one when the server does not close the cursor early)
    );
    expect(moved(before, after, 'shop_mongo_commands_total', { collection: NO_COLLECTION, op: 'ping' })).toBe(1);
  });

  it('counts a command the server refuses as sent and failed', async () => {
    const jerseys = client.db(dbName).collection('jerseys');
    await jerseys.createIndex({ name: 1 }, { unique: true });
    const before = await scrape();
    await expect(jerseys.insertOne({ name: 'Ravens home' })).rejects.toThrow();
    const after = await scrape();

    expect(moved(before, after, 'shop_mongo_commands_total', { collection: 'jerseys', op: 'insert' })).toBe(1);
    // A duplicate key is a write error in an ok reply (a success to the driver); a command error is a failure.
    await expect(client.db(dbName).command({ find: 'jerseys', filter: { $nope: 1 } })).rejects.toThrow();
    const last = await scrape();
    expect(moved(after, last, 'shop_mongo_command_failures_total', { collection: 'jerseys', op: 'find' })).toBe(1);
  });
});

describe('collectionOf', () => {
  it.each([
    ['find', { find: 'products', filter: {} }, 'products'],
    ['findAndModify', { findAndModify: 'checkouts', query: {} }, 'checkouts'],
    ['getMore', { getMore: 42n, collection: 'orders' }, 'orders'],
    ['aggregate', { aggregate: 1, pipeline: [] }, NO_COLLECTION],
    ['hello', {}, NO_COLLECTION], // the driver redacts sensitive commands to {}
    ['endSessions', { endSessions: [{ id: 'x' }] }, NO_COLLECTION],
  ])('%s %p → %s', (op, command, expected) => {
    expect(collectionOf(op, command)).toBe(expected);
  });
});
