import { Module } from '@nestjs/common';
import { rpcClientProvider } from '@shop/nest-common';
import { CatalogProducts } from './catalog-products';

/** The catalog as the cart reaches it: a RabbitMQ request client and the in-memory product copy. */
@Module({
  providers: [rpcClientProvider('catalog'), CatalogProducts],
  exports: [CatalogProducts],
})
export class CatalogModule {}
