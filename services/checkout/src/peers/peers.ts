import { Module } from '@nestjs/common';
import { rpcClientProvider } from '@shop/nest-common';

/** The services checkout asks over RabbitMQ, one request client each. */
export const CATALOG = Symbol('catalog RpcClient');
export const ORDERS = Symbol('orders RpcClient');
export const IDENTITY = Symbol('identity RpcClient');

@Module({
  providers: [
    rpcClientProvider('catalog', CATALOG),
    rpcClientProvider('orders', ORDERS),
    rpcClientProvider('identity', IDENTITY),
  ],
  exports: [CATALOG, ORDERS, IDENTITY],
})
export class PeersModule {}
