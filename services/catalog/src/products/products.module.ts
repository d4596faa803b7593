import { Module } from '@nestjs/common';
import { MongooseModule } from '@nestjs/mongoose';
import { CatalogCache } from '../cache/catalog-cache';
import { CatalogueReadModel } from '../read-model/catalogue-read-model';
import { PublicReads } from '../read-model/public-reads';
import { AdminProductsController } from './admin-products.controller';
import { ProductLocks } from './product-locks';
import { Product, ProductSchema } from './product.schema';
import { ProductsController } from './products.controller';
import { ProductsMessages } from './products.messages';
import { ProductsService } from './products.service';

@Module({
  imports: [MongooseModule.forFeature([{ name: Product.name, schema: ProductSchema }])],
  controllers: [ProductsController, AdminProductsController, ProductsMessages],
  providers: [ProductsService, ProductLocks, CatalogCache, CatalogueReadModel, PublicReads],
  exports: [ProductsService, ProductLocks, CatalogCache, CatalogueReadModel, MongooseModule],
})
export class ProductsModule {}
