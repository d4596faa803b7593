import { CallHandler, ExecutionContext, Injectable, NestInterceptor, Optional } from '@nestjs/common';
import { RmqContext, RmqOptions, Transport } from '@nestjs/microservices';
import { REQUEST_ID_HEADER, RPC_QUEUE_OPTIONS, type ShopServiceName } from '@shop/contracts';
import { Observable, finalize, tap } from 'rxjs';
import { normaliseRequestId, runWithRequestContext } from '../logging/request-context';
import { MessagingMetrics } from '../metrics/messaging-metrics';
import { secondsSince } from '../metrics/metrics';
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

/**
 * For request handlers: runs the handler inside the caller's request context (so its log
 * lines carry the gateway's request id), acks the message once the answer is produced, and
 * counts the request and its duration by queue and pattern.
 */
@Injectable()
export class RpcContextInterceptor implements NestInterceptor {
  constructor(@Optional() private readonly metrics?: MessagingMetrics) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (context.getType() !== 'rpc') return next.handle();
    const rmq = context.switchToRpc().getContext<RmqContext>();
    const message = rmq.getMessage() as { properties?: { headers?: unknown }; fields?: { routingKey?: string } };
    const headers = (message?.properties?.headers ?? {}) as Record<string, unknown>;
    const requestId = normaliseRequestId(headers[REQUEST_ID_HEADER]);
    const labels = { queue: message?.fields?.routingKey ?? '', pattern: String(rmq.getPattern()) };
    const started = process.hrtime.bigint();
    let outcome: 'ok' | 'error' = 'ok';
    return new Observable((subscriber) =>
      runWithRequestContext({ requestId }, () =>
        next
          .handle()
          .pipe(
            tap({ error: () => (outcome = 'error') }),
            finalize(() => {
              acknowledgeRpc(rmq);
              this.metrics?.rpcServerRequests.inc({ ...labels, outcome });
              this.metrics?.rpcServerSeconds.observe(labels, secondsSince(started));
            }),
          )
          .subscribe(subscriber),
      ),
    );
  }
}
