import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import { RmqContext, RmqOptions, Transport } from '@nestjs/microservices';
import { REQUEST_ID_HEADER, RPC_QUEUE_OPTIONS, type ServiceName } from '@shop/contracts';
import { Observable, finalize } from 'rxjs';
import { normaliseRequestId, runWithRequestContext } from '../logging/request-context';
import { acknowledgeRpc } from './rpc-ack';
import { namespacedQueue } from './rpc-names';

/** Server side of a service's request queue: durable, manual acks, bounded prefetch. */
export function rpcServerOptions(service: ServiceName, url: string, namespace = ''): RmqOptions {
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
 * lines carry the gateway's request id) and acks the message once the answer is produced.
 */
@Injectable()
export class RpcContextInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (context.getType() !== 'rpc') return next.handle();
    const rmq = context.switchToRpc().getContext<RmqContext>();
    const headers = (rmq.getMessage()?.properties?.headers ?? {}) as Record<string, unknown>;
    const requestId = normaliseRequestId(headers[REQUEST_ID_HEADER]);
    return new Observable((subscriber) =>
      runWithRequestContext({ requestId }, () =>
        next
          .handle()
          .pipe(finalize(() => acknowledgeRpc(rmq)))
          .subscribe(subscriber),
      ),
    );
  }
}
