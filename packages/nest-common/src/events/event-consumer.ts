import type { AmqpConnectionManager, ChannelWrapper } from 'amqp-connection-manager';
import type { ConfirmChannel, ConsumeMessage, MessageProperties, Options } from 'amqplib';
import type { EventEnvelope } from '@shop/contracts';
import type { ProcessedEventStore } from './processed-event.store';
import { runWithRequestContext } from '../logging/request-context';
import type { DeadLetterReason, MessagingMetrics } from '../metrics/messaging-metrics';
import { topicMatches } from './topic-pattern';
import { consumerTopology, EVENT_HEADERS, type EventBusLogger, type EventHandlers } from './event-bus.types';

export interface EventConsumerConfig {
  service: string;
  exchange: string;
  queue: string;
  handlers: EventHandlers;
  /** Routing keys this queue was bound to by an earlier version and no longer handles: unbound at start. */
  retired?: string[];
  prefetch: number;
  maxAttempts: number;
  retryDelayMs: number;
  confirmTimeoutMs: number;
  drainTimeoutMs: number;
  logger: EventBusLogger;
  store?: ProcessedEventStore;
  metrics?: MessagingMetrics;
}

const MAX_HEADER_TEXT = 2000;

/**
 * One consumer queue of one service: its topology, the delivery loop, retries and dead-lettering.
 * Created by EventBus.subscribe(); not exported from the package.
 *
 * Acks and forwards (retry queue, DLQ) always go to the raw channel the message arrived on: after a
 * reconnect, acking on the new channel would be an "unknown delivery tag" channel error, and the old
 * channel's deliveries are redelivered by the broker anyway.
 */
export class EventConsumer {
  private readonly topology;
  private readonly patterns: string[];
  private wrapper?: ChannelWrapper;
  private readonly consumerTags = new Map<ConfirmChannel, string>();
  private readonly inFlight = new Set<Promise<void>>();
  /** Serialises deliveries of the same eventId inside this process (duplicates arriving together). */
  private readonly byEventId = new Map<string, Promise<void>>();
  private closing = false;

  constructor(
    private readonly manager: AmqpConnectionManager,
    private readonly cfg: EventConsumerConfig,
  ) {
    this.topology = consumerTopology(cfg.queue);
    this.patterns = Object.keys(cfg.handlers);
  }

  async start(connectTimeoutMs: number): Promise<void> {
    const wrapper = this.manager.createChannel({ name: `events:${this.cfg.queue}`, confirm: true });
    this.wrapper = wrapper;
    wrapper.on('error', (err: Error) =>
      this.cfg.logger.error({ err, queue: this.cfg.queue }, 'event consumer channel setup failed'),
    );
    try {
      await withTimeout(wrapper.waitForConnect(), connectTimeoutMs, 'no channel to the broker');
      // Runs now on the current channel (rejecting on a topology error), and again after every reconnect.
      await wrapper.addSetup((channel: ConfirmChannel) => this.setup(channel));
    } catch (err) {
      await wrapper.close().catch(() => undefined);
      throw new Error(`EventBus(${this.cfg.service}): cannot consume from ${this.cfg.queue}: ${errorText(err)}`);
    }
  }

  /** Stops consuming, waits for running handlers (bounded), closes the channel. */
  async close(): Promise<void> {
    if (this.closing) return;
    this.closing = true;
    await Promise.all([...this.consumerTags].map(([channel, tag]) => channel.cancel(tag).catch(() => undefined)));
    if (this.inFlight.size > 0) {
      await Promise.race([Promise.allSettled([...this.inFlight]), delay(this.cfg.drainTimeoutMs)]);
    }
    await this.wrapper?.close().catch(() => undefined);
  }

  private async setup(channel: ConfirmChannel): Promise<void> {
    const { exchange } = this.cfg;
    const { queue, retryQueue, dlx, dlq } = this.topology;
    await channel.assertExchange(exchange, 'topic', { durable: true });
    await channel.assertExchange(dlx, 'fanout', { durable: true });
    await channel.assertQueue(dlq, { durable: true });
    await channel.bindQueue(dlq, dlx, '');
    // Nobody consumes the retry queue: each message waits out its TTL and is dead-lettered straight
    // back into the consumer's own queue (through the default exchange, so other services never
    // see the retry).
    await channel.assertQueue(retryQueue, {
      durable: true,
      deadLetterExchange: '',
      deadLetterRoutingKey: queue,
    });
    // Anything the broker dead-letters itself (a nack without requeue) lands in the DLQ too.
    await channel.assertQueue(queue, { durable: true, deadLetterExchange: dlx });
    for (const pattern of this.patterns) await channel.bindQueue(queue, exchange, pattern);
    // A binding left by a handler since removed would fill the DLQ with "no handler" (unbinding none is a no-op).
    for (const key of this.cfg.retired ?? []) await channel.unbindQueue(queue, exchange, key);
    if (this.closing) return;
    await channel.prefetch(this.cfg.prefetch);
    const { consumerTag } = await channel.consume(
      queue,
      (msg) => {
        if (!msg) {
          this.cfg.logger.warn({ queue }, 'event consumer cancelled by the broker');
          return;
        }
        this.track(this.onMessage(channel, msg));
      },
      { noAck: false },
    );
    this.consumerTags.set(channel, consumerTag);
    channel.once('close', () => this.consumerTags.delete(channel));
  }

  private track(work: Promise<void>): void {
    const tracked = work.catch((err: unknown) =>
      this.cfg.logger.error({ err, queue: this.cfg.queue }, 'unexpected error in event consumer'),
    );
    this.inFlight.add(tracked);
    void tracked.finally(() => this.inFlight.delete(tracked));
  }

  private async onMessage(channel: ConfirmChannel, msg: ConsumeMessage): Promise<void> {
    const failedSoFar = Number(msg.properties.headers?.[EVENT_HEADERS.attempts] ?? 0) || 0;
    let envelope: EventEnvelope;
    try {
      envelope = parseEnvelope(msg.content);
    } catch (err) {
      await this.deadLetter(
        channel,
        msg,
        msg.fields.routingKey,
        'invalid_message',
        `invalid message: ${errorText(err)}`,
        failedSoFar,
      );
      return;
    }
    const pattern = this.findPattern(envelope.type);
    if (!pattern) {
      await this.deadLetter(
        channel,
        msg,
        envelope.type,
        'no_handler',
        `no handler for event type "${envelope.type}"`,
        failedSoFar,
        envelope,
      );
      return;
    }
    const run = () => this.process(channel, msg, envelope, pattern, failedSoFar + 1);
    const previous = this.byEventId.get(envelope.eventId);
    const current = previous ? previous.then(run, run) : run();
    this.byEventId.set(envelope.eventId, current);
    try {
      await current;
    } finally {
      if (this.byEventId.get(envelope.eventId) === current) this.byEventId.delete(envelope.eventId);
    }
  }

  private async process(
    channel: ConfirmChannel,
    msg: ConsumeMessage,
    envelope: EventEnvelope,
    pattern: string,
    attempt: number,
  ): Promise<void> {
    const { store, logger, queue, metrics } = this.cfg;
    const handler = this.cfg.handlers[pattern];
    const labels = { queue, event: pattern };
    const log = {
      eventId: envelope.eventId,
      type: envelope.type,
      requestId: envelope.requestId,
      consumer: queue,
      attempt,
      redelivered: msg.fields.redelivered,
    };
    const started = Date.now();
    try {
      if (store && (await store.has(queue, envelope.eventId))) {
        logger.info(log, 'event already processed: acked without running the handler');
        metrics?.consumed.inc({ ...labels, outcome: 'duplicate' });
        this.ack(channel, msg, log);
        return;
      }
      logger.info(log, 'handling event');
      const context = { attempt, redelivered: msg.fields.redelivered, queue };
      // The handler's own logs, requests and follow-up events carry the request id of the cause.
      await (envelope.requestId
        ? runWithRequestContext({ requestId: envelope.requestId }, () => handler(envelope, context))
        : handler(envelope, context));
    } catch (err) {
      metrics?.handlerSeconds.observe(labels, (Date.now() - started) / 1000);
      metrics?.consumed.inc({ ...labels, outcome: 'failed' });
      await this.onFailure(channel, msg, envelope, pattern, err, attempt, log);
      return;
    }
    metrics?.handlerSeconds.observe(labels, (Date.now() - started) / 1000);
    metrics?.consumed.inc({ ...labels, outcome: 'handled' });
    if (store) {
      try {
        await store.markProcessed(queue, envelope.eventId, envelope.type);
      } catch (err) {
        // The work is done; running it again would be worse than a missing record.
        logger.error({ ...log, err }, 'event handled but not recorded as processed');
      }
    }
    this.ack(channel, msg, log);
    logger.info({ ...log, ms: Date.now() - started }, 'event handled');
  }

  private async onFailure(
    channel: ConfirmChannel,
    msg: ConsumeMessage,
    envelope: EventEnvelope,
    pattern: string,
    err: unknown,
    attempt: number,
    log: object,
  ): Promise<void> {
    const { maxAttempts, retryDelayMs, logger, metrics, queue } = this.cfg;
    if (attempt >= maxAttempts) {
      logger.error({ ...log, err }, `event handler failed ${attempt} times: dead-lettered`);
      await this.deadLetter(channel, msg, envelope.type, 'handler_failed', errorText(err), attempt, envelope, err);
      return;
    }
    logger.warn({ ...log, err }, `event handler failed: retry ${attempt + 1}/${maxAttempts} in ${retryDelayMs} ms`);
    const moved = await this.forward(
      channel,
      msg,
      '',
      this.topology.retryQueue,
      {
        expiration: String(retryDelayMs),
        headers: {
          [EVENT_HEADERS.attempts]: attempt,
          [EVENT_HEADERS.lastError]: truncate(errorText(err)),
        },
      },
      log,
    );
    if (moved) metrics?.retried.inc({ queue, event: pattern });
  }

  private async deadLetter(
    channel: ConfirmChannel,
    msg: ConsumeMessage,
    routingKey: string,
    why: DeadLetterReason,
    reason: string,
    attempts: number,
    envelope?: EventEnvelope,
    err?: unknown,
  ): Promise<void> {
    const log = {
      eventId: envelope?.eventId ?? msg.properties.messageId,
      type: envelope?.type ?? msg.fields.routingKey,
      requestId: envelope?.requestId,
      consumer: this.cfg.queue,
    };
    if (!err) this.cfg.logger.error({ ...log, reason }, 'event dead-lettered');
    const headers: Record<string, unknown> = {
      [EVENT_HEADERS.attempts]: attempts,
      [EVENT_HEADERS.error]: truncate(reason),
      [EVENT_HEADERS.failedAt]: new Date().toISOString(),
      [EVENT_HEADERS.consumer]: this.cfg.queue,
    };
    if (err instanceof Error && err.stack) headers[EVENT_HEADERS.errorStack] = truncate(err.stack);
    if (await this.forward(channel, msg, this.topology.dlx, routingKey, { headers }, log))
      this.cfg.metrics?.deadLettered.inc({ queue: this.cfg.queue, reason: why });
  }

  /**
   * Publishes a copy (retry queue or DLQ) on the same channel, waits for the broker's confirm, and
   * only then acks the original. If the copy cannot be confirmed the original is requeued, so a
   * message is never dropped; at worst it is handled once more. Resolves true once the copy is confirmed.
   */
  private async forward(
    channel: ConfirmChannel,
    msg: ConsumeMessage,
    exchange: string,
    routingKey: string,
    extra: { headers: Record<string, unknown>; expiration?: string },
    log: object,
  ): Promise<boolean> {
    const options: Options.Publish = {
      ...copyProperties(msg.properties),
      ...(extra.expiration ? { expiration: extra.expiration } : {}),
      headers: { ...stripBrokerHeaders(msg.properties.headers), ...extra.headers },
    };
    try {
      await publishConfirmed(channel, exchange, routingKey, msg.content, options, this.cfg.confirmTimeoutMs);
    } catch (err) {
      this.cfg.logger.error({ ...log, err }, 'could not move the event to the retry/dead-letter queue: requeued');
      try {
        channel.nack(msg, false, true);
      } catch {
        // Channel gone: the broker redelivers it.
      }
      return false;
    }
    this.ack(channel, msg, log);
    return true;
  }

  private ack(channel: ConfirmChannel, msg: ConsumeMessage, log: object): void {
    try {
      channel.ack(msg);
    } catch (err) {
      // The channel closed (broker restart): the broker will redeliver, the store dedupes it.
      this.cfg.logger.warn({ ...log, err }, 'ack failed (channel closed): the event will be redelivered');
    }
  }

  /** The key of the handler for this event type: the type itself, or the first topic pattern matching it. */
  private findPattern(type: string): string | undefined {
    if (Object.hasOwn(this.cfg.handlers, type)) return type;
    return this.patterns.find((p) => topicMatches(p, type));
  }
}

export function parseEnvelope(content: Buffer): EventEnvelope {
  const value: unknown = JSON.parse(content.toString('utf8'));
  if (typeof value !== 'object' || value === null) throw new Error('not a JSON object');
  const e = value as Partial<EventEnvelope>;
  if (typeof e.eventId !== 'string' || e.eventId === '') throw new Error('missing eventId');
  if (typeof e.type !== 'string' || e.type === '') throw new Error('missing type');
  if (typeof e.occurredAt !== 'string') throw new Error('missing occurredAt');
  if (!('data' in e)) throw new Error('missing data');
  return e as EventEnvelope;
}

function copyProperties(p: MessageProperties): Options.Publish {
  const out: Options.Publish = { persistent: true };
  if (p.contentType) out.contentType = p.contentType;
  if (p.contentEncoding) out.contentEncoding = p.contentEncoding;
  if (p.messageId) out.messageId = p.messageId;
  if (p.correlationId) out.correlationId = p.correlationId;
  if (p.timestamp) out.timestamp = p.timestamp;
  if (p.type) out.type = p.type;
  if (p.appId) out.appId = p.appId;
  return out;
}

/** x-death & co. are the broker's own bookkeeping; sending them back in can upset it. */
function stripBrokerHeaders(headers: MessageProperties['headers']): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(headers ?? {})) {
    if (k === 'x-death' || k.startsWith('x-first-death') || k.startsWith('x-last-death')) continue;
    out[k] = v;
  }
  return out;
}

function publishConfirmed(
  channel: ConfirmChannel,
  exchange: string,
  routingKey: string,
  content: Buffer,
  options: Options.Publish,
  timeoutMs: number,
): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no broker confirm within ${timeoutMs} ms`)), timeoutMs);
    try {
      channel.publish(exchange, routingKey, content, options, (err) => {
        clearTimeout(timer);
        if (err) reject(err instanceof Error ? err : new Error(String(err)));
        else resolve();
      });
    } catch (err) {
      clearTimeout(timer);
      reject(err);
    }
  });
}

export function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

function truncate(text: string): string {
  return text.length > MAX_HEADER_TEXT ? `${text.slice(0, MAX_HEADER_TEXT)}…` : text;
}

export function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}

export async function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      promise,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`${what} within ${ms} ms`)), ms);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}
