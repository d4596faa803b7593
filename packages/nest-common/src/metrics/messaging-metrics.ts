import type { Counter, Histogram } from 'prom-client';
import type { Metrics } from './metrics';

/** Why a consumer moved an event to its dead-letter queue (a bounded label). */
export type DeadLetterReason = 'handler_failed' | 'no_handler' | 'invalid_message';

/**
 * RabbitMQ traffic of one service, recorded once in nest-common: the event bus (publish, consume, retry,
 * dead-letter), the broadcast listener, the outbox relay and the RPC client and server. Labels are bounded:
 * queue names, event types or handler patterns of this code base, RPC patterns, never ids.
 */
export class MessagingMetrics {
  readonly published: Counter<'exchange' | 'event' | 'outcome'>;
  readonly consumed: Counter<'queue' | 'event' | 'outcome'>;
  readonly handlerSeconds: Histogram<'queue' | 'event'>;
  readonly retried: Counter<'queue' | 'event'>;
  readonly deadLettered: Counter<'queue' | 'reason'>;
  readonly outboxRelayed: Counter<'collection'>;
  readonly outboxFailures: Counter<'collection'>;
  readonly rpcClientRequests: Counter<'queue' | 'pattern' | 'outcome'>;
  readonly rpcClientSeconds: Histogram<'queue' | 'pattern'>;
  readonly rpcServerRequests: Counter<'queue' | 'pattern' | 'outcome'>;
  readonly rpcServerSeconds: Histogram<'queue' | 'pattern'>;

  constructor(metrics: Metrics) {
    this.published = metrics.counter(
      'shop_events_published_total',
      'Events published to the topic exchange, by event type; outcome ok (broker confirmed) or failed',
      ['exchange', 'event', 'outcome'],
    );
    this.consumed = metrics.counter(
      'shop_events_consumed_total',
      'Event deliveries taken off a consumer queue, by handler pattern; outcome handled, duplicate (already processed: acked unrun) or failed (retried or dead-lettered)',
      ['queue', 'event', 'outcome'],
    );
    this.handlerSeconds = metrics.histogram(
      'shop_event_handler_duration_seconds',
      'Time an event handler took, successful or not',
      ['queue', 'event'],
    );
    this.retried = metrics.counter(
      'shop_events_retried_total',
      'Events sent to the retry queue after a failed handler run',
      ['queue', 'event'],
    );
    this.deadLettered = metrics.counter(
      'shop_events_dead_lettered_total',
      "Events moved to a consumer's dead-letter queue (handler_failed after the last attempt, no_handler, invalid_message)",
      ['queue', 'reason'],
    );
    this.outboxRelayed = metrics.counter(
      'shop_outbox_relayed_total',
      'Outbox entries published and confirmed by the broker',
      ['collection'],
    );
    this.outboxFailures = metrics.counter(
      'shop_outbox_relay_failures_total',
      'Outbox relays that failed (the broker is away); the sweep retries them',
      ['collection'],
    );
    this.rpcClientRequests = metrics.counter(
      'shop_rpc_client_requests_total',
      "Requests sent to another service's request queue; outcome ok, error (the service answered an error) or unavailable (timeout, no broker)",
      ['queue', 'pattern', 'outcome'],
    );
    this.rpcClientSeconds = metrics.histogram(
      'shop_rpc_client_duration_seconds',
      "Time until another service's answer (or the timeout)",
      ['queue', 'pattern'],
    );
    this.rpcServerRequests = metrics.counter(
      'shop_rpc_server_requests_total',
      "Requests answered from this service's request queue; outcome ok or error",
      ['queue', 'pattern', 'outcome'],
    );
    this.rpcServerSeconds = metrics.histogram(
      'shop_rpc_server_duration_seconds',
      'Time this service took to answer a request from its queue',
      ['queue', 'pattern'],
    );
  }
}
