import { getModelToken } from '@nestjs/mongoose';
import { toPence } from '@shop/contracts';
import { consumerTopology } from '@shop/nest-common';
import amqp from 'amqplib';
import { startTestService, type TestService, type TestServiceOptions } from '@shop/nest-common/testing';
import { Types, type Model } from 'mongoose';
// Checkout is started here as a real process would run it, never imported by catalog's own code.
import { AppModule as CheckoutAppModule } from '../../checkout/src/app.module';
import { AppModule } from '../src/app.module';
import { CatalogCache } from '../src/cache/catalog-cache';
import { Product } from '../src/products/product.schema';
import { registerVariantSkus } from '../src/seed/catalogue';
import { legacyVariants, stockOf, type StoredVariant } from '../src/variants/variants';

export const ADMIN_ID = '64b7f9f9f9f9f9f9f9f9f9f9';
export const CUSTOMER_ID = '64b7f9f9f9f9f9f9f9f9f9fa';

/**
 * Starts the catalog against the test servers. `close()` also deletes the event queues the service
 * declared (the harness deletes only the request queue and the exchange).
 */
export async function startCatalog(
  env: Record<string, string> = {},
  options: Omit<TestServiceOptions, 'env'> = {},
): Promise<TestService> {
  const svc = await startTestService('catalog', AppModule, { ...options, env });
  const close = svc.close;
  svc.close = async () => {
    await close();
    await deleteConsumerTopology(svc.config.RABBITMQ_URL, `${svc.namespace}catalog.events`);
  };
  return svc;
}

/**
 * The real checkout service in the catalog's RabbitMQ namespace, as a process would run it: what the catalog's
 * sweeper asks before it gives back an expired hold (an id no checkout has is answered "release").
 */
export async function startCheckout(catalog: TestService): Promise<TestService> {
  return startTestService('checkout', CheckoutAppModule, {
    namespace: catalog.namespace,
    env: { PAYPAL_MODE: 'fake' },
  });
}

/** Deletes a consumer queue of the event bus with its retry queue, dead-letter queue and exchange. */
export async function deleteConsumerTopology(url: string, queue: string): Promise<void> {
  const { retryQueue, dlq, dlx } = consumerTopology(queue);
  const connection = await amqp.connect(url);
  try {
    const channel = await connection.createChannel();
    for (const q of [queue, retryQueue, dlq]) await channel.deleteQueue(q);
    await channel.deleteExchange(dlx);
    await channel.close();
  } finally {
    await connection.close();
  }
}

export function adminToken(svc: TestService): string {
  return svc.token({ id: ADMIN_ID, role: 'admin', name: 'Ada Admin' });
}

export function customerToken(svc: TestService): string {
  return svc.token({ id: CUSTOMER_ID, role: 'customer', name: 'Casey Customer' });
}

export function productModel(svc: TestService): Model<Product> {
  return svc.app.get<Model<Product>>(getModelToken(Product.name));
}

/** A product as a fixture row: pounds, and how many days ago it was added. */
export interface ProductFixture {
  sku: string;
  name: string;
  description?: string;
  price: number;
  originalPrice?: number;
  category: string;
  gender: string;
  brand: string;
  sizes?: string[];
  colors?: string[];
  material?: string;
  collections?: string;
  rating?: number;
  numReviews?: number;
  daysAgo?: number;
  isPublished?: boolean;
  /** Split evenly over the variants unless `variants` says otherwise. */
  countInStock?: number;
  soldCount?: number;
  /** Stock per size × colour (the rest split `countInStock` evenly), e.g. `{ 'M/Purple': 1 }`; '-' for none. */
  stock?: Record<string, number>;
  /** Stored without variants, as before the migration. */
  legacy?: boolean;
}

/** The fixture's variants: its countInStock split evenly, then the cells `stock` names set as it says. */
export function fixtureVariants(f: ProductFixture): StoredVariant[] {
  const variants = legacyVariants({
    sku: f.sku,
    sizes: f.sizes ?? [],
    colors: f.colors ?? [],
    countInStock: f.countInStock ?? 10,
    soldCount: f.soldCount ?? 0,
  });
  for (const [cell, n] of Object.entries(f.stock ?? {})) {
    const [size, color] = cell.split('/').map((part) => (part === '-' ? null : part));
    const variant = variants.find((v) => v.size === size && v.color === (color ?? null));
    if (!variant) throw new Error(`fixture ${f.sku}: no variant ${cell}`);
    variant.countInStock = n;
  }
  return variants;
}

/**
 * Inserts fixtures straight into the products collection (so createdAt and sales are what the test
 * says), with their variants (their SKUs registered) unless `legacy`, then turns the read cache over as a write
 * through the API would.
 */
export async function insertProducts(svc: TestService, fixtures: ProductFixture[]): Promise<Map<string, string>> {
  const now = Date.now();
  const docs = fixtures.map((f) => {
    const at = new Date(now - (f.daysAgo ?? 0) * 86_400_000);
    const variants = fixtureVariants(f);
    return {
      _id: new Types.ObjectId(),
      name: f.name,
      description: f.description ?? `${f.name}, official team merchandise.`,
      pricePence: toPence(f.price),
      ...(f.originalPrice !== undefined ? { originalPricePence: toPence(f.originalPrice) } : {}),
      countInStock: f.legacy ? (f.countInStock ?? 10) : stockOf(variants),
      ...(f.legacy ? {} : { variants }),
      sku: f.sku,
      category: f.category,
      brand: f.brand,
      sizes: f.sizes ?? [],
      colors: f.colors ?? [],
      collections: f.collections ?? '',
      material: f.material ?? '',
      gender: f.gender,
      images: [{ url: `/uploads/seed/${f.sku.toLowerCase()}-1.svg`, altText: f.name }],
      rating: f.rating ?? 4,
      numReviews: f.numReviews ?? 10,
      isFeatured: false,
      isPublished: f.isPublished ?? true,
      tags: [],
      soldCount: f.soldCount ?? 0,
      holds: {},
      hasHolds: false,
      returnedCheckouts: [],
      stockVersion: 0,
      createdAt: at,
      updatedAt: at,
    };
  });
  const withVariants = docs.filter((d): d is typeof d & { variants: StoredVariant[] } => 'variants' in d);
  await registerVariantSkus(productModel(svc), withVariants);
  if (docs.length) await productModel(svc).collection.insertMany(docs);
  await svc.app.get(CatalogCache).invalidate();
  return new Map(docs.map((d) => [d.sku, String(d._id)]));
}

/** A minimal valid body for POST /api/admin/products. */
export function newProductBody(overrides: Record<string, unknown> = {}) {
  return {
    name: 'Ravens Home Game Jersey',
    description: 'Purple home jersey with stitched numbers.',
    price: 89.99,
    category: 'Top Wear',
    gender: 'Men',
    brand: 'Baltimore Ravens',
    sizes: ['S', 'M', 'L'],
    colors: ['Purple', 'Black'],
    material: 'Polyester',
    collections: 'Game Day',
    variants: [
      { size: 'S', color: 'Purple', countInStock: 1 },
      { size: 'M', color: 'Purple', countInStock: 2 },
      { size: 'L', color: 'Black', countInStock: 2 },
    ],
    images: [{ url: '/uploads/seed/ravens.svg', altText: 'Ravens jersey' }],
    ...overrides,
  };
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls until `check` returns a truthy value or the time is up. */
export async function eventually<T>(check: () => Promise<T | undefined | null | false>, timeoutMs = 8000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await sleep(100);
  }
}

/** For test-side event buses: their connection chatter is not what a suite is about. */
export const quietLogger = { info: () => undefined, warn: () => undefined, error: () => undefined };
