import { Module } from '@nestjs/common';
import { MongooseModule } from '@nestjs/mongoose';
import { CatalogCache } from '../cache/catalog-cache';
import { CatalogueReadModel } from '../read-model/catalogue-read-model';
import { PublicReads } from '../read-model/public-reads';
import { MigrationRecord, MigrationRecordSchema } from '../variants/migration.schema';
import { VariantSku, VariantSkuSchema } from '../variants/variant-sku.schema';
import { VariantSkus } from '../variants/variant-skus';
import { VariantsMigration } from '../variants/variants.migration';
import { AdminCatalogue } from './admin-catalogue';
import { AdminProductsController } from './admin-products.controller';
import { ProductLocks } from './product-locks';
import { Product, ProductSchema } from './product.schema';
import { ProductsController } from './products.controller';
import { ProductsMessages } from './products.messages';
import { ProductsService } from './products.service';

@Module({
  imports: [
    MongooseModule.forFeature([
      { name: Product.name, schema: ProductSchema },
      { name: VariantSku.name, schema: VariantSkuSchema },
      { name: MigrationRecord.name, schema: MigrationRecordSchema },
    ]),
  ],
  controllers: [ProductsController, AdminProductsController, ProductsMessages],
  providers: [
    ProductsService,
    AdminCatalogue,
    ProductLocks,
    CatalogCache,
    CatalogueReadModel,
    PublicReads,
    VariantSkus,
    VariantsMigration,
  ],
  exports: [ProductsService, ProductLocks, CatalogCache, CatalogueReadModel, MongooseModule],
})
export class ProductsModule {}
