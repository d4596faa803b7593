import 'reflect-metadata';
import { CATEGORIES } from '@shop/contracts';
import { createRedis, loadConfig } from '@shop/nest-common';
import mongoose from 'mongoose';
import fs from 'node:fs';
import { recordChange } from '../cache/catalog-cache';
import { CatalogConfig } from '../config/catalog.config';
import { Product, ProductSchema } from '../products/product.schema';
import { MigrationRecord, MigrationRecordSchema, PRODUCT_MIGRATIONS } from '../variants/migration.schema';
import { seedCatalogue, SEED_ART_PATH } from './catalogue';
import { SEED_PRODUCTS } from './products.data';
import { seedSynthetic } from './synthetic';

/**
 * `node dist/seed/seed.main.js` (same environment as the service): seeds the NFL catalogue when the
 * products collection is empty; otherwise changes nothing. Images are drawn by the service itself
 * (GET /uploads/seed/*.svg), so nothing is downloaded or written besides the upload directory.
 *
 * `--synthetic=<count>` seeds that many synthetic products instead (see synthetic.ts): for benchmarks only.
 */
async function main() {
  const config = loadConfig(CatalogConfig);
  const synthetic = /^--synthetic=(\d+)$/.exec(process.argv[2] ?? '');
  fs.mkdirSync(config.UPLOAD_DIR, { recursive: true });
  const connection = await mongoose.createConnection(config.MONGO_URI, { serverSelectionTimeoutMS: 5000 }).asPromise();
  try {
    const products = connection.model(Product.name, ProductSchema);
    const { inserted } = synthetic
      ? await seedSynthetic(products, Number(synthetic[1]))
      : await seedCatalogue(products);
    if (inserted === 0) {
      console.log(`catalog: ${await products.estimatedDocumentCount()} products exist, nothing seeded`);
      return;
    }
    const perCategory = CATEGORIES.map((c) => `${SEED_PRODUCTS.filter((p) => p.category === c).length} ${c}`).join(
      ', ',
    );
    console.log(
      synthetic
        ? `catalog: seeded ${inserted} synthetic products`
        : `catalog: seeded ${inserted} products (${perCategory}), 3 images each under ${SEED_ART_PATH}/`,
    );
    await recordMigrationsRun(connection.model(MigrationRecord.name, MigrationRecordSchema));
    await bumpCatalogVersion(config);
  } finally {
    await connection.close();
  }
}

/** The products were written in today's shape: the product migrations have nothing to do (migration.schema.ts). */
async function recordMigrationsRun(migrations: mongoose.Model<MigrationRecord>): Promise<void> {
  const ranAt = new Date();
  for (const _id of PRODUCT_MIGRATIONS) {
    // a catalog that started on the empty collection may have recorded one already
    await migrations.updateOne({ _id }, { $setOnInsert: { ranAt, changed: 0 } }, { upsert: true }).exec();
  }
}

/** A catalog already running keeps serving its (empty) catalogue unless told that everything changed. */
async function bumpCatalogVersion(config: CatalogConfig): Promise<void> {
  const redis = createRedis(config.REDIS_URL);
  try {
    await recordChange(redis, config.RABBITMQ_NAMESPACE, { all: true });
  } catch {
    // Redis away: a catalog that is not running loads the catalogue when it starts.
  } finally {
    redis.disconnect();
  }
}

main().catch((err: Error) => {
  console.error(`catalog seed failed: ${err.message}`);
  process.exit(1);
});
