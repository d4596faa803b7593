import { Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { isDuplicateKeyError } from '@shop/nest-common';
import type { Model } from 'mongoose';
import { CatalogCache } from '../cache/catalog-cache';
import { ProductLocks } from '../products/product-locks';
import { PRODUCT_PROJECTION } from '../products/product.mapper';
import { Product, type LeanProduct } from '../products/product.schema';
import { MigrationRecord, VARIANTS_MIGRATION } from './migration.schema';
import { VariantSkus } from './variant-skus';
import { hasStoredVariants, legacyVariants, stockOf } from './variants';

export { VARIANTS_MIGRATION };

/**
 * Gives every product stored before variants existed its variants, once per database, at start (issue 22):
 * one per size × colour, default SKUs (claimed in the register; a SKU already taken gets `-2`, `-3`…), today's
 * stock and sales split evenly and deterministically over them (`legacyVariants`). The product's countInStock and
 * soldCount stay as they were.
 *
 * Safe to run on several replicas at once, and to stop half-way: each product is migrated under its lock and only
 * while it has no variants, so a product is migrated once whoever gets there first; the record of the run (unique
 * `_id`) is written at the end, and a start that finds it reads nothing else.
 */
@Injectable()
export class VariantsMigration implements OnModuleInit {
  private readonly logger = new Logger(VariantsMigration.name);

  constructor(
    @InjectModel(Product.name) private readonly products: Model<Product>,
    @InjectModel(MigrationRecord.name) private readonly migrations: Model<MigrationRecord>,
    private readonly locks: ProductLocks,
    private readonly skus: VariantSkus,
    private readonly cache: CatalogCache,
  ) {}

  async onModuleInit(): Promise<void> {
    await this.run();
  }

  /** Runs the migration unless it ran before; the number of products it gave variants. */
  async run(): Promise<number> {
    if (await this.migrations.exists({ _id: VARIANTS_MIGRATION }).exec()) return 0;
    let changed = 0;
    const cursor = this.products
      .find({ $or: [{ variants: { $exists: false } }, { variants: { $size: 0 } }] }, { _id: 1 })
      .lean<Array<{ _id: unknown }>>()
      .cursor({ batchSize: 500 });
    for await (const { _id } of cursor) {
      if (await this.migrateOne(String(_id))) changed++;
    }
    try {
      await this.migrations.create({ _id: VARIANTS_MIGRATION, ranAt: new Date(), changed });
    } catch (err) {
      if (!isDuplicateKeyError(err)) throw err; // another replica finished it at the same moment
    }
    if (changed) {
      this.logger.log(`${VARIANTS_MIGRATION}: ${changed} product(s) given variants`);
      await this.cache.invalidate();
    }
    return changed;
  }

  /** Under the product's lock: gives it its variants unless it has some. True when it did. */
  migrateOne(productId: string): Promise<boolean> {
    return this.locks.withProduct(productId, async () => {
      const product = await this.products.findById(productId, PRODUCT_PROJECTION).lean<LeanProduct>().exec();
      if (!product || hasStoredVariants(product)) return false;
      const variants = legacyVariants(product);
      for (const variant of variants) variant.sku = await this.skus.claimFree(productId, variant.sku);
      await this.products
        .updateOne({ _id: product._id }, { $set: { variants, countInStock: stockOf(variants) } }, { timestamps: false })
        .exec();
      return true;
    });
  }
}
