import { randomUUID } from 'node:crypto';
import { AmqpConnectionManagerClass, type AmqpConnectionManager, type ChannelWrapper } from 'amqp-connection-manager';
import type { ConfirmChannel } from 'amqplib';
import pino from 'pino';
import { EVENTS_EXCHANGE, type EventEnvelope } from '@shop/contracts';
import { currentRequestId } from '../logging/request-context';
import type { MessagingMetrics } from '../metrics/messaging-metrics';
import { BroadcastListener, type BroadcastHandlers, type BroadcastOptions } from './broadcast-listener';
import { EventConsumer, errorText } from './event-consumer';
import {
  EVENT_HEADERS,
  type EventBusLogger,
  type EventBusOptions,
  type EventHandlers,
  type EventPublishOptions,
  type EventSubscribeOptions,
} from './event-bus.types';

type ResolvedOptions = Required<Omit<EventBusOptions, 'store' | 'metrics'>> &
  Pick<EventBusOptions, 'store' | 'metrics'>;

/**
 * Fan-out events between services over one RabbitMQ topic exchange (see docs/messaging-bus.md).
 *
 * - publish(): persistent message, routing key = event type, resolves after the broker's confirm.
 * - subscribe(): one durable queue per consuming service, manual acks, retries through a TTL retry
 *   queue, then a per-consumer dead-letter queue; redeliveries deduped through a ProcessedEventStore.
 *
 * Reconnects by itself (amqp-connection-manager) when the broker restarts; consumers and topology
 * are set up again on every new channel.
 */
export class EventBus {
  private readonly options: ResolvedOptions;
  private readonly logger: EventBusLogger;
  private manager?: AmqpConnectionManager;
  private publisher?: ChannelWrapper;
  private readonly consumers: Array<EventConsumer | BroadcastListener> = [];
  private starting?: Promise<void>;
  private closed = false;

  constructor(options: EventBusOptions) {
    if (!options.url) throw new Error('EventBus: url is required (e.g. RABBITMQ_URL)');
    if (!options.service) throw new Error('EventBus: service is required');
    this.logger = options.logger ?? pino({ name: 'event-bus', base: { service: options.service } });
    this.options = {
      exchange: EVENTS_EXCHANGE,
      queuePrefix: '',
      prefetch: 10,
      maxAttempts: 5,
      retryDelayMs: 5000,
      connectTimeoutMs: 10_000,
      publishTimeoutMs: 5000,
      reconnectDelayMs: 1000,
      heartbeatSeconds: 5,
      drainTimeoutMs: 10_000,
      ...stripUndefined(options),
      url: options.url,
      service: options.service,
      logger: this.logger,
    };
    if (this.options.maxAttempts < 1) throw new Error('EventBus: maxAttempts must be at least 1');
  }

  get service(): string {
    return this.options.service;
  }

  get exchange(): string {
    return this.options.exchange;
  }

  /** The metrics this bus records into, for the outbox relay built on it. */
  get metrics(): MessagingMetrics | undefined {
    return this.options.metrics;
  }

  /** True while the broker connection is up (a hung broker is noticed by missed heartbeats). */
  isConnected(): boolean {
    return !this.closed && (this.manager?.isConnected() ?? false);
  }

  /** Connects and declares the exchange. Rejects after connectTimeoutMs without a broker. */
  start(): Promise<void> {
    if (this.closed) return Promise.reject(new Error('EventBus: closed'));
    this.starting ??= this.connect().catch((err: unknown) => {
      this.starting = undefined;
      throw err;
    });
    return this.starting;
  }

  private async connect(): Promise<void> {
    const { url, service, connectTimeoutMs, reconnectDelayMs, heartbeatSeconds, publishTimeoutMs, exchange } =
      this.options;
    const where = redactUrl(url);
    const manager = new AmqpConnectionManagerClass([url], {
      heartbeatIntervalInSeconds: heartbeatSeconds,
      reconnectTimeInSeconds: reconnectDelayMs / 1000,
    });
    manager.on('connect', () => this.logger.info({ broker: where }, 'event bus connected'));
    manager.on('disconnect', ({ err }) =>
      this.logger.warn({ broker: where, err }, 'event bus disconnected: reconnecting'),
    );
    manager.on('connectFailed', ({ err }) =>
      this.logger.warn({ broker: where, err }, 'event bus could not connect: retrying'),
    );
    manager.on('blocked', ({ reason }) => this.logger.warn({ broker: where, reason }, 'broker blocked publishing'));
    manager.on('unblocked', () => this.logger.info({ broker: where }, 'broker unblocked publishing'));
    try {
      await manager.connect({ timeout: connectTimeoutMs });
      const publisher = manager.createChannel({
        name: `events-publisher:${service}`,
        confirm: true,
        publishTimeout: publishTimeoutMs,
      });
      publisher.on('error', (err: Error) => this.logger.error({ err }, 'event publisher channel setup failed'));
      await publisher.addSetup((channel: ConfirmChannel) =>
        channel.assertExchange(exchange, 'topic', { durable: true }),
      );
      this.manager = manager;
      this.publisher = publisher;
    } catch (err) {
      await manager.close().catch(() => undefined);
      throw new Error(
        `EventBus(${service}): cannot connect to RabbitMQ at ${where} within ${connectTimeoutMs} ms: ${errorText(err)}`,
      );
    }
  }

  /**
   * Publishes a notification without waiting: for facts whose record is already stored (a user, a product),
   * so a broker blip costs the notification, not the request. A failed publish is logged. Events whose loss
   * costs money go through an outbox instead.
   */
  notify<T>(type: string, data: T): void {
    this.publish(type, data).catch((err: unknown) =>
      this.logger.warn({ type, err: errorText(err) }, 'could not publish a notification'),
    );
  }

  /**
   * Publishes a fact. Resolves with the envelope once the broker has confirmed it (persisted to the
   * durable queues bound to `type`); rejects after publishTimeoutMs, e.g. while the broker is down.
   * A rejected publish may still have reached the broker: retry with the same eventId.
   */
  async publish<T>(type: string, data: T, opts: EventPublishOptions = {}): Promise<EventEnvelope<T>> {
    if (!this.publisher || this.closed) throw new Error(`EventBus(${this.service}): not started (or closed)`);
    if (!type) throw new Error('EventBus: event type is required');
    const occurredAt = opts.occurredAt ?? new Date();
    const requestId = opts.requestId ?? currentRequestId();
    const envelope: EventEnvelope<T> = {
      eventId: opts.eventId ?? randomUUID(),
      type,
      occurredAt: typeof occurredAt === 'string' ? occurredAt : occurredAt.toISOString(),
      ...(requestId ? { requestId } : {}),
      data,
    };
    const log = { eventId: envelope.eventId, type, requestId: envelope.requestId };
    try {
      await this.publisher.publish(this.options.exchange, type, Buffer.from(JSON.stringify(envelope)), {
        persistent: true,
        contentType: 'application/json',
        messageId: envelope.eventId,
        type,
        appId: this.service,
        timestamp: Math.floor(Date.now() / 1000),
        headers: requestId ? { [EVENT_HEADERS.requestId]: requestId } : {},
      });
    } catch (err) {
      this.options.metrics?.published.inc({ exchange: this.options.exchange, event: type, outcome: 'failed' });
      this.logger.error({ ...log, err }, 'event not published');
      throw new Error(`EventBus(${this.service}): could not publish ${type} ${envelope.eventId}: ${errorText(err)}`);
    }
    this.options.metrics?.published.inc({ exchange: this.options.exchange, event: type, outcome: 'ok' });
    this.logger.info(log, 'event published');
    return envelope;
  }

  /**
   * Starts consuming: declares `${queue}` (default `${queuePrefix}${service}.events`) bound to every key of
   * `handlers`, its retry queue and its dead-letter exchange/queue. Resolves once consuming.
   */
  async subscribe(handlers: EventHandlers, opts: EventSubscribeOptions = {}): Promise<void> {
    if (!this.manager || this.closed) throw new Error(`EventBus(${this.service}): not started (or closed)`);
    if (Object.keys(handlers).length === 0) throw new Error('EventBus: subscribe() needs at least one handler');
    const o = this.options;
    const queue = opts.queue ?? `${o.queuePrefix}${o.service}.events`;
    const store = opts.inbox === false ? undefined : o.store;
    if (!store && opts.inbox !== false) {
      this.logger.warn({ queue }, 'no ProcessedEventStore: redelivered events reach the handlers again');
    }
    const consumer = new EventConsumer(this.manager, {
      service: o.service,
      exchange: o.exchange,
      queue,
      handlers: { ...handlers },
      retired: opts.retired?.filter((key) => !(key in handlers)),
      prefetch: o.prefetch,
      maxAttempts: o.maxAttempts,
      retryDelayMs: o.retryDelayMs,
      confirmTimeoutMs: o.publishTimeoutMs,
      drainTimeoutMs: o.drainTimeoutMs,
      logger: this.logger,
      store,
      metrics: o.metrics,
    });
    await consumer.start(o.connectTimeoutMs);
    this.consumers.push(consumer);
    this.logger.info({ queue, events: Object.keys(handlers) }, 'consuming events');
  }

  /**
   * Every replica of this service hears these events (subscribe() gives each event to one replica): for
   * in-memory copies to drop what changed. At most once, no retries; see BroadcastListener.
   */
  async broadcast(handlers: BroadcastHandlers, opts: BroadcastOptions = {}): Promise<void> {
    if (!this.manager || this.closed) throw new Error(`EventBus(${this.service}): not started (or closed)`);
    if (Object.keys(handlers).length === 0) throw new Error('EventBus: broadcast() needs at least one handler');
    const listener = new BroadcastListener(this.manager, {
      service: this.service,
      exchange: this.options.exchange,
      handlers: { ...handlers },
      logger: this.logger,
      metrics: this.options.metrics,
      ...opts,
    });
    await listener.start(this.options.connectTimeoutMs);
    this.consumers.push(listener);
    this.logger.info({ events: Object.keys(handlers) }, 'listening to events on this replica');
  }

  /** Stops consuming, lets running handlers finish (bounded by drainTimeoutMs), closes the connection. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.starting?.catch(() => undefined);
    await Promise.all(this.consumers.map((c) => c.close()));
    await this.publisher?.close().catch(() => undefined);
    await this.manager?.close().catch(() => undefined);
  }
}

function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return '(invalid url)';
  }
}

function stripUndefined<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}
