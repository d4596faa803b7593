import { Module } from '@nestjs/common';
import { RpcClient, ServiceConfig } from '@shop/nest-common';
import { CatalogProducts } from './catalog-products';

/** The catalog as orders reaches it: a RabbitMQ request client. */
@Module({
  providers: [
    {
      provide: RpcClient,
      inject: [ServiceConfig],
      useFactory: (config: ServiceConfig) =>
        new RpcClient('catalog', {
          url: config.RABBITMQ_URL,
          namespace: config.RABBITMQ_NAMESPACE,
          timeoutMs: config.RPC_TIMEOUT_MS,
        }),
    },
    CatalogProducts,
  ],
  exports: [CatalogProducts],
})
export class CatalogModule {}
