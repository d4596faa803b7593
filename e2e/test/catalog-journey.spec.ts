// The catalogue through the gateway of the running shop: the seeded NFL catalogue, its offline images, an
// admin's edit visible on the very next read (through both caches), and an upload that streams through.
import sharp from 'sharp';
import { api, e2eEnv, expectJsonError, login, variantStock, type E2eEnv } from './support';

jest.setTimeout(60_000);

interface Product {
  _id: string;
  name: string;
  price: number;
  countInStock: number;
  variants: Array<{ sku: string; size: string | null; color: string | null; countInStock: number }>;
  images: Array<{ url: string; altText: string }>;
}

describe('catalogue journey through the gateway', () => {
  let env: E2eEnv;
  let adminToken: string;

  beforeAll(async () => {
    env = e2eEnv();
    const admin = login(env, 'admin');
    const res = await api(env.baseUrl, 'POST', '/api/users/login', {
      json: { email: admin.email, password: admin.password },
    });
    adminToken = res.body.token;
  });

  it('lists at least 60 seeded products, and every image loads', async () => {
    const res = await api(env.baseUrl, 'GET', '/api/products?collection=all');
    expect(res.status).toBe(200);
    const products = res.body as Product[];
    expect(products.length).toBeGreaterThanOrEqual(60);
    const urls = [...new Set(products.flatMap((p) => p.images.map((i) => i.url)))];
    expect(urls.length).toBeGreaterThanOrEqual(products.length);
    for (const url of urls) {
      expect(url).toMatch(/^\/uploads\//); // served by the shop itself: no hot-linking
      const image = await fetch(`${env.baseUrl}${url}`);
      expect({ url, status: image.status }).toEqual({ url, status: 200 });
      expect(image.headers.get('content-type')).toMatch(/^image\//);
      await image.arrayBuffer();
    }
  });

  it('filters and sorts through the gateway, and answers bad filters with 400 JSON', async () => {
    const women = await api(env.baseUrl, 'GET', '/api/products?gender=Women&category=Top%20Wear&limit=8');
    expect(women.status).toBe(200);
    expect(women.body).toHaveLength(8);
    const cheapFirst = (await api(env.baseUrl, 'GET', '/api/products?sortBy=priceAsc')).body as Product[];
    expect(cheapFirst.map((p) => p.price)).toEqual([...cheapFirst.map((p) => p.price)].sort((a, b) => a - b));
    expectJsonError(await api(env.baseUrl, 'GET', '/api/products?gender[$ne]=x'), 400);
    expectJsonError(await api(env.baseUrl, 'GET', '/api/products?minPrice=cheap'), 400);
    expectJsonError(await api(env.baseUrl, 'GET', '/api/products/not-an-id'), 400);
  });

  it('shows an admin’s edit on the very next read, and answers 304 to a client that has it', async () => {
    const list = (await api(env.baseUrl, 'GET', '/api/products?sortBy=priceDesc&limit=1')).body as Product[];
    const product = list[0];
    const before = await fetch(`${env.baseUrl}/api/products/${product._id}`);
    const etag = before.headers.get('etag');
    expect(etag).toBeTruthy();
    expect(
      (await fetch(`${env.baseUrl}/api/products/${product._id}`, { headers: { 'If-None-Match': etag! } })).status,
    ).toBe(304);

    // Stock is set per variant (issue 22): 7 more of one variant; the product's countInStock is the variants' sum.
    const [variant] = product.variants;
    const updated = await api(env.baseUrl, 'PUT', `/api/admin/products/${product._id}`, {
      token: adminToken,
      json: { variants: [{ size: variant.size, color: variant.color, countInStock: variant.countInStock + 7 }] },
    });
    expect(updated.status).toBe(200);
    const after = await api(env.baseUrl, 'GET', `/api/products/${product._id}`);
    expect(after.body.countInStock).toBe(product.countInStock + 7);
    expect(variantStock(after.body, variant.size, variant.color)).toBe(variant.countInStock + 7);
    expect(after.headers.get('etag')).not.toBe(etag);
    const listed = (await api(env.baseUrl, 'GET', '/api/products?sortBy=priceDesc&limit=1')).body as Product[];
    expect(listed[0].countInStock).toBe(product.countInStock + 7);
    expect(variantStock(listed[0], variant.size, variant.color)).toBe(variant.countInStock + 7);
  });

  it('refuses a bare countInStock for a product with several variants (400: send variants), and changes nothing', async () => {
    // a seeded jersey (the dearest products are seeded ones: the other suites make cheaper ones, side by side)
    const list = (await api(env.baseUrl, 'GET', '/api/products?sortBy=priceDesc&limit=5')).body as Product[];
    const product = list.find((p) => p.variants.length > 1);
    if (!product) throw new Error('no seeded product among the 5 dearest has several variants');
    const refused = await api(env.baseUrl, 'PUT', `/api/admin/products/${product._id}`, {
      token: adminToken,
      json: { countInStock: product.countInStock + 7 },
    });
    expectJsonError(refused, 400);
    expect(refused.body.message).toMatch(/variants/);
    const after = await api(env.baseUrl, 'GET', `/api/products/${product._id}`);
    expect({ countInStock: after.body.countInStock, variants: after.body.variants }).toEqual({
      countInStock: product.countInStock,
      variants: product.variants,
    });
  });

  it('keeps admin routes for admins', async () => {
    expectJsonError(await api(env.baseUrl, 'GET', '/api/admin/products'), 401);
    const customer = login(env, 'customer');
    const token = (
      await api(env.baseUrl, 'POST', '/api/users/login', {
        json: { email: customer.email, password: customer.password },
      })
    ).body.token;
    expectJsonError(await api(env.baseUrl, 'POST', '/api/admin/products', { token, json: { name: 'x' } }), 403);
  });

  it('takes an image upload through the gateway and serves it back', async () => {
    const png = await sharp({ create: { width: 40, height: 30, channels: 3, background: '#203731' } })
      .png()
      .toBuffer();
    const form = new FormData();
    form.append('image', new Blob([png], { type: 'image/png' }), 'packers.png');
    const res = await fetch(`${env.baseUrl}/api/upload`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${adminToken}` },
      body: form,
    });
    expect(res.status).toBe(201);
    const { imageUrl } = (await res.json()) as { imageUrl: string };
    const image = await fetch(`${env.baseUrl}${imageUrl}`);
    expect(image.status).toBe(200);
    const meta = await sharp(Buffer.from(await image.arrayBuffer())).metadata();
    expect({ width: meta.width, height: meta.height }).toEqual({ width: 40, height: 30 });

    const notImage = new FormData();
    notImage.append('image', new Blob(['just text, not a picture'], { type: 'image/png' }), 'fake.png');
    const refused = await fetch(`${env.baseUrl}/api/upload`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${adminToken}` },
      body: notImage,
    });
    expect(refused.status).toBe(400);
    expect(typeof ((await refused.json()) as { message: unknown }).message).toBe('string');
  });
});
