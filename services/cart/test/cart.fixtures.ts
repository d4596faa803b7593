// Cart suites run the real cart and the real catalog in this process, in one RabbitMQ namespace, on the
// test servers (MongoDB-wire, Redis, RabbitMQ): cart prices every line by asking catalog over RabbitMQ.
import { getModelToken } from '@nestjs/mongoose';
import { toPence, variantCells } from '@shop/contracts';
import { request, startTestService, uniqueSuffix, type TestService } from '@shop/nest-common/testing';
import { EventBus, namespacedExchange } from '@shop/nest-common';
import type Redis from 'ioredis';
import { REDIS } from '@shop/nest-common';
import { Types, type Model } from 'mongoose';
// The catalog is another service: its AppModule is started here as a real process would run it, never
// imported by cart's own code.
import { AppModule as CatalogAppModule } from '../../catalog/src/app.module';
import { AppModule } from '../src/app.module';

export interface Shop {
  cart: TestService;
  catalog: TestService;
  /** A bus in the suite's namespace, to publish what orders and catalog would. */
  bus: EventBus;
  redis: Redis;
  close(): Promise<void>;
}

const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined };

export async function startShop(cartEnv: Record<string, string> = {}): Promise<Shop> {
  const namespace = `t${uniqueSuffix()}.`;
  const catalog = await startTestService('catalog', CatalogAppModule, { namespace });
  const cart = await startTestService('cart', AppModule, { namespace, env: cartEnv });
  const bus = new EventBus({
    url: cart.config.RABBITMQ_URL,
    service: 'test',
    exchange: namespacedExchange(namespace),
    logger: quiet,
  });
  await bus.start();
  return {
    cart,
    catalog,
    bus,
    redis: cart.app.get<Redis>(REDIS),
    close: async () => {
      await bus.close();
      await cart.close();
      // The namespace's exchange goes with the last service of the namespace.
      await catalog.close();
    },
  };
}

export interface ProductSpec {
  name?: string;
  price?: number;
  /** Units of every variant (size × colour); default 50. */
  countInStock?: number;
  sizes?: string[];
  colors?: string[];
  /** Default: one seed picture of the product's own. */
  images?: unknown[];
  isPublished?: boolean;
}

/** Inserts a product into the catalog's own database (the catalog then prices it like any other). */
export async function addProduct(shop: Shop, spec: ProductSpec = {}): Promise<string> {
  const products = shop.catalog.app.get<Model<unknown>>(getModelToken('Product'));
  const id = new Types.ObjectId();
  const name = spec.name ?? `Packers Jersey ${id.toHexString().slice(-5)}`;
  const sizes = spec.sizes ?? ['S', 'M', 'L'];
  const colors = spec.colors ?? ['Green', 'White'];
  const sku = `SKU-${id.toHexString()}`;
  // every variant (size × colour) with the same stock
  const variants = variantCells(sizes, colors).map(({ size, color }) => ({
    sku: [sku, size, color].filter(Boolean).join('-').toUpperCase(),
    size,
    color,
    countInStock: spec.countInStock ?? 50,
    soldCount: 0,
  }));
  await products.collection.insertOne({
    _id: id,
    name,
    description: `${name}, official team merchandise.`,
    pricePence: toPence(spec.price ?? 25),
    countInStock: variants.reduce((sum, v) => sum + v.countInStock, 0),
    sku,
    category: 'Top Wear',
    brand: 'Green Bay Packers',
    sizes,
    colors,
    variants,
    collections: '',
    material: 'Cotton',
    gender: 'Men',
    images: spec.images ?? [{ url: `/uploads/seed/${id.toHexString()}.svg`, altText: name }],
    rating: 4,
    numReviews: 1,
    isFeatured: false,
    isPublished: spec.isPublished ?? true,
    tags: [],
    soldCount: 0,
    holds: {},
    hasHolds: false,
    returnedCheckouts: [],
    stockVersion: 0,
    createdAt: new Date(),
    updatedAt: new Date(),
  });
  return id.toHexString();
}

export const newGuestId = () => `guest_${Date.now()}${uniqueSuffix()}`;
export const newUserId = () => new Types.ObjectId().toHexString();

/** A small client for /api/cart on the cart service. */
export function cartApi(shop: Shop) {
  const url = `${shop.cart.url}/api/cart`;
  const call = (method: string, body: unknown, token?: string) => request(url, { method, body, token });
  return {
    get: (query: string, token?: string) => request(`${url}?${query}`, { token }),
    add: (body: unknown, token?: string) => call('POST', body, token),
    update: (body: unknown, token?: string) => call('PUT', body, token),
    remove: (body: unknown, token?: string) => call('DELETE', body, token),
    merge: (body: unknown, token?: string) => request(`${url}/merge`, { method: 'POST', body, token }),
  };
}
