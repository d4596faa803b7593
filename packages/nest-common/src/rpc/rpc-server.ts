import { RmqContext, RmqOptions, Transport } from '@nestjs/microservices';
import { REQUEST_ID_HEADER, RPC_QUEUE_OPTIONS, type ShopServiceName } from '@shop/contracts';
import { normaliseRequestId, runWithRequestContext } from '../logging/request-context';
import { MessagingMetrics } from '../metrics/messaging-metrics';
import { secondsSince } from '../metrics/metrics';
import { ResilientServerRMQ } from './rmq-channels';
import { acknowledgeRpc } from './rpc-ack';
import { namespacedQueue } from './rpc-names';

/** Server side of a service's request queue: durable, manual acks, bounded prefetch. */
export function rpcServerOptions(service: ShopServiceName, url: string, namespace = ''): RmqOptions {
  return {
    transport: Transport.RMQ,
    options: {
      urls: [url],
      queue: namespacedQueue(namespace, service),
      queueOptions: { ...RPC_QUEUE_OPTIONS },
      noAck: false,
      prefetchCount: 32,
      persistent: true,
      socketOptions: { heartbeatIntervalInSeconds: 30, reconnectTimeInSeconds: 1 },
    },
  };
}

/** What the request queue's server keeps about a request while its handler runs. */
interface InFlight {
  started: bigint;
  outcome: 'ok' | 'error';
}

/**
 * The request queue's server: runs each handler inside the caller's request context (so its log lines carry the
 * gateway's request id), acks the message once the answer is sent (manual acks: a crash mid-handler leaves it for
 * another replica), and counts the request and its duration by queue and pattern. Done around Nest's handler, with
 * the transport's own processing hooks, rather than as a global interceptor, which would put every HTTP request of
 * the service through Nest's interceptor chain for nothing.
 */
export class RequestQueueServer extends ResilientServerRMQ {
  private readonly inFlight = new WeakMap<object, InFlight>();

  constructor(
    options: NonNullable<RmqOptions['options']>,
    private readonly metrics?: MessagingMetrics,
  ) {
    super(options);
    this.setOnProcessingStartHook((_transport, context, done) => {
      const message = (context as RmqContext).getMessage() as RmqMessage;
      this.inFlight.set(message, { started: process.hrtime.bigint(), outcome: 'ok' });
      const requestId = normaliseRequestId(message.properties?.headers?.[REQUEST_ID_HEADER]);
      return runWithRequestContext({ requestId }, done);
    });
  }

  override sendMessage<T = unknown>(packet: T, replyTo: unknown, correlationId: string, context: RmqContext): void {
    super.sendMessage(packet, replyTo, correlationId, context);
    const message = context.getMessage() as RmqMessage;
    const request = this.inFlight.get(message);
    if (!request) return; // no handler for the pattern: Nest has nacked it
    const { err, isDisposed } = packet as { err?: unknown; isDisposed?: boolean };
    if (err !== undefined) request.outcome = 'error';
    if (!isDisposed) return;
    this.inFlight.delete(message);
    acknowledgeRpc(context);
    const labels = { queue: message.fields?.routingKey ?? '', pattern: context.getPattern() };
    this.metrics?.rpcServerRequests.inc({ ...labels, outcome: request.outcome });
    this.metrics?.rpcServerSeconds.observe(labels, secondsSince(request.started));
  }
}

/** The parts of an AMQP message the server reads. */
interface RmqMessage {
  properties?: { headers?: Record<string, unknown> };
  fields?: { routingKey?: string };
}
