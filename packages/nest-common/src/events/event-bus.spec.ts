import { randomUUID } from 'node:crypto';
import * as amqplib from 'amqplib';
import type { EventEnvelope } from '@shop/contracts';
import { DeadLetters } from './dead-letters';
import { EventBus } from './event-bus';
import { consumerTopology, type EventBusLogger, type EventBusOptions } from './event-bus.types';
import { InMemoryProcessedEventStore } from './processed-event.store';
import { waitFor } from '../testing/wait-for';

const AMQP_URL = process.env.TEST_AMQP_URL ?? process.env.RABBITMQ_URL ?? 'amqp://guest:guest@127.0.0.1:5672';
const suite = randomUUID().slice(0, 8);
const exchange = `test.events.${suite}`;
const queueName = (name: string) => `test.${suite}.${name}`;

interface LogEntry {
  level: 'info' | 'warn' | 'error';
  obj: Record<string, unknown>;
  msg?: string;
}

function collectingLogger(entries: LogEntry[] = []): EventBusLogger & { entries: LogEntry[] } {
  const at = (level: LogEntry['level']) => (obj: object, msg?: string) =>
    entries.push({ level, obj: obj as Record<string, unknown>, msg });
  return { entries, info: at('info'), warn: at('warn'), error: at('error') };
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

describe('EventBus (real RabbitMQ)', () => {
  let raw: amqplib.ChannelModel;
  let ch: amqplib.Channel;
  const buses: EventBus[] = [];
  const usedQueues = new Set<string>();

  function bus(service: string, extra: Partial<EventBusOptions> = {}): EventBus {
    const b = new EventBus({
      url: AMQP_URL,
      service,
      exchange,
      retryDelayMs: 50,
      reconnectDelayMs: 100,
      logger: collectingLogger(),
      store: new InMemoryProcessedEventStore(),
      ...extra,
    });
    buses.push(b);
    return b;
  }

  function queue(name: string): string {
    const q = queueName(name);
    const t = consumerTopology(q);
    [t.queue, t.retryQueue, t.dlq].forEach((x) => usedQueues.add(x));
    return q;
  }

  async function started(service: string, extra: Partial<EventBusOptions> = {}): Promise<EventBus> {
    const b = bus(service, extra);
    await b.start();
    return b;
  }

  /** Ready messages in a queue (unacked ones are not counted, so close consumers first when that matters). */
  async function depth(q: string): Promise<number> {
    return (await ch.checkQueue(q)).messageCount;
  }

  async function drain(q: string): Promise<amqplib.GetMessage[]> {
    const out: amqplib.GetMessage[] = [];
    for (;;) {
      const m = await ch.get(q, { noAck: true });
      if (!m) return out;
      out.push(m);
    }
  }

  beforeAll(async () => {
    raw = await amqplib.connect(AMQP_URL);
    ch = await raw.createChannel();
    await ch.assertExchange(exchange, 'topic', { durable: true });
  });

  afterAll(async () => {
    await Promise.all(buses.map((b) => b.close()));
    for (const q of usedQueues) await ch.deleteQueue(q);
    for (const q of usedQueues) {
      if (q.endsWith('.dlq')) await ch.deleteExchange(q.replace(/\.dlq$/, '.dlx'));
    }
    await ch.deleteExchange(exchange);
    await raw.close();
  });

  it('publish resolves with the confirmed envelope and routes by type only to bound queues', async () => {
    const tap = queue('tap');
    await ch.assertQueue(tap, { durable: true });
    await ch.bindQueue(tap, exchange, '#');

    const received: EventEnvelope[] = [];
    const consumer = await started('stock');
    const q = queue('stock');
    await consumer.subscribe({ 'orders.order.placed': async (e) => void received.push(e) }, { queue: q });

    const publisher = await started('orders');
    const placed = await publisher.publish('orders.order.placed', { orderId: 'o-1' }, { requestId: 'req-1' });
    const cancelled = await publisher.publish('orders.order.cancelled', { orderId: 'o-1' });

    expect(placed.eventId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(new Date(placed.occurredAt).toISOString()).toBe(placed.occurredAt);
    expect(placed).toMatchObject({ type: 'orders.order.placed', requestId: 'req-1', data: { orderId: 'o-1' } });
    expect(cancelled.eventId).not.toBe(placed.eventId);
    expect(cancelled).not.toHaveProperty('requestId');

    await waitFor('both events in the tap queue', async () => (await depth(tap)) === 2);
    const [first, second] = await drain(tap);
    expect(JSON.parse(first.content.toString())).toEqual(placed);
    expect(first.fields.routingKey).toBe('orders.order.placed');
    expect(first.properties).toMatchObject({
      messageId: placed.eventId,
      deliveryMode: 2,
      contentType: 'application/json',
      appId: 'orders',
      headers: { 'x-request-id': 'req-1' },
    });
    expect(JSON.parse(second.content.toString())).toEqual(cancelled);

    await waitFor('the bound event', () => received.length === 1);
    await sleep(200);
    expect(received.map((e) => e.eventId)).toEqual([placed.eventId]); // not the unbound type
    await consumer.close();
    expect(await depth(q)).toBe(0);
    expect(await depth(`${q}.dlq`)).toBe(0);
  });

  it('notify() never throws: a notification that cannot be published is logged', async () => {
    const logger = collectingLogger();
    const b = await started('notifier', { logger });
    await b.close();
    expect(() => b.notify('demo.thing.happened', { id: 1 })).not.toThrow();
    await waitFor('the warning', () => logger.entries.some((e) => e.msg === 'could not publish a notification'));
    const entry = logger.entries.find((e) => e.msg === 'could not publish a notification');
    expect(entry?.obj).toEqual(expect.objectContaining({ type: 'demo.thing.happened' }));
  });

  it('fans one event out to every consuming service, each exactly once, with the request id logged', async () => {
    const catalogLog = collectingLogger();
    const seen: Record<string, EventEnvelope[]> = { catalog: [], cart: [] };
    const catalog = await started('catalog', { logger: catalogLog });
    const cart = await started('cart');
    await catalog.subscribe(
      { 'orders.order.placed': async (e) => void seen.catalog.push(e) },
      { queue: queue('catalog') },
    );
    await cart.subscribe({ 'orders.order.placed': async (e) => void seen.cart.push(e) }, { queue: queue('cart') });

    const publisher = await started('orders');
    const event = await publisher.publish('orders.order.placed', { orderId: 'o-2' }, { requestId: 'req-fan' });

    await waitFor('both services', () => seen.catalog.length >= 1 && seen.cart.length >= 1);
    await sleep(300);
    expect(seen.catalog).toEqual([event]);
    expect(seen.cart).toEqual([event]);
    const handled = catalogLog.entries.find((l) => l.msg === 'event handled');
    expect(handled?.obj).toMatchObject({
      eventId: event.eventId,
      type: 'orders.order.placed',
      requestId: 'req-fan',
      attempt: 1,
    });
  });

  it('retries a failing handler after a delay and acks once it succeeds', async () => {
    const attempts: number[] = [];
    const times: number[] = [];
    const consumer = await started('retry-ok', { maxAttempts: 5, retryDelayMs: 100 });
    const q = queue('retry-ok');
    await consumer.subscribe(
      {
        'orders.order.placed': async (_e, ctx) => {
          attempts.push(ctx.attempt);
          times.push(Date.now());
          if (attempts.length <= 2) throw new Error(`transient failure ${attempts.length}`);
        },
      },
      { queue: q },
    );
    const publisher = await started('orders');
    await publisher.publish('orders.order.placed', { orderId: 'o-3' });

    await waitFor('the third attempt', () => attempts.length === 3);
    await sleep(300);
    expect(attempts).toEqual([1, 2, 3]);
    expect(times[1] - times[0]).toBeGreaterThanOrEqual(90);
    expect(times[2] - times[1]).toBeGreaterThanOrEqual(90);
    await consumer.close();
    expect(await depth(q)).toBe(0);
    expect(await depth(`${q}.retry`)).toBe(0);
    expect(await depth(`${q}.dlq`)).toBe(0);
  });

  it('dead-letters an always-failing handler after maxAttempts with the error in the headers, leaving nothing unacked', async () => {
    let calls = 0;
    const log = collectingLogger();
    const consumer = await started('always-fails', { maxAttempts: 3, logger: log });
    const q = queue('always-fails');
    await consumer.subscribe(
      {
        'orders.order.placed': async () => {
          calls++;
          throw new Error('stock service exploded');
        },
      },
      { queue: q },
    );
    const publisher = await started('orders');
    const event = await publisher.publish('orders.order.placed', { orderId: 'o-4' }, { requestId: 'req-dlq' });

    await waitFor('the dead-lettered message', async () => (await depth(`${q}.dlq`)) === 1);
    await sleep(300);
    expect(calls).toBe(3);
    await consumer.close(); // anything still unacked would now be back in the queue
    expect(await depth(q)).toBe(0);
    expect(await depth(`${q}.retry`)).toBe(0);

    const [dead] = await drain(`${q}.dlq`);
    expect(JSON.parse(dead.content.toString())).toEqual(event);
    expect(dead.properties.messageId).toBe(event.eventId);
    expect(dead.properties.deliveryMode).toBe(2);
    expect(dead.properties.headers).toMatchObject({
      'x-attempts': 3,
      'x-error': 'stock service exploded',
      'x-consumer': q,
      'x-request-id': 'req-dlq',
    });
    expect(String(dead.properties.headers?.['x-error-stack'])).toContain('stock service exploded');
    const failure = log.entries.find((l) => l.level === 'error');
    expect(failure?.obj).toMatchObject({ eventId: event.eventId, type: 'orders.order.placed', requestId: 'req-dlq' });
  });

  it('lets an operator list dead letters and replay them once the cause is fixed', async () => {
    let broken = true;
    const handled: string[] = [];
    const q = queue('replayable');
    const consumer = await started('replayable', { maxAttempts: 2 });
    await consumer.subscribe(
      {
        'catalog.product.changed': async (e) => {
          if (broken) throw new Error('search index offline');
          handled.push(e.eventId);
        },
      },
      { queue: q },
    );
    const publisher = await started('catalog');
    const first = await publisher.publish('catalog.product.changed', { productId: 'p1' });
    const second = await publisher.publish('catalog.product.changed', { productId: 'p2' });
    await waitFor('both dead-lettered', async () => (await depth(`${q}.dlq`)) === 2);

    const dlq = await DeadLetters.open(AMQP_URL, q);
    try {
      const listed = await dlq.list();
      expect(listed.map((d) => d.eventId)).toEqual([first.eventId, second.eventId]);
      expect(listed[0]).toMatchObject({ type: 'catalog.product.changed', attempts: 2, error: 'search index offline' });
      expect(await depth(`${q}.dlq`)).toBe(2); // listing takes nothing away

      broken = false;
      expect(await dlq.replay()).toBe(2);
      await waitFor('both handled after the replay', () => handled.length === 2);
      expect(handled).toEqual([first.eventId, second.eventId]);
      expect(await depth(`${q}.dlq`)).toBe(0);
      expect(await dlq.replay()).toBe(0);
    } finally {
      await dlq.close();
    }
  });

  it('refuses to open the dead letters of a queue that has none', async () => {
    await expect(DeadLetters.open(AMQP_URL, queueName('never-declared'))).rejects.toThrow(/no dead-letter queue/);
  });

  it('sends invalid JSON and events without a handler straight to the DLQ', async () => {
    let calls = 0;
    const consumer = await started('poison');
    const q = queue('poison');
    await consumer.subscribe({ 'orders.order.placed': async () => void calls++ }, { queue: q });
    // A stale binding (e.g. a handler that was removed) delivers a type nobody handles.
    await ch.bindQueue(q, exchange, 'orders.order.archived');

    ch.publish(exchange, 'orders.order.placed', Buffer.from('{not json'), { persistent: true, messageId: 'bad-1' });
    const publisher = await started('orders');
    const orphan = await publisher.publish('orders.order.archived', { orderId: 'o-5' });

    await waitFor('two dead letters', async () => (await depth(`${q}.dlq`)) === 2);
    await consumer.close();
    expect(calls).toBe(0);
    expect(await depth(q)).toBe(0);
    const dead = await drain(`${q}.dlq`);
    const byId = Object.fromEntries(dead.map((m) => [m.properties.messageId, m]));
    expect(String(byId['bad-1'].properties.headers?.['x-error'])).toMatch(/^invalid message/);
    expect(byId['bad-1'].content.toString()).toBe('{not json');
    expect(byId[orphan.eventId].properties.headers).toMatchObject({
      'x-attempts': 0,
      'x-error': 'no handler for event type "orders.order.archived"',
    });
  });

  it('unbinds the keys a queue no longer handles (`retired`), so their events stop reaching it', async () => {
    const q = queue('retired');
    const before = await started('retired');
    await before.subscribe(
      { 'orders.order.placed': async () => undefined, 'identity.user.deleted': async () => undefined },
      { queue: q },
    );
    await before.close();
    const got: string[] = [];
    const after = await started('retired');
    await after.subscribe(
      { 'identity.user.deleted': async (e) => void got.push(e.eventId) },
      { queue: q, retired: ['orders.order.placed'] },
    );
    const publisher = await started('orders');
    await publisher.publish('orders.order.placed', { orderId: 'o-9' });
    const deleted = await publisher.publish('identity.user.deleted', { userId: 'u-9' });
    await waitFor('the handled event', () => got.length === 1);
    await after.close();
    expect(got).toEqual([deleted.eventId]);
    expect(await depth(q)).toBe(0);
    expect(await depth(`${q}.dlq`)).toBe(0); // the retired event never reached the queue
  });

  it('loses nothing published while the consumer is down: a new consumer on the same queue gets it', async () => {
    const q = queue('restart');
    const first = await started('restart');
    await first.subscribe({ 'orders.order.placed': async () => undefined }, { queue: q });
    await first.close();

    const publisher = await started('orders');
    const sent = [];
    for (let i = 0; i < 3; i++) sent.push(await publisher.publish('orders.order.placed', { n: i }));
    expect(await depth(q)).toBe(3);

    const got: string[] = [];
    const second = await started('restart');
    await second.subscribe({ 'orders.order.placed': async (e) => void got.push(e.eventId) }, { queue: q });
    await waitFor('all three events', () => got.length === 3);
    expect(got.sort()).toEqual(sent.map((e) => e.eventId).sort());
  });

  it('reconnects after the connection drops: consumers resume and publish waits for the new connection', async () => {
    const q = queue('reconnect');
    const got: unknown[] = [];
    const consumer = await started('reconnect');
    await consumer.subscribe({ 'orders.order.placed': async (e) => void got.push(e.data) }, { queue: q });
    const publisher = await started('orders');

    // What a broker restart looks like to the client: the connection closes under it.
    await connectionOf(consumer).close();
    await connectionOf(publisher).close();
    await publisher.publish('orders.order.placed', { after: 'drop' }); // queued, sent once reconnected

    await waitFor('the event after reconnecting', () => got.length === 1);
    expect(got).toEqual([{ after: 'drop' }]);
  });

  it('publish rejects instead of hanging when it cannot publish in time', async () => {
    const publisher = await started('orders', { publishTimeoutMs: 300, reconnectDelayMs: 5000 });
    await connectionOf(publisher).close();
    const t0 = Date.now();
    await expect(publisher.publish('orders.order.placed', {})).rejects.toThrow(
      /could not publish orders\.order\.placed .*timeout/,
    );
    expect(Date.now() - t0).toBeLessThan(2000);
  });

  it('start() fails with a clear error when no broker answers', async () => {
    const b = bus('nowhere', { url: 'amqp://guest:secret@127.0.0.1:1', connectTimeoutMs: 500 });
    await expect(b.start()).rejects.toThrow(
      /cannot connect to RabbitMQ at amqp:\/\/guest:\*\*\*@127\.0\.0\.1:1.* within 500 ms/,
    );
    await expect(b.publish('x.y.z', {})).rejects.toThrow(/not started/);
  });
});

/** The live amqplib connection under a bus (test-only peek). */
function connectionOf(bus: EventBus): amqplib.ChannelModel {
  const manager = (bus as unknown as { manager?: { connection?: amqplib.ChannelModel } }).manager;
  if (!manager?.connection) throw new Error('bus is not connected');
  return manager.connection;
}
