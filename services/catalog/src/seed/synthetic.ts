import { COLORS, SIZES } from '@shop/contracts';
import { seededRandom } from '@shop/nest-common';
import { Types, type Model } from 'mongoose';
import type { Product } from '../products/product.schema';
import { stockOf } from '../variants/variants';
import { registerVariantSkus, seedDocuments, seedVariants } from './catalogue';

/**
 * A large synthetic catalogue, for benchmarks only (`seed.main --synthetic=<count>`; `npm start` never makes one):
 * the seed's products, varied — another name and description, price, date, rating, sales, sizes and colours —
 * deterministically from the product's number, so every run builds the same catalogue. Category, gender, brand,
 * material, collection and images stay those of the seed product it varies, so filters stay realistic.
 */
const EDITIONS = ['Classic', 'Pro', 'Retro', 'Elite', 'Heritage', 'Limited', 'Vintage', 'Street', 'Training', 'Fan'];
const FINISHES = ['brushed', 'washed', 'ripstop', 'tri-blend', 'waffle-knit', 'quilted', 'stretch', 'recycled'];
const BATCH = 1000;

function someOf<T>(values: readonly T[], next: () => number): T[] {
  const picked = values.filter(() => next() < 0.4);
  return picked.length ? picked : [values[Math.floor(next() * values.length)]];
}

type SeedDocument = ReturnType<typeof seedDocuments>[number];

/** Product number `n` of the synthetic catalogue, varied from a seed document (its _id is given when inserted). */
export function syntheticDocument(from: SeedDocument, n: number, now: number) {
  const next = seededRandom(n + 1);
  const edition = EDITIONS[Math.floor(next() * EDITIONS.length)];
  const finish = FINISHES[Math.floor(next() * FINISHES.length)];
  const pricePence = 500 + Math.floor(next() * 19_500);
  const at = new Date(now - Math.floor(next() * 730 * 86_400_000));
  // Drawn in the order the catalogue has always been drawn in, so a number gives the product it always gave.
  const originalPricePence = next() < 0.15 ? pricePence + 500 + Math.floor(next() * 3000) : undefined;
  const countInStock = Math.floor(next() * 200);
  const sku = `SYN-${String(n).padStart(7, '0')}`;
  const sizes = from.sizes.length ? someOf(SIZES, next) : [];
  const colors = someOf(COLORS, next);
  const variants = seedVariants({ sku, sizes, colors, countInStock });
  return {
    name: `${from.name} ${edition} #${n}`,
    description: `${from.description} ${edition} edition in ${finish} fabric.`,
    pricePence,
    ...(originalPricePence !== undefined ? { originalPricePence } : {}),
    countInStock: stockOf(variants),
    variants,
    sku,
    category: from.category,
    brand: from.brand,
    sizes,
    colors,
    collections: from.collections,
    material: from.material,
    gender: from.gender,
    images: from.images,
    rating: Math.round(10 + next() * 40) / 10,
    numReviews: Math.floor(next() * 500),
    isFeatured: false,
    isPublished: true,
    tags: from.tags,
    soldCount: Math.floor(next() * next() * 1000),
    holds: {},
    hasHolds: false,
    returnedCheckouts: [],
    stockVersion: 0,
    createdAt: at,
    updatedAt: at,
  };
}

/** Inserts `count` synthetic products into an empty products collection; does nothing when any product exists. */
export async function seedSynthetic(products: Model<Product>, count: number): Promise<{ inserted: number }> {
  await products.init();
  if ((await products.estimatedDocumentCount()) > 0) return { inserted: 0 };
  const now = Date.now();
  const seeds = seedDocuments(now);
  for (let start = 0; start < count; start += BATCH) {
    const docs = [];
    for (let n = start; n < Math.min(count, start + BATCH); n++) {
      docs.push(syntheticDocument(seeds[n % seeds.length], n, now));
    }
    await products.validate(docs[0]); // one per batch: the rest are made the same way
    const withIds = docs.map((doc) => ({ _id: new Types.ObjectId(), ...doc }));
    await registerVariantSkus(products, withIds);
    await products.collection.insertMany(withIds);
  }
  return { inserted: count };
}
