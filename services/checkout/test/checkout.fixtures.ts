// Checkout suites run the real checkout, catalog, identity and orders in this process, in one RabbitMQ namespace, on the
// test servers (MongoDB-wire, Redis, RabbitMQ), with our fake PayPal on a free port: checkout prices and reserves
// through catalog, verifies payments with "PayPal", and has orders make the order.
import { getModelToken } from '@nestjs/mongoose';
import { toPence, type ShippingAddress } from '@shop/contracts';
import { startFakePayPal, type FakePayPal } from '@shop/fake-paypal';
import { request, startTestService, uniqueSuffix, type TestService } from '@shop/nest-common/testing';
import { Types, type Model } from 'mongoose';
// The other services are started here as real processes would run them, never imported by checkout's own code.
import { AppModule as CatalogAppModule } from '../../catalog/src/app.module';
import { AppModule as IdentityAppModule } from '../../identity/src/app.module';
import { AppModule as OrdersAppModule } from '../../orders/src/app.module';
import { AppModule } from '../src/app.module';

export interface Shop {
  checkout: TestService;
  catalog: TestService;
  orders: TestService;
  identity: TestService;
  paypal: FakePayPal;
  close(): Promise<void>;
}

export interface ShopOptions {
  checkoutEnv?: Record<string, string>;
  /** Environment of orders (e.g. a RABBITMQ_URL through a TcpProxy). */
  ordersEnv?: Record<string, string>;
  /** The fake PayPal delivers its webhook events to checkout's listener (retrying quickly). */
  webhooks?: boolean;
}

export async function startShop(options: ShopOptions = {}): Promise<Shop> {
  const namespace = `t${uniqueSuffix()}.`;
  const paypal = await startFakePayPal({ allowAnonymous: false });
  const catalog = await startTestService('catalog', CatalogAppModule, {
    namespace,
    env: { RESERVATION_SWEEP_MS: '200' },
  });
  const identity = await startTestService('identity', IdentityAppModule, { namespace });
  const orders = await startTestService('orders', OrdersAppModule, { namespace, env: options.ordersEnv });
  const checkout = await startTestService('checkout', AppModule, {
    namespace,
    env: {
      PAYPAL_MODE: 'fake',
      PAYPAL_API_BASE: paypal.url,
      PAYPAL_CLIENT_ID: paypal.clientId,
      PAYPAL_CLIENT_SECRET: paypal.clientSecret,
      ...options.checkoutEnv,
    },
  });
  if (options.webhooks) {
    paypal.webhooks.setUrl(`${checkout.url}/api/paypal/webhooks`);
    paypal.webhooks.setRetryDelays([100, 200, 400, 800]);
  }
  return {
    checkout,
    catalog,
    orders,
    identity,
    paypal,
    close: async () => {
      await checkout.close();
      await orders.close();
      await identity.close();
      await catalog.close();
      await paypal.close();
    },
  };
}

export interface ProductSpec {
  price?: number;
  /** The stock of the variant `line()` buys (M in purple); the product's other variants have `otherStock`. */
  countInStock?: number;
  otherStock?: number;
  isPublished?: boolean;
}

const SIZES = ['S', 'M', 'L'];
const COLORS = ['Purple', 'Black'];

/**
 * Inserts a product into the catalog's own database (the catalog then prices and reserves it like any other): sizes
 * S, M, L and colours Purple, Black, each size × colour a variant with SKU `<sku>-<size>-<color>`.
 */
export async function addProduct(shop: Shop, spec: ProductSpec = {}): Promise<string> {
  const products = shop.catalog.app.get<Model<unknown>>(getModelToken('Product'));
  const id = new Types.ObjectId();
  const name = `Ravens Hoodie ${id.toHexString().slice(-5)}`;
  const sku = `SKU-${id.toHexString()}`;
  const variants = SIZES.flatMap((size) =>
    COLORS.map((color) => ({
      sku: `${sku}-${size}-${color}`.toUpperCase(),
      size,
      color,
      countInStock: size === 'M' && color === 'Purple' ? (spec.countInStock ?? 50) : (spec.otherStock ?? 0),
      soldCount: 0,
    })),
  );
  await products.collection.insertOne({
    _id: id,
    name,
    description: `${name}, official team merchandise.`,
    pricePence: toPence(spec.price ?? 25),
    countInStock: variants.reduce((sum, v) => sum + v.countInStock, 0),
    variants,
    sku,
    category: 'Top Wear',
    brand: 'Baltimore Ravens',
    sizes: SIZES,
    colors: COLORS,
    collections: '',
    material: 'Fleece',
    gender: 'Men',
    images: [{ url: `/uploads/seed/${id.toHexString()}.svg`, altText: name }],
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

/** What a shopper would see of the product's stock right now. */
/** Ends the catalog's holds of a checkout at `at` (the past), as if its time had run out; the sweeper then acts. */
export async function expireHolds(shop: Shop, checkoutId: string, at = new Date(Date.now() - 1000)): Promise<void> {
  const products = shop.catalog.app.get<Model<unknown>>(getModelToken('Product'));
  const path = `holds.${checkoutId}`;
  await products.updateMany({ [path]: { $exists: true } }, { $set: { [`${path}.expiresAt`]: at } }).exec();
}

export async function stockOf(shop: Shop, productId: string): Promise<number> {
  const products = shop.catalog.app.get<Model<{ countInStock: number }>>(getModelToken('Product'));
  const product = await products.findById(productId).lean().exec();
  return product!.countInStock;
}

export const newUserId = () => new Types.ObjectId().toHexString();

export const address = (overrides: Partial<ShippingAddress> = {}): ShippingAddress => ({
  firstName: 'Ray',
  lastName: 'Lewis',
  address: '1 Stadium Way',
  city: 'Baltimore',
  postalCode: 'BA1 1AA',
  country: 'United Kingdom',
  phone: '+44 20 7946 0000',
  ...overrides,
});

export const line = (productId: string, quantity = 1) => ({ productId, quantity, size: 'M', color: 'Purple' });

/** A small client for /api/checkout on the checkout service. */
export function checkoutApi(shop: Shop) {
  const url = `${shop.checkout.url}/api/checkout`;
  return {
    create: (body: unknown, token?: string) => request(url, { method: 'POST', body, token }),
    get: (id: string, token?: string) => request(`${url}/${id}`, { token }),
    pay: (id: string, paypalOrderId: unknown, token?: string) =>
      request(`${url}/${id}/pay`, {
        method: 'PUT',
        body: { paymentStatus: 'paid', paymentDetails: { id: paypalOrderId, status: 'COMPLETED' } },
        token,
      }),
    finalize: (id: string, token?: string) => request(`${url}/${id}/finalize`, { method: 'POST', token }),
  };
}
