import {
  HttpException,
  Logger,
  ServiceUnavailableException,
  type FactoryProvider,
  type InjectionToken,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { ServiceConfig } from '../config/service-config';
import { RmqRecordBuilder } from '@nestjs/microservices';
import { REQUEST_ID_HEADER, RPC_QUEUE_OPTIONS, type ServiceName } from '@shop/contracts';
import { lastValueFrom, timeout, TimeoutError } from 'rxjs';
import { currentRequestId } from '../logging/request-context';
import type { MessagingMetrics } from '../metrics/messaging-metrics';
import { secondsSince } from '../metrics/metrics';
import { namespacedQueue } from './rpc-names';
import { ResilientClientRMQ } from './rmq-channels';

export interface RpcClientOptions {
  url: string;
  namespace?: string;
  timeoutMs: number;
  /** Where requests are counted; ServiceDefaultsModule sets it on every RpcClient provider (MetricsWiring). */
  metrics?: MessagingMetrics;
}

function title(service: string): string {
  return service.charAt(0).toUpperCase() + service.slice(1);
}

/**
 * Asks another service and waits for its answer, never forever: a timeout or an
 * unreachable broker/service becomes a 503 with a message, and an error the other service
 * answered with comes back as the same HTTP status and message.
 */
export class RpcClient implements OnApplicationShutdown {
  private readonly logger = new Logger(RpcClient.name);
  private readonly proxy: ResilientClientRMQ;
  private readonly queue: string;
  private metrics?: MessagingMetrics;

  constructor(
    readonly service: ServiceName,
    private readonly options: RpcClientOptions,
  ) {
    this.queue = namespacedQueue(options.namespace ?? '', service);
    this.metrics = options.metrics;
    // Never noAck:false here: the client consumes the direct-reply pseudo-queue, which must be consumed without acks
    // (docs/pitfalls.md#the-rmq-clients-noack).
    this.proxy = new ResilientClientRMQ({
      urls: [options.url],
      queue: this.queue,
      queueOptions: { ...RPC_QUEUE_OPTIONS },
      persistent: true,
      socketOptions: { heartbeatIntervalInSeconds: 30, reconnectTimeInSeconds: 1 },
    });
  }

  async send<TResult, TPayload = unknown>(
    pattern: string,
    payload: TPayload,
    timeoutMs = this.options.timeoutMs,
  ): Promise<TResult> {
    const requestId = currentRequestId();
    const record = new RmqRecordBuilder(payload)
      .setOptions({ headers: requestId ? { [REQUEST_ID_HEADER]: requestId } : {}, expiration: String(timeoutMs) })
      .build();
    const started = process.hrtime.bigint();
    const labels = { queue: this.queue, pattern };
    try {
      const answer = await lastValueFrom(this.proxy.send<TResult>(pattern, record).pipe(timeout(timeoutMs)));
      this.metrics?.rpcClientRequests.inc({ ...labels, outcome: 'ok' });
      return answer;
    } catch (err) {
      const httpError = this.toHttpError(pattern, err);
      this.metrics?.rpcClientRequests.inc({
        ...labels,
        outcome: httpError.getStatus() === 503 ? 'unavailable' : 'error',
      });
      throw httpError;
    } finally {
      this.metrics?.rpcClientSeconds.observe(labels, secondsSince(started));
    }
  }

  /** Counts this client's requests in `metrics` (set once, by MetricsWiring, for clients built by a factory). */
  instrument(metrics: MessagingMetrics): void {
    this.metrics ??= metrics;
  }

  private toHttpError(pattern: string, err: unknown): HttpException {
    const e = err as { statusCode?: unknown; message?: unknown };
    if (
      e &&
      typeof e.statusCode === 'number' &&
      typeof e.message === 'string' &&
      e.statusCode >= 400 &&
      e.statusCode < 600
    ) {
      return new HttpException({ statusCode: e.statusCode, message: e.message }, e.statusCode);
    }
    const reason = err instanceof TimeoutError ? 'timed out' : err instanceof Error ? err.message : String(err);
    this.logger.warn(`${pattern} failed: ${reason}`);
    return new ServiceUnavailableException(`${title(this.service)} service is unavailable`);
  }

  async onApplicationShutdown(): Promise<void> {
    await this.proxy.close();
  }
}

/**
 * The provider of a request client to `service`, configured from the service's own ServiceConfig (broker URL,
 * namespace, RPC_TIMEOUT_MS): `providers: [rpcClientProvider('catalog')]` injects as `RpcClient`; give a token when a
 * module asks more than one service.
 */
export function rpcClientProvider(service: ServiceName, token: InjectionToken = RpcClient): FactoryProvider<RpcClient> {
  return {
    provide: token,
    inject: [ServiceConfig],
    useFactory: (config: ServiceConfig) =>
      new RpcClient(service, {
        url: config.RABBITMQ_URL,
        namespace: config.RABBITMQ_NAMESPACE,
        timeoutMs: config.RPC_TIMEOUT_MS,
      }),
  };
}
