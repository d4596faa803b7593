import { Global, Injectable, Module, type DynamicModule, type OnModuleInit } from '@nestjs/common';
import { DiscoveryModule, DiscoveryService } from '@nestjs/core';
import { RpcClient } from '../rpc/rpc-client';
import { MessagingMetrics } from './messaging-metrics';
import { Metrics } from './metrics';
import { MongoCommandMetrics } from './mongo-command-metrics';

/**
 * Gives every RpcClient provider of the application (services build them in factories of their own) the
 * application's messaging metrics, so RPC requests are counted without each service passing them on.
 */
@Injectable()
class MetricsWiring implements OnModuleInit {
  constructor(
    private readonly discovery: DiscoveryService,
    private readonly messaging: MessagingMetrics,
  ) {}

  onModuleInit(): void {
    for (const wrapper of this.discovery.getProviders()) {
      const instance: unknown = wrapper.instance;
      if (instance instanceof RpcClient) instance.instrument(this.messaging);
    }
  }
}

/**
 * The application's Prometheus metrics: `Metrics` (its registry, for a service's own counters) and
 * `MessagingMetrics` (RabbitMQ traffic, recorded by the event bus, the outbox relay and the RPC client and
 * server) and `MongoCommandMetrics` (MongoDB commands, counted on the connection ServiceDefaultsModule opens). Imported by ServiceDefaultsModule; GET /metrics is served by startServiceApp.
 */
@Global()
@Module({})
export class MetricsModule {
  static forService(service: string): DynamicModule {
    return {
      module: MetricsModule,
      imports: [DiscoveryModule],
      providers: [
        { provide: Metrics, useFactory: () => new Metrics(service) },
        {
          provide: MessagingMetrics,
          useFactory: (metrics: Metrics) => new MessagingMetrics(metrics),
          inject: [Metrics],
        },
        {
          provide: MongoCommandMetrics,
          useFactory: (metrics: Metrics) => new MongoCommandMetrics(metrics),
          inject: [Metrics],
        },
        MetricsWiring,
      ],
      exports: [Metrics, MessagingMetrics, MongoCommandMetrics],
    };
  }
}
