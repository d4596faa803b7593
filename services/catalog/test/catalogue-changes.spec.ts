import { REDIS } from '@shop/nest-common';
import { request, type TestService } from '@shop/nest-common/testing';
import type Redis from 'ioredis';
import { CatalogCache } from '../src/cache/catalog-cache';
import { ProductsService } from '../src/products/products.service';
import { StockService } from '../src/stock/stock.service';
import { eventually, insertProducts, startCatalog } from './catalog.fixtures';

/**
 * A stock write reaches every replica's read model through the change log, and the gateway through the version
 * channel with the surrogate keys it purges: its product only, plus `sales` when units were sold. An admin edit
 * names no keys (it can move a product into any list).
 */
describe('catalog: changes reach every replica and the caches in front', () => {
  let svc: TestService;
  let replica: TestService;
  let id: string;
  const stock = () => svc.app.get(StockService);
  const read = (on: TestService) => request(`${on.url}/api/products/${id}`).then((r) => r.body);

  beforeAll(async () => {
    svc = await startCatalog();
    replica = await startCatalog({ MONGO_URI: svc.config.MONGO_URI }, { namespace: svc.namespace });
    id = (
      await insertProducts(svc, [
        { sku: 'CHG-1', name: 'Ravens Cap', price: 20, category: 'Accessories', gender: 'Unisex', brand: 'Acme' },
      ])
    ).get('CHG-1')!;
  }, 60_000);
  afterAll(async () => {
    await replica.app.close();
    await svc.close();
  });

  it('announces a stock write with its product, a sale with sales too, and an edit with no keys', async () => {
    const key = `${svc.namespace}catalog:version`;
    const subscriber = svc.app.get<Redis>(REDIS).duplicate();
    const heard: string[] = [];
    try {
      await subscriber.subscribe(key);
      subscriber.on('message', (_channel: string, message: string) => heard.push(message));
      await stock().reserve({ checkoutId: 'chg-1', lines: [{ productId: id, quantity: 1 }] });
      await stock().commitOrder({
        orderId: 'o',
        checkoutId: 'chg-1',
        userId: 'u',
        items: [{ productId: id, quantity: 1 }],
      });
      await svc.app.get(ProductsService).update(id, { name: 'Ravens Cap II' });
      await eventually(async () => heard.length >= 3);
      expect(heard.map((m) => m.replace(/^\d+/, 'v'))).toEqual([`v product:${id}`, `v product:${id} sales`, 'v']);
      const versions = heard.map((m) => Number(m.split(' ')[0]));
      expect(versions).toEqual([versions[0], versions[0] + 1, versions[0] + 2]);
    } finally {
      subscriber.disconnect();
    }
  });

  it('shows a stock write and an edit made on one replica on the very next read from another', async () => {
    const before = await read(replica);
    await stock().reserve({ checkoutId: 'chg-2', lines: [{ productId: id, quantity: 2 }] });
    const after = await read(replica);
    expect(after.countInStock).toBe(before.countInStock - 2);
    expect(after).toEqual(await read(svc));
    await svc.app.get(ProductsService).update(id, { price: 12.5 });
    expect((await read(replica)).price).toBe(12.5);
  });

  it('ends every replica on the stock the database holds, when concurrent writes are logged out of their order', async () => {
    const many = (
      await insertProducts(svc, [
        {
          sku: 'CHG-RACE',
          name: 'Race Cap',
          price: 20,
          category: 'Accessories',
          gender: 'Unisex',
          brand: 'Acme',
          countInStock: 50,
        },
      ])
    ).get('CHG-RACE')!;
    const publicStock = async (on: TestService) =>
      (await request(`${on.url}/api/products/${many}`)).body.countInStock as number;
    const start = await publicStock(replica);
    // Each write takes no lock: two may reach the change log in the other order than the database applied them.
    await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        stock().reserve({ checkoutId: `race-${i}`, lines: [{ productId: many, quantity: 1 }] }),
      ),
    );
    const stored = await svc.app
      .get(ProductsService)
      .findAny(many)
      .then((p) => p.countInStock);
    expect(stored).toBe(start - 20);
    expect([await publicStock(svc), await publicStock(replica)]).toEqual([stored, stored]);
    // A write logged late (an older stockVersion) changes nothing on a replica that shows a newer one.
    const changeLog = svc.app.get(CatalogCache);
    await changeLog.stockChanged(
      many,
      { countInStock: start, soldCount: 0, updatedAt: new Date(0).toISOString(), stockVersion: 1 },
      false,
    );
    expect([await publicStock(svc), await publicStock(replica)]).toEqual([stored, stored]);
  });

  it('tags every public read for the caches in front: its products in order, how long they may keep it', async () => {
    const listed = await insertProducts(svc, [
      {
        sku: 'CHG-L1',
        name: 'Listco Scarf "Purple"',
        price: 30,
        category: 'Accessories',
        gender: 'Unisex',
        brand: 'Acme',
      },
      { sku: 'CHG-L2', name: 'Listco Beanie – ü', price: 10, category: 'Accessories', gender: 'Unisex', brand: 'Acme' },
    ]);
    const res = await fetch(`${svc.url}/api/products?search=listco&sortBy=priceAsc`);
    await res.arrayBuffer();
    expect(res.headers.get('surrogate-key')).toBe(`product:${listed.get('CHG-L2')} product:${listed.get('CHG-L1')}`);
    expect(res.headers.get('surrogate-control')).toBe('max-age=300');
    expect(res.headers.get('cache-control')).toBe('public, no-cache');
    const popular = await fetch(`${svc.url}/api/products?search=listco&sortBy=popularity`);
    await popular.arrayBuffer();
    expect(popular.headers.get('surrogate-key')).toMatch(/ sales$/);
  });
});
