import { PATTERNS, type PriceLinesResponse } from '@shop/contracts';
import { RpcClient } from '@shop/nest-common';
import { request, type TestService } from '@shop/nest-common/testing';
import { adminToken, insertProducts, productModel, startCatalog } from './catalog.fixtures';
import { FOREIGN_IMAGE } from '../src/products/dto/product-fields';

/** With ASSET_URL_PREFIX set, every answer's image URLs load from another origin; the database keeps paths. */
describe('catalog: image URLs from the configured public origin', () => {
  const origin = 'https://shop.example.com';
  let svc: TestService;
  let id: string;

  beforeAll(async () => {
    svc = await startCatalog({ ASSET_URL_PREFIX: origin });
    id = (
      await insertProducts(svc, [
        { sku: 'IMG-1', name: 'Packers Cap', price: 20, category: 'Accessories', gender: 'Unisex', brand: 'Acme' },
      ])
    ).get('IMG-1')!;
  }, 60_000);
  afterAll(() => svc.close());

  it('shows absolute URLs in product pages, lists and priced cart lines', async () => {
    const url = `${origin}/uploads/seed/img-1-1.svg`;
    expect((await request(`${svc.url}/api/products/${id}`)).body.images[0].url).toBe(url);
    expect((await request(`${svc.url}/api/products?search=Packers%20Cap`)).body[0].images[0].url).toBe(url);
    const rpc = new RpcClient('catalog', { url: svc.config.RABBITMQ_URL, namespace: svc.namespace, timeoutMs: 10_000 });
    try {
      const priced = await rpc.send<PriceLinesResponse>(PATTERNS.catalog.priceLines, {
        lines: [{ productId: id, quantity: 1 }],
      });
      expect(priced.lines[0].image).toBe(url);
    } finally {
      await rpc.onApplicationShutdown();
    }
  });

  it('stores what an admin sends back as the path it was', async () => {
    const images = [{ url: `${origin}/uploads/seed/img-1-2.svg`, altText: 'Back' }];
    const res = await request(`${svc.url}/api/admin/products/${id}`, {
      method: 'PUT',
      token: adminToken(svc),
      body: { images },
    });
    expect(res.body.images).toEqual(images);
    expect((await productModel(svc).findById(id).lean())!.images[0].url).toBe('/uploads/seed/img-1-2.svg');
  });

  it('refuses, with a 400, an image on another origin, and keeps the product as it was', async () => {
    const before = (await request(`${svc.url}/api/products/${id}`)).body;
    const res = await request(`${svc.url}/api/admin/products/${id}`, {
      method: 'PUT',
      token: adminToken(svc),
      body: { images: [{ url: 'https://images.example.net/cap.jpg', altText: 'Cap' }] },
    });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(FOREIGN_IMAGE);
    expect((await request(`${svc.url}/api/products/${id}`)).body).toEqual(before);
  });
});
