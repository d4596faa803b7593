import 'reflect-metadata';
import { CATEGORIES } from '@shop/contracts';
import { createRedis, loadConfig } from '@shop/nest-common';
import mongoose from 'mongoose';
import fs from 'node:fs';
import { CatalogConfig } from '../config/catalog.config';
import { Product, ProductSchema } from '../products/product.schema';
import { seedCatalogue, SEED_ART_PATH } from './catalogue';
import { SEED_PRODUCTS } from './products.data';

/**
 * `node dist/seed/seed.main.js` (same environment as the service): seeds the NFL catalogue when the
 * products collection is empty; otherwise changes nothing. Images are drawn by the service itself
 * (GET /uploads/seed/*.svg), so nothing is downloaded or written besides the upload directory.
 */
async function main() {
  const config = loadConfig(CatalogConfig);
  fs.mkdirSync(config.UPLOAD_DIR, { recursive: true });
  const connection = await mongoose.createConnection(config.MONGO_URI, { serverSelectionTimeoutMS: 5000 }).asPromise();
  try {
    const products = connection.model(Product.name, ProductSchema);
    const { inserted } = await seedCatalogue(products);
    if (inserted === 0) {
      console.log(`catalog: ${await products.estimatedDocumentCount()} products exist, nothing seeded`);
      return;
    }
    const perCategory = CATEGORIES.map((c) => `${SEED_PRODUCTS.filter((p) => p.category === c).length} ${c}`).join(
      ', ',
    );
    console.log(`catalog: seeded ${inserted} products (${perCategory}), 3 images each under ${SEED_ART_PATH}/`);
    await bumpCatalogVersion(config);
  } finally {
    await connection.close();
  }
}

/** A catalog already running keeps serving its cached (empty) lists unless the version moves. */
async function bumpCatalogVersion(config: CatalogConfig): Promise<void> {
  const redis = createRedis(config.REDIS_URL);
  try {
    const key = `${config.RABBITMQ_NAMESPACE}catalog:version`;
    await redis.publish(key, String(await redis.incr(key)));
  } catch {
    // Redis away: a catalog that is not running has nothing cached anyway.
  } finally {
    redis.disconnect();
  }
}

main().catch((err: Error) => {
  console.error(`catalog seed failed: ${err.message}`);
  process.exit(1);
});
