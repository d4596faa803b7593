import { randomUUID } from 'node:crypto';
import * as amqplib from 'amqplib';
import mongoose, { type Connection } from 'mongoose';
import { EventBus } from './event-bus';
import { consumerTopology, type EventBusLogger, type EventBusOptions } from './event-bus.types';
import { MongoProcessedEventStore, PROCESSED_EVENTS_COLLECTION } from './mongo-processed-event.store';
import { waitFor } from '../testing/wait-for';

const AMQP_URL = process.env.TEST_AMQP_URL ?? process.env.RABBITMQ_URL ?? 'amqp://guest:guest@127.0.0.1:5672';
const MONGO_URL = process.env.TEST_MONGO_URL ?? 'mongodb://127.0.0.1:27018';
const suite = randomUUID().slice(0, 8);
const dbName = `test_events_${suite}`;
const exchange = `test.events.${suite}`;
const queue = `test.${suite}.stock`;

interface LogEntry {
  obj: Record<string, unknown>;
  msg?: string;
}

function collectingLogger(entries: LogEntry[] = []): EventBusLogger & { entries: LogEntry[] } {
  const push = (obj: object, msg?: string) => void entries.push({ obj: obj as Record<string, unknown>, msg });
  return { entries, info: push, warn: push, error: push };
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

function openDb(): Promise<Connection> {
  return mongoose.createConnection(MONGO_URL, { dbName, serverSelectionTimeoutMS: 5000 }).asPromise();
}

describe('MongoProcessedEventStore (real FerretDB/MongoDB)', () => {
  let conn: Connection;
  let store: MongoProcessedEventStore;

  beforeAll(async () => {
    conn = await openDb();
    store = new MongoProcessedEventStore(conn);
    await store.init();
  });

  afterAll(async () => {
    await conn.dropDatabase();
    await conn.close();
  });

  it('has a unique index on {consumer, eventId}', async () => {
    const indexes = await conn.collection(PROCESSED_EVENTS_COLLECTION).indexes();
    expect(indexes).toContainEqual(expect.objectContaining({ key: { consumer: 1, eventId: 1 }, unique: true }));
  });

  it('records an event exactly once under 20 concurrent markProcessed calls, per consumer', async () => {
    const eventId = randomUUID();
    expect(await store.has('stock', eventId)).toBe(false);
    const results = await Promise.all(
      Array.from({ length: 20 }, () => store.markProcessed('stock', eventId, 'orders.order.placed')),
    );
    expect(results.filter(Boolean)).toHaveLength(1);
    expect(await store.has('stock', eventId)).toBe(true);
    expect(await store.has('cart', eventId)).toBe(false); // another consumer still has to handle it
    expect(await conn.collection(PROCESSED_EVENTS_COLLECTION).countDocuments({ eventId })).toBe(1);
  });
});

describe('EventBus idempotency with the Mongo store (real RabbitMQ + FerretDB)', () => {
  let raw: amqplib.ChannelModel;
  let ch: amqplib.Channel;
  const conns: Connection[] = [];
  const buses: EventBus[] = [];

  async function consumerBus(
    handled: string[],
    extra: Partial<EventBusOptions> & { onHandle?: (bus: EventBus) => Promise<void> } = {},
  ): Promise<EventBus> {
    const conn = await openDb();
    conns.push(conn);
    const { onHandle, ...options } = extra;
    const bus: EventBus = new EventBus({
      url: AMQP_URL,
      service: 'stock',
      exchange,
      retryDelayMs: 50,
      reconnectDelayMs: 100,
      logger: collectingLogger(),
      store: new MongoProcessedEventStore(conn),
      ...options,
    });
    buses.push(bus);
    await bus.start();
    await bus.subscribe(
      {
        'orders.order.placed': async (e) => {
          handled.push(e.eventId);
          await onHandle?.(bus);
        },
      },
      { queue },
    );
    return bus;
  }

  async function publisherBus(): Promise<EventBus> {
    const bus = new EventBus({ url: AMQP_URL, service: 'orders', exchange, logger: collectingLogger() });
    buses.push(bus);
    await bus.start();
    return bus;
  }

  beforeAll(async () => {
    raw = await amqplib.connect(AMQP_URL);
    ch = await raw.createChannel();
  });

  afterAll(async () => {
    await Promise.all(buses.map((b) => b.close()));
    const t = consumerTopology(queue);
    for (const q of [t.queue, t.retryQueue, t.dlq]) await ch.deleteQueue(q);
    await ch.deleteExchange(t.dlx);
    await ch.deleteExchange(exchange);
    await raw.close();
    if (conns[0]) await conns[0].dropDatabase();
    await Promise.all(conns.map((c) => c.close()));
  });

  it('handles an event published twice with the same eventId once (one after the other, and together)', async () => {
    const handled: string[] = [];
    // A slow handler, so that the two copies published together are in flight at the same time.
    const consumer = await consumerBus(handled, { onHandle: () => sleep(150) });
    const publisher = await publisherBus();

    const sequential = randomUUID();
    await publisher.publish('orders.order.placed', { orderId: 'o-1' }, { eventId: sequential });
    await waitFor('the first copy', () => handled.length === 1);
    await publisher.publish('orders.order.placed', { orderId: 'o-1' }, { eventId: sequential });

    const together = randomUUID();
    await Promise.all([
      publisher.publish('orders.order.placed', { orderId: 'o-2' }, { eventId: together }),
      publisher.publish('orders.order.placed', { orderId: 'o-2' }, { eventId: together }),
    ]);
    const control = await publisher.publish('orders.order.placed', { orderId: 'o-3' });

    await waitFor('the other events', () => handled.includes(together) && handled.includes(control.eventId));
    await sleep(300);
    await consumer.close();
    expect(handled.sort()).toEqual([sequential, together, control.eventId].sort());
    expect(await ch.checkQueue(queue)).toMatchObject({ messageCount: 0 });
    expect(await ch.checkQueue(`${queue}.dlq`)).toMatchObject({ messageCount: 0 });
  });

  it('a consumer restarted with a fresh store connection still skips what was already processed', async () => {
    const handledBefore: string[] = [];
    const first = await consumerBus(handledBefore);
    const publisher = await publisherBus();
    const event = await publisher.publish('orders.order.placed', { orderId: 'o-4' });
    await waitFor('the event', () => handledBefore.length === 1);
    await first.close();

    await publisher.publish('orders.order.placed', { orderId: 'o-4' }, { eventId: event.eventId });
    const handledAfter: string[] = [];
    const log = collectingLogger();
    const second = await consumerBus(handledAfter, { logger: log });
    await waitFor('the duplicate to be acked', () =>
      log.entries.some((l) => l.msg?.startsWith('event already processed') && l.obj.eventId === event.eventId),
    );
    await second.close();
    expect(handledAfter).toEqual([]);
    expect(await ch.checkQueue(queue)).toMatchObject({ messageCount: 0 });
  });

  it('a redelivery after the connection dropped before the ack does not run the handler again', async () => {
    const handled: string[] = [];
    const log = collectingLogger();
    let dropped = false;
    await consumerBus(handled, {
      logger: log,
      // The handler finishes, then the connection dies before the bus can ack: a broker restart.
      onHandle: async (bus) => {
        if (dropped) return;
        dropped = true;
        await (bus as unknown as { manager: { connection: amqplib.ChannelModel } }).manager.connection.close();
      },
    });
    const publisher = await publisherBus();
    const event = await publisher.publish('orders.order.placed', { orderId: 'o-5' });

    await waitFor('the redelivery to be acked', () =>
      log.entries.some((l) => l.msg?.startsWith('event already processed') && l.obj.eventId === event.eventId),
    );
    const skipped = log.entries.find((l) => l.msg?.startsWith('event already processed'));
    expect(skipped?.obj).toMatchObject({ redelivered: true });
    expect(handled).toEqual([event.eventId]);
  });
});
