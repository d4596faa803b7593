import { Module } from '@nestjs/common';
import type { ServiceName } from '@shop/contracts';
import { RpcClient, ServiceConfig } from '@shop/nest-common';

/** The services checkout asks over RabbitMQ, one request client each. */
export const CATALOG = Symbol('catalog RpcClient');
export const ORDERS = Symbol('orders RpcClient');
export const IDENTITY = Symbol('identity RpcClient');

const client = (token: symbol, service: ServiceName) => ({
  provide: token,
  inject: [ServiceConfig],
  useFactory: (config: ServiceConfig) =>
    new RpcClient(service, {
      url: config.RABBITMQ_URL,
      namespace: config.RABBITMQ_NAMESPACE,
      timeoutMs: config.RPC_TIMEOUT_MS,
    }),
});

@Module({
  providers: [client(CATALOG, 'catalog'), client(ORDERS, 'orders'), client(IDENTITY, 'identity')],
  exports: [CATALOG, ORDERS, IDENTITY],
})
export class PeersModule {}
