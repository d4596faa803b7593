// How the cart leans on the catalog: prices from it, a copy kept per replica and dropped on its events,
// and a clear 503 — with the cart untouched — when it cannot be asked.
import { getModelToken } from '@nestjs/mongoose';
import { EVENTS } from '@shop/contracts';
import { startTestService, waitFor } from '@shop/nest-common/testing';
import { Types, type Model } from 'mongoose';
import amqp from 'amqplib';
import { CatalogCache } from '../../catalog/src/cache/catalog-cache';
import { AppModule as CartAppModule } from '../src/app.module';
import { CatalogProducts } from '../src/catalog/catalog-products';
import { addProduct, cartApi, newGuestId, startShop, type Shop } from './cart.fixtures';

async function deleteQueue(url: string, queue: string): Promise<void> {
  const connection = await amqp.connect(url);
  try {
    const channel = await connection.createChannel();
    await channel.deleteQueue(queue);
  } finally {
    await connection.close();
  }
}

describe('cart and the catalog', () => {
  let shop: Shop;
  let api: ReturnType<typeof cartApi>;
  beforeAll(async () => {
    shop = await startShop({ PRODUCT_CACHE_TTL_MS: '600000' });
    api = cartApi(shop);
  });
  afterAll(() => shop?.close());

  const line = (productId: string, guestId: string, quantity = 1) => ({
    productId,
    quantity,
    size: 'M',
    color: 'Green',
    guestId,
  });

  it('prices from its copy until catalog announces a change to that product, on every replica', async () => {
    const id = await addProduct(shop, { price: 12 });
    const other = await addProduct(shop, { price: 7 });
    const guestId = newGuestId();
    await api.add(line(id, guestId, 2));
    await api.add(line(other, guestId));
    expect((await api.get(`guestId=${guestId}`)).body.totalPrice).toBe(31);

    // A change behind the catalog's back (no event): the copy is kept, as the long TTL says.
    const model = shop.catalog.app.get<Model<unknown>>(getModelToken('Product'));
    await model.collection.updateOne({ _id: new Types.ObjectId(id) }, { $set: { pricePence: 1500 } });
    expect((await api.get(`guestId=${guestId}`)).body.totalPrice).toBe(31);

    // The catalog's own record of the edit (what its read model follows) and its event for that product: the next
    // read asks again; the other product's copy stays.
    await shop.catalog.app.get(CatalogCache).productsEdited([id]);
    await shop.bus.publish(EVENTS.catalog.productChanged, { productId: id });
    await waitFor(
      'the new price in the cart',
      async () => (await api.get(`guestId=${guestId}`)).body.totalPrice === 37,
    );
    const cache = shop.cart.app.get(CatalogProducts);
    const fetched = jest.spyOn(cache as unknown as { request: (ids: string[]) => unknown }, 'request');
    await api.get(`guestId=${guestId}`);
    expect(fetched).not.toHaveBeenCalled();
    fetched.mockRestore();
  });

  it('answers a clear 503 when the catalog cannot be asked, and leaves the cart as it was', async () => {
    // A cart whose catalog never answers: nothing consumes the catalog's request queue in its namespace.
    const alone = await startTestService('cart', CartAppModule, {
      env: { RPC_TIMEOUT_MS: '1000' },
    });
    const lonely = cartApi({ ...shop, cart: alone });
    const guestId = newGuestId();
    const key = `${alone.namespace}cart:guest:${guestId}`;
    const stored = {
      cartId: 'c1',
      lines: [{ productId: '64b7f9f9f9f9f9f9f9f9f9f9', size: 'M', color: 'Green', quantity: 2 }],
      mergedCarts: [],
      appliedOrders: [],
      createdAt: new Date().toISOString(),
      updatedAt: new Date().toISOString(),
    };
    await shop.redis.set(key, JSON.stringify(stored), 'EX', 600);
    try {
      const started = Date.now();
      const add = await lonely.add(line('64b7f9f9f9f9f9f9f9f9f9fa', guestId));
      expect(add.status).toBe(503);
      expect(add.body).toEqual({ statusCode: 503, message: 'Catalog service is unavailable' });
      expect(Date.now() - started).toBeLessThan(3000);
      expect((await lonely.update(line('64b7f9f9f9f9f9f9f9f9f9f9', guestId, 1))).status).toBe(503);
      expect((await lonely.remove(line('64b7f9f9f9f9f9f9f9f9f9f9', guestId))).status).toBe(503);
      expect((await lonely.get(`guestId=${guestId}`)).status).toBe(503);
      expect(JSON.parse((await shop.redis.get(key))!)).toEqual(stored);
    } finally {
      await shop.redis.del(key);
      await alone.close();
      await deleteQueue(alone.config.RABBITMQ_URL, `${alone.namespace}catalog_queue`);
    }
  });
});
