import { Module } from '@nestjs/common';
import { rpcClientProvider } from '@shop/nest-common';
import { CatalogProducts } from './catalog-products';

/** The catalog as orders reaches it: a RabbitMQ request client. */
@Module({
  providers: [rpcClientProvider('catalog'), CatalogProducts],
  exports: [CatalogProducts],
})
export class CatalogModule {}
