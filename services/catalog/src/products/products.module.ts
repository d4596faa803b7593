import { MiddlewareConsumer, Module, NestModule } from '@nestjs/common';
import { MongooseModule } from '@nestjs/mongoose';
import { CatalogCache } from '../cache/catalog-cache';
import { AdminProductsController } from './admin-products.controller';
import { CachedReadsMiddleware } from './cached-reads.middleware';
import { ProductLocks } from './product-locks';
import { Product, ProductSchema } from './product.schema';
import { ProductsController } from './products.controller';
import { ProductsMessages } from './products.messages';
import { ProductsService } from './products.service';

@Module({
  imports: [MongooseModule.forFeature([{ name: Product.name, schema: ProductSchema }])],
  controllers: [ProductsController, AdminProductsController, ProductsMessages],
  providers: [ProductsService, ProductLocks, CatalogCache],
  exports: [ProductsService, ProductLocks, CatalogCache, MongooseModule],
})
export class ProductsModule implements NestModule {
  configure(consumer: MiddlewareConsumer): void {
    consumer.apply(CachedReadsMiddleware).forRoutes(ProductsController);
  }
}
