import type { EventEnvelope } from '@shop/contracts';
import type { MessagingMetrics } from '../metrics/messaging-metrics';
import type { ProcessedEventStore } from './processed-event.store';

/** pino-compatible: `logger.info({ eventId, type }, 'message')`. */
export interface EventBusLogger {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

export interface EventBusOptions {
  /** amqp://user:pass@host:5672 */
  url: string;
  /** Name of this service: default queue `${service}.events`, appId of published messages. */
  service: string;
  /** Prefix of the default queue name `${queuePrefix}${service}.events` (the deployment namespace); default ''. */
  queuePrefix?: string;
  /** Topic exchange; default `shop.events` (EVENTS_EXCHANGE). */
  exchange?: string;
  /** Unacked deliveries per consumer; default 10. */
  prefetch?: number;
  /** Handler runs per event (first try included) before it is dead-lettered; default 5. */
  maxAttempts?: number;
  /** Wait before each retry (per-message TTL in the retry queue); default 5000 ms. */
  retryDelayMs?: number;
  /** start() fails after this long without a broker connection; default 10000 ms. */
  connectTimeoutMs?: number;
  /** publish() rejects when the broker has not confirmed within this time; default 5000 ms. */
  publishTimeoutMs?: number;
  /** Wait between reconnect attempts after the broker went away; default 1000 ms. */
  reconnectDelayMs?: number;
  /** AMQP heartbeat; default 5 s. */
  heartbeatSeconds?: number;
  /** close() waits this long for running handlers before closing channels; default 10000 ms. */
  drainTimeoutMs?: number;
  logger?: EventBusLogger;
  /** Dedupe of redelivered events. Without one, handlers must be idempotent on their own. */
  store?: ProcessedEventStore;
  /** Where published, consumed, retried and dead-lettered events are counted (Prometheus); none by default. */
  metrics?: MessagingMetrics;
}

export interface EventContext {
  /** 1 on the first run, up to maxAttempts. */
  attempt: number;
  /** The broker redelivered it (e.g. after a consumer crash or broker restart). */
  redelivered: boolean;
  /** The queue it came from. */
  queue: string;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type EventHandler<T = any> = (event: EventEnvelope<T>, context: EventContext) => Promise<void>;

/** Routing key (an event type, or a topic pattern with `*`/`#`) → handler. */
export type EventHandlers = Record<string, EventHandler>;

export interface EventSubscribeOptions {
  /** Default `${queuePrefix}${service}.events`. One queue per consuming service; replicas share it. */
  queue?: string;
  /**
   * Whether the bus's ProcessedEventStore (the inbox) dedupes these handlers' events; default true. false when every
   * handler is idempotent by a key of its own (a line taken out once per order id, a record deleted once): the
   * inbox's read and write per event would only repeat that guard.
   */
  inbox?: boolean;
  /**
   * Routing keys an earlier version of this service bound the queue to and it no longer handles: unbound at start,
   * so their events stop reaching the queue (else each is dead-lettered as "no handler").
   */
  retired?: string[];
}

export interface EventPublishOptions {
  /** Reuse an id (outbox relay, publisher retry) so consumers can dedupe; default a new UUID. */
  eventId?: string;
  /** Default: the request id of the current request context (HTTP request or event being handled). */
  requestId?: string;
  /** When the fact happened (outbox relays publish later); default now. */
  occurredAt?: Date | string;
}

/** Names of the queues and exchange that belong to one consumer queue. */
export function consumerTopology(queue: string): { queue: string; retryQueue: string; dlx: string; dlq: string } {
  return { queue, retryQueue: `${queue}.retry`, dlx: `${queue}.dlx`, dlq: `${queue}.dlq` };
}

/** Headers the bus reads or writes. */
export const EVENT_HEADERS = {
  /** Failed handler runs so far (set on retries and on dead-lettered messages). */
  attempts: 'x-attempts',
  /** Message of the last handler error (retry queue and DLQ). */
  lastError: 'x-last-error',
  /** Why it was dead-lettered (DLQ only). */
  error: 'x-error',
  errorStack: 'x-error-stack',
  failedAt: 'x-failed-at',
  consumer: 'x-consumer',
  requestId: 'x-request-id',
} as const;
