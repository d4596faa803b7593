import { randomUUID } from 'node:crypto';
import * as amqplib from 'amqplib';
import mongoose, { Schema, Types, type Connection, type Model } from 'mongoose';
import type { EventEnvelope } from '@shop/contracts';
import { EventBus } from './event-bus';
import type { EventBusLogger } from './event-bus.types';
import { OutboxEntrySchema, OutboxRelay, outboxEntry, type OutboxEntry } from './outbox';
import { TcpProxy } from '../testing/tcp-proxy';
import { waitFor } from '../testing/wait-for';

const AMQP_URL = process.env.TEST_AMQP_URL ?? process.env.RABBITMQ_URL ?? 'amqp://guest:guest@127.0.0.1:5672';
const MONGO_URL = process.env.TEST_MONGO_URL ?? 'mongodb://127.0.0.1:27018';
const suite = randomUUID().slice(0, 8);
const dbName = `test_outbox_${suite}`;
const exchange = `test.outbox.${suite}`;
const tapQueue = `test.${suite}.outbox-tap`;

jest.setTimeout(15_000);

interface LogEntry {
  level: 'info' | 'warn' | 'error';
  obj: Record<string, unknown>;
  msg?: string;
}

function collectingLogger(entries: LogEntry[] = []): EventBusLogger & { entries: LogEntry[] } {
  const at = (level: LogEntry['level']) => (obj: object, msg?: string) =>
    void entries.push({ level, obj: obj as Record<string, unknown>, msg });
  return { entries, info: at('info'), warn: at('warn'), error: at('error') };
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** A document that announces its facts through an outbox, as the services' own models do. */
interface Thing {
  _id: Types.ObjectId;
  name: string;
  outbox: OutboxEntry[];
  outboxPending: boolean;
}

const ThingSchema = new Schema<Thing>({
  name: { type: String, required: true },
  outbox: { type: [OutboxEntrySchema], default: [] },
  outboxPending: { type: Boolean, default: false, index: true },
});

describe('OutboxRelay (real FerretDB/MongoDB + RabbitMQ)', () => {
  let conn: Connection;
  let raw: amqplib.ChannelModel;
  let ch: amqplib.Channel;
  let bus: EventBus;
  const buses: EventBus[] = [];
  const relays: OutboxRelay[] = [];
  const proxies: TcpProxy[] = [];
  /** Every envelope the exchange routed, as a consumer connected straight to RabbitMQ received it. */
  const received: EventEnvelope[] = [];
  let collections = 0;

  /** A fresh collection per test, so that one test's pending documents never reach another's sweep. */
  function things(): Model<Thing> {
    collections++;
    return conn.model<Thing>(`Thing${collections}`, ThingSchema, `things_${collections}`);
  }

  function relayFor(
    model: Model<Thing>,
    extra: { bus?: EventBus; intervalMs?: number; batchSize?: number; payload?: (entry: OutboxEntry) => unknown } = {},
  ) {
    const logger = collectingLogger();
    const relay = new OutboxRelay({ model, bus, logger, ...extra });
    relays.push(relay);
    return { relay, logger };
  }

  /** The owner appending a fact's event: one single-document write, no lock. */
  async function append(model: Model<Thing>, id: Types.ObjectId, entry: OutboxEntry): Promise<void> {
    await model.updateOne({ _id: id }, { $push: { outbox: entry }, $set: { outboxPending: true } }).exec();
  }

  /** A bus whose publishes wait for `gate` (the owner writes meanwhile), then go out. */
  function gatedBus(gate: Promise<void>, publishing: () => void): EventBus {
    const gated = Object.create(bus) as EventBus;
    gated.publish = async <T>(type: string, data: T, opts?: Parameters<EventBus['publish']>[2]) => {
      publishing();
      await gate;
      return bus.publish(type, data, opts);
    };
    return gated;
  }

  const copies = (eventId: string) => received.filter((e) => e.eventId === eventId).length;
  const stored = async (model: Model<Thing>, id: Types.ObjectId) =>
    (await model.findById(id).lean<Thing>().exec()) as Thing;

  beforeAll(async () => {
    conn = await mongoose.createConnection(MONGO_URL, { dbName, serverSelectionTimeoutMS: 5000 }).asPromise();
    raw = await amqplib.connect(AMQP_URL);
    ch = await raw.createChannel();
    await ch.assertExchange(exchange, 'topic', { durable: true });
    await ch.assertQueue(tapQueue, { durable: false, exclusive: true });
    await ch.bindQueue(tapQueue, exchange, '#');
    await ch.consume(tapQueue, (m) => m && received.push(JSON.parse(m.content.toString())), { noAck: true });
    bus = new EventBus({ url: AMQP_URL, service: 'outbox-test', exchange, logger: collectingLogger() });
    buses.push(bus);
    await bus.start();
  });

  afterAll(async () => {
    await Promise.all(relays.map((r) => r.stop()));
    await Promise.all(buses.map((b) => b.close()));
    await Promise.all(proxies.map((p) => p.stop()));
    await ch.deleteQueue(tapQueue);
    await ch.deleteExchange(exchange);
    await raw.close();
    await conn.dropDatabase();
    await conn.close();
  });

  it('relay(id) publishes each pending entry once, in order, keeping eventId and occurredAt, and marks them published', async () => {
    const Things = things();
    const created = outboxEntry('test.thing.created', { name: 'lamp', price: { value: '12.50' } });
    created.occurredAt = new Date('2024-05-01T10:00:00.123Z');
    const renamed = outboxEntry('test.thing.renamed', { name: 'desk lamp' }, `renamed-${suite}`);
    const doc = await Things.create({ name: 'desk lamp', outbox: [created, renamed], outboxPending: true });
    const id = String(doc._id);
    const { relay } = relayFor(Things);

    expect(await relay.relay(id)).toBe(2);
    await waitFor('both events', () => copies(created.eventId) + copies(renamed.eventId) === 2);
    const sent = received.filter((e) => [created.eventId, renamed.eventId].includes(e.eventId));
    expect(sent).toEqual([
      {
        eventId: created.eventId,
        type: 'test.thing.created',
        occurredAt: '2024-05-01T10:00:00.123Z',
        data: { name: 'lamp', price: { value: '12.50' } },
      },
      {
        eventId: `renamed-${suite}`,
        type: 'test.thing.renamed',
        occurredAt: renamed.occurredAt.toISOString(),
        data: { name: 'desk lamp' },
      },
    ]);

    const after = await stored(Things, doc._id);
    expect(after.outboxPending).toBe(false);
    expect(after.outbox).toEqual([
      expect.objectContaining({
        eventId: created.eventId,
        occurredAt: created.occurredAt,
        publishedAt: expect.any(Date),
      }),
      expect.objectContaining({
        eventId: renamed.eventId,
        occurredAt: renamed.occurredAt,
        publishedAt: expect.any(Date),
      }),
    ]);
    expect(after.name).toBe('desk lamp'); // the rest of the document is left alone

    // Nothing left to relay: a second relay publishes nothing.
    expect(await relay.relay(id)).toBe(0);
    await sleep(200);
    expect(copies(created.eventId)).toBe(1);
    expect(copies(renamed.eventId)).toBe(1);
  });

  it("relay(id, created) publishes a just-inserted document's entries without reading it back, unless a relay of it is under way", async () => {
    const Things = things();
    const { relay } = relayFor(Things);
    const reads = jest.spyOn(Things, 'findById');
    try {
      const placed = outboxEntry('test.thing.created', { name: 'mug' });
      const doc = await Things.create({ name: 'mug', outbox: [placed], outboxPending: true });
      expect(await relay.relay(String(doc._id), [placed])).toBe(1);
      await waitFor('the event', () => copies(placed.eventId) === 1);
      expect(reads).not.toHaveBeenCalled(); // no read to publish, none to mark: one conditional update
      expect((await stored(Things, doc._id)).outboxPending).toBe(false);

      // A relay of the document already waiting (the sweep found it first): the write's own relay joins the
      // ordinary read, so the entry goes out once.
      const second = outboxEntry('test.thing.created', { name: 'jug' });
      const other = await Things.create({ name: 'jug', outbox: [second], outboxPending: true });
      reads.mockClear();
      const [bySweep, byWrite] = await Promise.all([
        relay.relay(String(other._id)),
        relay.relay(String(other._id), [second]),
      ]);
      expect([bySweep, byWrite]).toEqual([1, 1]); // one relay, joined: the entry counted by both callers
      await sleep(200);
      expect(copies(second.eventId)).toBe(1);
      expect(reads.mock.calls.length).toBeGreaterThanOrEqual(1); // read to publish (marked from that read)
    } finally {
      reads.mockRestore();
    }
  });

  it('relays an entry added later without re-sending the earlier ones', async () => {
    const Things = things();
    const first = outboxEntry('test.thing.created', { n: 1 });
    const doc = await Things.create({ name: 'chair', outbox: [first], outboxPending: true });
    const id = String(doc._id);
    const { relay } = relayFor(Things);
    expect(await relay.relay(id)).toBe(1);

    const second = outboxEntry('test.thing.renamed', { n: 2 });
    await append(Things, doc._id, second);
    expect((await stored(Things, doc._id)).outboxPending).toBe(true);
    expect(await relay.relay(id)).toBe(1);

    await waitFor('the later event', () => copies(second.eventId) === 1);
    await sleep(200);
    expect(copies(first.eventId)).toBe(1);
    expect(copies(second.eventId)).toBe(1);
    const after = await stored(Things, doc._id);
    expect(after.outboxPending).toBe(false);
    expect(after.outbox.map((e) => [e.eventId, e.publishedAt instanceof Date])).toEqual([
      [first.eventId, true],
      [second.eventId, true],
    ]);
  });

  it('publishes what `payload` makes of an entry (a secret kept sealed in the document), the entry left as stored', async () => {
    const Things = things();
    const entry = outboxEntry('test.thing.sealed', { sealed: 'c2VjcmV0' });
    const doc = await Things.create({ name: 'safe', outbox: [entry], outboxPending: true });
    const open = (e: OutboxEntry) => ({
      secret: Buffer.from((e.data as { sealed: string }).sealed, 'base64').toString(),
    });
    const { relay } = relayFor(Things, { payload: open });
    expect(await relay.relay(String(doc._id))).toBe(1);
    await waitFor('the opened event', () => copies(entry.eventId) === 1);
    expect(received.find((e) => e.eventId === entry.eventId)?.data).toEqual({ secret: 'secret' });
    expect((await stored(Things, doc._id)).outbox[0].data).toEqual({ sealed: 'c2VjcmV0' });
  });

  it('relay of an unknown document, or of one with nothing pending, publishes nothing', async () => {
    const Things = things();
    const { relay } = relayFor(Things);
    expect(await relay.relay(String(new Types.ObjectId()))).toBe(0);
    const doc = await Things.create({ name: 'quiet' });
    expect(await relay.relay(String(doc._id))).toBe(0);
    expect((await stored(Things, doc._id)).outbox).toEqual([]);
  });

  it("marking published does not overwrite the owner's write made while the event was being published", async () => {
    const Things = things();
    const first = outboxEntry('test.thing.created', { n: 1 });
    const doc = await Things.create({ name: 'table', outbox: [first], outboxPending: true });
    const id = String(doc._id);
    let release!: () => void;
    let publishing!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const started = new Promise<void>((r) => (publishing = r));
    const { relay } = relayFor(Things, { bus: gatedBus(gate, () => publishing()) });

    // The relay has read the outbox and is publishing when the owner renames the thing and appends an event.
    const relaying = relay.relay(id);
    await started;
    const later = outboxEntry('test.thing.renamed', { n: 2 });
    await Things.updateOne(
      { _id: doc._id },
      { $set: { name: 'big table', outboxPending: true }, $push: { outbox: later } },
    ).exec();
    release();
    expect(await relaying).toBe(1);

    let after = await stored(Things, doc._id);
    expect(after.name).toBe('big table');
    expect(after.outbox.map((e) => [e.eventId, e.publishedAt instanceof Date])).toEqual([
      [first.eventId, true],
      [later.eventId, false],
    ]);
    expect(after.outboxPending).toBe(true); // the owner's entry is still to go out

    expect(await relay.relay(id)).toBe(1);
    await waitFor('the later event', () => copies(later.eventId) === 1);
    after = await stored(Things, doc._id);
    expect(after.outboxPending).toBe(false);
    expect(copies(first.eventId)).toBe(1);
  });

  it('marks an entry published where it is now, when the owner rewrote the outbox meanwhile', async () => {
    const Things = things();
    const old = { ...outboxEntry('test.thing.created', { n: 0 }), publishedAt: new Date() };
    const pending = outboxEntry('test.thing.renamed', { n: 1 });
    const doc = await Things.create({ name: 'shelf', outbox: [old, pending], outboxPending: true });
    let release!: () => void;
    let publishing!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const started = new Promise<void>((r) => (publishing = r));
    const { relay } = relayFor(Things, { bus: gatedBus(gate, () => publishing()) });

    const relaying = relay.relay(String(doc._id));
    await started;
    // The owner keeps only what is still to go, plus a new entry: the pending one moves from position 1 to 0.
    const newer = outboxEntry('test.thing.renamed', { n: 2 });
    await Things.updateOne({ _id: doc._id }, { $set: { outbox: [pending, newer], outboxPending: true } }).exec();
    release();
    expect(await relaying).toBe(1);

    const after = await stored(Things, doc._id);
    expect(after.outbox.map((e) => [e.eventId, e.publishedAt instanceof Date])).toEqual([
      [pending.eventId, true],
      [newer.eventId, false],
    ]);
    expect(after.outboxPending).toBe(true);
  });

  it("overlapping relays of one document (a write's own and the sweep's) publish each entry once", async () => {
    const Things = things();
    const { relay } = relayFor(Things);
    const docs = [];
    for (let n = 0; n < 3; n++) {
      const entries = [outboxEntry('test.thing.created', { n }), outboxEntry('test.thing.renamed', { n })];
      docs.push({ entries, doc: await Things.create({ name: `t${n}`, outbox: entries, outboxPending: true }) });
    }
    const id = String(docs[0].doc._id);
    const [first, second, swept] = await Promise.all([relay.relay(id), relay.relay(id), relay.sweep()]);
    expect([first, second]).toEqual([2, 2]); // the second joined the first: neither had read the document yet
    expect(swept).toBe(4); // the other two documents; the first one's entries were already published

    const all = docs.flatMap((d) => d.entries);
    await waitFor('every event', () => all.every((e) => copies(e.eventId) >= 1));
    await sleep(200);
    expect(all.map((e) => copies(e.eventId))).toEqual([1, 1, 1, 1, 1, 1]);
    expect(await Things.countDocuments({ outboxPending: true })).toBe(0);

    // A relay asked for while one runs still sees an entry written in between.
    const later = outboxEntry('test.thing.renamed', { n: 'later' });
    const running = relay.relay(id);
    await append(Things, docs[0].doc._id, later);
    const after = relay.relay(id);
    expect((await running) + (await after)).toBe(1);
    await waitFor('the later event', () => copies(later.eventId) === 1);
    expect((await stored(Things, docs[0].doc._id)).outboxPending).toBe(false);
  });

  it('sweep() relays every pending document batch by batch, skips published ones, and runs once at a time', async () => {
    const Things = things();
    const entries = [0, 1, 2].map((n) => outboxEntry('test.thing.created', { n }));
    for (const [n, e] of entries.entries()) await Things.create({ name: `t${n}`, outbox: [e], outboxPending: true });
    const done = { ...outboxEntry('test.thing.created', { n: 'done' }), publishedAt: new Date() };
    await Things.create({ name: 'done', outbox: [done], outboxPending: false });
    const { relay } = relayFor(Things, { batchSize: 2 });

    const sweep = relay.sweep();
    expect(relay.sweep()).toBe(sweep); // a sweep asked for while one runs joins it
    expect(await sweep).toBe(2);
    expect(await relay.sweep()).toBe(1);
    expect(await relay.sweep()).toBe(0);

    await waitFor('all three events', () => entries.every((e) => copies(e.eventId) === 1));
    await sleep(200);
    expect(entries.map((e) => copies(e.eventId))).toEqual([1, 1, 1]);
    expect(copies(done.eventId)).toBe(0);
    expect(await Things.countDocuments({ outboxPending: true })).toBe(0);
  });

  it('with the broker unreachable, relay rejects and the entry stays pending; once it is back the sweep delivers it exactly once', async () => {
    const { proxy, url } = await TcpProxy.inFrontOf(AMQP_URL, 5672);
    proxies.push(proxy);
    const busLog = collectingLogger();
    const flaky = new EventBus({
      url,
      service: 'outbox-test',
      exchange,
      publishTimeoutMs: 500,
      reconnectDelayMs: 100,
      connectTimeoutMs: 5000,
      logger: busLog,
    });
    buses.push(flaky);
    await flaky.start();
    const connected = () => busLog.entries.filter((l) => l.msg === 'event bus connected').length;
    expect(connected()).toBe(1);

    const Things = things();
    const { relay, logger } = relayFor(Things, { bus: flaky, intervalMs: 100 });
    const entry = outboxEntry('test.thing.created', { n: 'during the outage' });

    await proxy.close(); // the broker is gone: the connection is cut and new ones are refused
    const doc = await Things.create({ name: 'outage', outbox: [entry], outboxPending: true });
    const id = String(doc._id);
    await expect(relay.relay(id)).rejects.toThrow(/could not publish test\.thing\.created .*timeout/);
    let after = await stored(Things, doc._id);
    expect(after.outboxPending).toBe(true);
    expect(after.outbox[0].publishedAt).toBeNull();

    // The periodic sweep keeps failing quietly: one warning, not one per sweep.
    relay.start();
    await waitFor('the sweep to fail', () => logger.entries.some((l) => l.msg?.startsWith('outbox relay failed')));
    await relay.stop(); // waits for the running sweep: no publish of ours is in flight past this point
    expect(logger.entries.filter((l) => l.level === 'warn')).toHaveLength(1);
    expect(logger.entries[0].obj).toMatchObject({ collection: Things.collection.collectionName, id });
    const failedPublishes = busLog.entries.filter((l) => l.msg === 'event not published').length;
    await sleep(300);
    expect(busLog.entries.filter((l) => l.msg === 'event not published')).toHaveLength(failedPublishes); // stopped
    expect(copies(entry.eventId)).toBe(0);
    expect((await stored(Things, doc._id)).outboxPending).toBe(true);

    await proxy.open();
    await waitFor('the bus to reconnect', () => connected() === 2);
    relay.start();
    await waitFor('the event to arrive', () => copies(entry.eventId) === 1);
    await waitFor('the entry to be marked published', async () => !(await stored(Things, doc._id)).outboxPending);
    await relay.stop();
    await sleep(300);

    expect(copies(entry.eventId)).toBe(1);
    after = await stored(Things, doc._id);
    expect(after.outbox[0]).toMatchObject({ eventId: entry.eventId, publishedAt: expect.any(Date) });
    expect(received.find((e) => e.eventId === entry.eventId)).toMatchObject({
      type: 'test.thing.created',
      occurredAt: entry.occurredAt.toISOString(),
      data: { n: 'during the outage' },
    });
    expect(logger.entries.some((l) => l.msg === 'outbox relay recovered')).toBe(true);
  });
});
