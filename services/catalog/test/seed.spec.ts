import { getModelToken } from '@nestjs/mongoose';
import { BRANDS, CATEGORIES, FILTER_COLORS, MATERIALS, SIZES, variantCells, type ProductJson } from '@shop/contracts';
import type { Model } from 'mongoose';
import { request, type TestService } from '@shop/nest-common/testing';
import sharp from 'sharp';
import { seedCatalogue, seedDocuments } from '../src/seed/catalogue';
import { VariantSku } from '../src/variants/variant-sku.schema';
import { productModel, startCatalog } from './catalog.fixtures';

describe('catalog: the seeded NFL catalogue', () => {
  let svc: TestService;
  let products: ProductJson[];

  beforeAll(async () => {
    svc = await startCatalog();
    expect((await seedCatalogue(productModel(svc))).inserted).toBeGreaterThanOrEqual(60);
    products = (await request<ProductJson[]>(`${svc.url}/api/products?collection=all`)).body;
  }, 60_000);
  afterAll(() => svc.close());

  it('seeds only an empty catalogue', async () => {
    expect(await seedCatalogue(productModel(svc))).toEqual({ inserted: 0 });
    expect((await request(`${svc.url}/api/products`)).body).toHaveLength(products.length);
  });

  it('lists at least 60 published products across every category, gender, brand, size, colour and material', () => {
    expect(products.length).toBeGreaterThanOrEqual(60);
    const has = (pick: (p: ProductJson) => string[]) => new Set(products.flatMap(pick));
    expect(has((p) => [p.category])).toEqual(new Set(CATEGORIES));
    expect(has((p) => [p.gender])).toEqual(new Set(['Men', 'Women', 'Unisex']));
    expect(has((p) => [p.brand])).toEqual(new Set(BRANDS));
    for (const size of SIZES) expect(has((p) => p.sizes)).toContain(size);
    for (const color of FILTER_COLORS) expect(has((p) => p.colors)).toContain(color);
    for (const material of MATERIALS) expect(has((p) => [p.material])).toContain(material);
    // Every product can go in a cart: it offers at least one size and one colour.
    expect(products.filter((p) => !p.sizes.length || !p.colors.length)).toEqual([]);
  });

  it('fills the home page: 8 women’s tops, new arrivals of different ages, sale prices, and no invented ratings', async () => {
    const womensTops = await request<ProductJson[]>(`${svc.url}/api/products?gender=Women&category=Top%20Wear&limit=8`);
    expect(womensTops.body).toHaveLength(8);
    const arrivals = (await request<ProductJson[]>(`${svc.url}/api/products/new-arrivals`)).body;
    expect(new Set(arrivals.map((p) => p.createdAt.slice(0, 10))).size).toBe(8);
    const onSale = products.filter((p) => p.originalPrice !== undefined);
    expect(onSale.length).toBeGreaterThanOrEqual(5);
    for (const p of onSale) expect(p.originalPrice!).toBeGreaterThan(p.price);
    for (const p of products) {
      // no reviews were written, so none are claimed (issue 27)
      expect(p.rating).toBe(0);
      expect(p.numReviews).toBe(0);
      expect(p.description.length).toBeGreaterThan(30);
      expect(Number(p.price.toFixed(2))).toBe(p.price); // two decimals at most
    }
    expect((await request(`${svc.url}/api/products/best-seller`)).status).toBe(200);
  });

  it('gives every product its variants with realistic, uneven stock: some sold out, some nearly', async () => {
    const variants = products.flatMap((p) => p.variants);
    for (const p of products) {
      expect(p.variants.map((v) => [v.size, v.color])).toEqual(
        variantCells(p.sizes, p.colors).map((c) => [c.size, c.color]),
      );
      expect(p.countInStock).toBe(p.variants.reduce((sum, v) => sum + v.countInStock, 0));
      for (const v of p.variants) expect(v.sku).toBe([p.sku, v.size, v.color].filter(Boolean).join('-').toUpperCase());
      // What the storefront offers first (the team colour in M, or the only size) can always be bought.
      const first = p.variants.find((v) => v.color === p.colors[0] && (v.size === 'M' || !p.sizes.includes('M')));
      expect([p.sku, first!.countInStock >= 1]).toEqual([p.sku, true]);
    }
    const soldOut = variants.filter((v) => v.countInStock === 0);
    const nearly = variants.filter((v) => v.countInStock >= 1 && v.countInStock <= 5);
    expect(soldOut.length).toBeGreaterThanOrEqual(variants.length / 20);
    expect(nearly.length).toBeGreaterThanOrEqual(variants.length / 20);
    expect(new Set(variants.map((v) => v.countInStock)).size).toBeGreaterThan(15);
    // No product is sold out altogether, and every variant SKU is unique and registered.
    expect(products.filter((p) => p.countInStock === 0)).toEqual([]);
    expect(new Set(variants.map((v) => v.sku)).size).toBe(variants.length);
    const register = svc.app.get<Model<VariantSku>>(getModelToken(VariantSku.name));
    expect(await register.countDocuments({ _id: { $in: variants.map((v) => v.sku) } })).toBe(variants.length);
    // The same on every run.
    const again = seedDocuments().map((d) => d.variants.map((v) => v.countInStock));
    expect(again).toEqual(seedDocuments().map((d) => d.variants.map((v) => v.countInStock)));
  });

  it('gives every product a gallery of local images, and every image URL answers 200 with a drawable SVG', async () => {
    const urls = products.flatMap((p) => {
      expect(p.images.length).toBeGreaterThanOrEqual(3);
      return p.images.map((i) => {
        expect(i.altText).toContain(p.name);
        return i.url;
      });
    });
    for (const url of urls) expect(url).toMatch(/^\/uploads\/seed\/[a-z0-9-]+-\d\.svg$/);
    for (const url of urls) {
      const res = await fetch(`${svc.url}${url}`);
      expect([url, res.status, res.headers.get('content-type')]).toEqual([url, 200, 'image/svg+xml; charset=utf-8']);
      const meta = await sharp(Buffer.from(await res.arrayBuffer())).metadata();
      expect([url, meta.format, meta.width]).toEqual([url, 'svg', 800]);
    }
    expect((await fetch(`${svc.url}/uploads/seed/nothing-here-1.svg`)).status).toBe(404);
  });

  it('serves seed art with a no-script CSP and an ETag, and 304 to a client holding it', async () => {
    const url = `${svc.url}${products[0].images[0].url}`;
    const res = await fetch(url);
    await res.arrayBuffer();
    expect(res.headers.get('content-security-policy')).toBe("default-src 'none'; style-src 'unsafe-inline'");
    expect(res.headers.get('cache-control')).toBe('public, max-age=86400');
    const etag = res.headers.get('etag');
    expect(etag).toMatch(/^"[\w-]+"$/);
    const again = await fetch(url, { headers: { 'if-none-match': etag! } });
    expect([again.status, again.headers.get('etag'), await again.text()]).toEqual([304, etag, '']);
  });
});
