import { AUTH_MESSAGES, EVENTS, type EventEnvelope, type ProductChangedEvent } from '@shop/contracts';
import { EventBus, REDIS } from '@shop/nest-common';
import type Redis from 'ioredis';
import { request, type TestService } from '@shop/nest-common/testing';
import {
  adminToken,
  customerToken,
  deleteConsumerTopology,
  eventually,
  newProductBody,
  quietLogger,
  startCatalog,
} from './catalog.fixtures';
import { FOREIGN_IMAGE } from '../src/products/dto/product-fields';

describe('catalog: admin product management', () => {
  let svc: TestService;
  let admin: string;
  const url = (path: string) => `${svc.url}${path}`;
  const create = (body: Record<string, unknown>) => request(url('/api/admin/products'), { token: admin, body });

  beforeAll(async () => {
    svc = await startCatalog();
    admin = adminToken(svc);
  }, 60_000);
  afterAll(() => svc.close());

  it('answers 401 without a token and 403 for a customer on every admin route, changing nothing', async () => {
    const product = (await create(newProductBody({ sku: 'GUARDED-1' }))).body;
    const customer = customerToken(svc);
    const calls = [
      { method: 'GET', path: '/api/admin/products' },
      { method: 'GET', path: '/api/admin/products?page=1&q=rav&category=Top%20Wear&sort=-price' },
      { method: 'GET', path: `/api/admin/products/${product._id}` },
      { method: 'POST', path: '/api/admin/products', body: newProductBody() },
      { method: 'PUT', path: `/api/admin/products/${product._id}`, body: { name: 'Hacked' } },
      { method: 'PUT', path: `/api/products/${product._id}`, body: { name: 'Hacked' } },
      { method: 'DELETE', path: `/api/products/${product._id}` },
      { method: 'DELETE', path: `/api/admin/products/${product._id}` },
    ];
    for (const call of calls) {
      const anonymous = await request(url(call.path), { method: call.method, body: call.body });
      expect([call.path, anonymous.body]).toEqual([call.path, { statusCode: 401, message: AUTH_MESSAGES.noToken }]);
      const asCustomer = await request(url(call.path), { method: call.method, body: call.body, token: customer });
      expect([call.path, asCustomer.body]).toEqual([call.path, { statusCode: 403, message: AUTH_MESSAGES.notAdmin }]);
    }
    expect((await request(url(`/api/products/${product._id}`))).body.name).toBe('Ravens Home Game Jersey');
  });

  it('creates a product with pounds in and out, ignoring fields a client may not set', async () => {
    const res = await create(
      newProductBody({
        sku: 'RAV-HOME-1',
        originalPrice: 99.99,
        rating: 5,
        numReviews: 999,
        _id: '64b7f9f9f9f9f9f9f9f9f9f1',
        soldCount: 50,
      }),
    );
    expect(res.status).toBe(201);
    expect(res.body).toEqual(
      expect.objectContaining({
        name: 'Ravens Home Game Jersey',
        price: 89.99,
        originalPrice: 99.99,
        countInStock: 5,
        sku: 'RAV-HOME-1',
        category: 'Top Wear',
        gender: 'Men',
        sizes: ['S', 'M', 'L'],
        colors: ['Purple', 'Black'],
        rating: 0,
        numReviews: 0,
        isPublished: true,
        isFeatured: false,
      }),
    );
    expect(res.body._id).not.toBe('64b7f9f9f9f9f9f9f9f9f9f1');
    expect(res.body).not.toHaveProperty('soldCount');
    // Visible at once, to shoppers and in the admin list.
    expect((await request(url(`/api/products/${res.body._id}`))).body.sku).toBe('RAV-HOME-1');
    const listed = await request(url('/api/products?search=Ravens%20Home'));
    expect(listed.body.map((p: { sku: string }) => p.sku)).toContain('RAV-HOME-1');
    const all = await request(url('/api/admin/products'), { token: admin });
    expect(all.body.map((p: { sku: string }) => p.sku)).toContain('RAV-HOME-1');
  });

  it('generates a SKU when none is given and reads comma-separated sizes and text numbers', async () => {
    const res = await create(
      newProductBody({
        sku: undefined,
        sizes: ' s, M ,XL ',
        colors: 'purple, Black',
        price: '24.50',
        variants: [{ size: 'xl', color: ' BLACK ', countInStock: '3' }],
      }),
    );
    expect(res.status).toBe(201);
    expect(res.body.sku).toMatch(/^NFL-[0-9A-F]{8}$/);
    expect(res.body).toEqual(
      expect.objectContaining({ sizes: ['S', 'M', 'XL'], colors: ['Purple', 'Black'], price: 24.5, countInStock: 3 }),
    );
    expect(res.body.variants.map((v: { sku: string; countInStock: number }) => [v.sku, v.countInStock])).toEqual([
      [`${res.body.sku}-S-PURPLE`, 0],
      [`${res.body.sku}-S-BLACK`, 0],
      [`${res.body.sku}-M-PURPLE`, 0],
      [`${res.body.sku}-M-BLACK`, 0],
      [`${res.body.sku}-XL-PURPLE`, 0],
      [`${res.body.sku}-XL-BLACK`, 3],
    ]);
  });

  it.each<[string, Record<string, unknown>, string]>([
    ['no name', { name: undefined }, 'Name is required'],
    ['an empty name', { name: '   ' }, 'Name is required'],
    ['a name that is an object', { name: { $gt: '' } }, 'Name must be text'],
    ['no description', { description: undefined }, 'Description is required'],
    ['no category', { category: undefined }, 'Category is required'],
    [
      'an unknown category',
      { category: 'Hats' },
      'Category must be one of: Top Wear, Bottom Wear, Accessories, Equipment',
    ],
    ['no price', { price: undefined }, 'Price is required'],
    ['a zero price', { price: 0 }, 'Price must be greater than 0'],
    ['a negative price', { price: -5 }, 'Price must be greater than 0'],
    ['three decimals', { price: 10.999 }, 'Price must be a number of pounds with at most two decimals'],
    ['a price that is not a number', { price: 'cheap' }, 'Price must be a number of pounds with at most two decimals'],
    ['negative stock', { countInStock: -1 }, 'Stock cannot be negative'],
    ['fractional stock', { countInStock: 1.5 }, 'Stock must be a whole number'],
    ['an unknown size', { sizes: ['M', 'XXXL'] }, 'Sizes must be from: XS, S, M, L, XL, XXL'],
    [
      'an unknown colour',
      { colors: ['Orange'] },
      expect.stringMatching(/^Colors must be from: Red, Blue, Black/) as unknown as string,
    ],
    ['an unknown gender', { gender: 'Kids' }, 'Gender must be one of: Men, Women, Unisex'],
    ['an image that is not a URL', { images: [{ url: 'javascript:alert(1)' }] }, FOREIGN_IMAGE],
    // the shop's Content-Security-Policy (img-src) loads images from the shop only: one from elsewhere shows broken
    ['an image hosted elsewhere', { images: [{ url: 'https://images.example.net/jersey.jpg' }] }, FOREIGN_IMAGE],
    ['an image on a protocol-relative URL', { images: ['//images.example.net/jersey.jpg'] }, FOREIGN_IMAGE],
    [
      'a SKU with odd characters',
      { sku: 'A$B' },
      'SKU may hold only letters, digits, spaces, dots, dashes and underscores',
    ],
  ])('refuses a product with %s', async (_what, override, message) => {
    const res = await create(newProductBody(override));
    expect(res.status).toBe(400);
    expect(res.body.message).toEqual(message);
    expect(typeof res.body.message).toBe('string');
  });

  it('refuses a SKU that already exists, on create and on update', async () => {
    expect((await create(newProductBody({ sku: 'DUP-1' }))).status).toBe(201);
    expect((await create(newProductBody({ sku: 'DUP-1' }))).body).toEqual({
      statusCode: 400,
      message: 'SKU already exists',
    });
    const other = (await create(newProductBody({ sku: 'DUP-2' }))).body;
    const res = await request(url(`/api/admin/products/${other._id}`), {
      method: 'PUT',
      token: admin,
      body: { sku: 'DUP-1' },
    });
    expect(res.body).toEqual({ statusCode: 400, message: 'SKU already exists' });
  });

  it('updates through both paths, sets falsy values, and shows the change on the very next read', async () => {
    const product = (await create(newProductBody({ sku: 'UPD-1', originalPrice: 120, isFeatured: true }))).body;
    const before = await request(url(`/api/products/${product._id}`));

    const viaPublicPath = await request(url(`/api/products/${product._id}`), {
      method: 'PUT',
      token: admin,
      body: {
        variants: [
          { size: 'M', color: 'Purple', countInStock: 0 },
          { size: 'L', color: 'Black', countInStock: 0 },
        ],
        isFeatured: false,
        originalPrice: null,
        price: 45.5,
        sizes: 'M,L',
      },
    });
    expect(viaPublicPath.status).toBe(200);
    expect(viaPublicPath.body).toEqual(
      expect.objectContaining({
        countInStock: 0,
        isFeatured: false,
        price: 45.5,
        sizes: ['M', 'L'],
        name: 'Ravens Home Game Jersey',
      }),
    );
    expect(viaPublicPath.body).not.toHaveProperty('originalPrice');

    const after = await request(url(`/api/products/${product._id}`));
    expect(after.body).toEqual(viaPublicPath.body);
    expect(after.headers.get('etag')).not.toBe(before.headers.get('etag'));

    const viaAdminPath = await request(url(`/api/admin/products/${product._id}`), {
      method: 'PUT',
      token: admin,
      body: { name: 'Ravens Alternate Jersey' },
    });
    expect(viaAdminPath.body).toEqual(
      expect.objectContaining({ name: 'Ravens Alternate Jersey', countInStock: 0, price: 45.5 }),
    );
    expect((await request(url(`/api/products/${product._id}`))).body.name).toBe('Ravens Alternate Jersey');
  });

  it.each<[string, Record<string, unknown>, string]>([
    ['an empty description', { description: '' }, 'Description is required'],
    ['a zero price', { price: 0 }, 'Price must be greater than 0'],
    ['negative stock', { countInStock: -3 }, 'Stock cannot be negative'],
    [
      'an unknown category',
      { category: 'Shoes' },
      'Category must be one of: Top Wear, Bottom Wear, Accessories, Equipment',
    ],
    [
      'an image hosted elsewhere beside one of the shop’s',
      { images: [{ url: '/uploads/seed/ravens.svg' }, { url: 'http://cdn.example.net/ravens.webp' }] },
      FOREIGN_IMAGE,
    ],
  ])('refuses an update with %s and keeps the product as it was', async (_what, body, message) => {
    const product = (await create(newProductBody({ sku: undefined }))).body;
    const res = await request(url(`/api/products/${product._id}`), { method: 'PUT', token: admin, body });
    expect(res.body).toEqual(expect.objectContaining({ statusCode: 400, message }));
    expect((await request(url(`/api/products/${product._id}`))).body).toEqual(product);
  });

  it('answers 400 for a malformed id and 404 for an unknown one on updates and deletes', async () => {
    const unknown = '64b7f9f9f9f9f9f9f9f9f9f0';
    for (const [method, path] of [
      ['PUT', '/api/products'],
      ['PUT', '/api/admin/products'],
      ['DELETE', '/api/products'],
    ]) {
      const body = method === 'PUT' ? { name: 'X' } : undefined;
      expect((await request(url(`${path}/nope`), { method, token: admin, body })).body).toEqual({
        statusCode: 400,
        message: 'Invalid product id',
      });
      expect((await request(url(`${path}/${unknown}`), { method, token: admin, body })).body).toEqual({
        statusCode: 404,
        message: 'Product not found',
      });
    }
  });

  it('hides an unpublished product from shoppers but not from admins', async () => {
    const product = (await create(newProductBody({ sku: 'DRAFT-1', isPublished: false }))).body;
    expect((await request(url(`/api/products/${product._id}`))).status).toBe(404);
    expect(
      await request(url('/api/products?search=Ravens')).then((r) => r.body.map((p: { sku: string }) => p.sku)),
    ).not.toContain('DRAFT-1');
    expect((await request(url(`/api/admin/products/${product._id}`), { token: admin })).body.sku).toBe('DRAFT-1');
    expect(
      (await request(url('/api/admin/products'), { token: admin })).body.map((p: { sku: string }) => p.sku),
    ).toContain('DRAFT-1');
    await request(url(`/api/products/${product._id}`), { method: 'PUT', token: admin, body: { isPublished: true } });
    expect((await request(url(`/api/products/${product._id}`))).status).toBe(200);
  });

  it('deletes a product once, announcing the change and the deletion to other services', async () => {
    const received: EventEnvelope<ProductChangedEvent>[] = [];
    const listener = new EventBus({
      url: svc.config.RABBITMQ_URL,
      service: `${svc.namespace}listener`,
      exchange: `${svc.namespace}shop.events`,
      logger: quietLogger,
    });
    await listener.start();
    await listener.subscribe({ 'catalog.product.*': async (e) => void received.push(e) });
    try {
      const product = (await create(newProductBody({ sku: 'DEL-1' }))).body;
      await request(url(`/api/products/${product._id}`), {
        method: 'PUT',
        token: admin,
        body: { variants: [{ size: 'M', color: 'Purple', countInStock: 7 }] },
      });
      const res = await request(url(`/api/products/${product._id}`), { method: 'DELETE', token: admin });
      expect(res.body).toEqual({ message: 'Product removed' });
      expect((await request(url(`/api/products/${product._id}`))).status).toBe(404);
      expect((await request(url(`/api/products/${product._id}`), { method: 'DELETE', token: admin })).body).toEqual({
        statusCode: 404,
        message: 'Product not found',
      });

      await eventually(async () =>
        received.some((e) => e.type === EVENTS.catalog.productDeleted && e.data.productId === product._id),
      );
      const changes = received.filter(
        (e) => e.type === EVENTS.catalog.productChanged && e.data.productId === product._id,
      );
      expect(changes.length).toBeGreaterThanOrEqual(2); // created, then updated
    } finally {
      await listener.close();
      await deleteConsumerTopology(svc.config.RABBITMQ_URL, `${svc.namespace}listener.events`);
    }
  });

  it('announces every change on the Redis channel the gateway cache listens to', async () => {
    const key = `${svc.namespace}catalog:version`;
    const subscriber = svc.app.get<Redis>(REDIS).duplicate();
    const heard: string[] = [];
    try {
      await subscriber.subscribe(key);
      subscriber.on('message', (_channel: string, value: string) => heard.push(value));
      const product = (await create(newProductBody({ sku: 'VERSION-1' }))).body;
      await eventually(async () => heard.length >= 1);
      expect(heard.at(-1)).toBe(await svc.app.get<Redis>(REDIS).get(key));
      await request(url(`/api/products/${product._id}`), {
        method: 'PUT',
        token: admin,
        body: { variants: [{ size: 'M', color: 'Purple', countInStock: 1 }] },
      });
      await eventually(async () => heard.length >= 2);
      expect(Number(heard[1])).toBeGreaterThan(Number(heard[0]));
    } finally {
      subscriber.disconnect();
    }
  });

  it('shows an edit made on one replica on the very next read from another', async () => {
    const replica = await startCatalog({ MONGO_URI: svc.config.MONGO_URI }, { namespace: svc.namespace });
    try {
      const product = (await create(newProductBody({ sku: 'REPLICA-1' }))).body;
      const read = () => request(`${replica.url}/api/products/${product._id}`).then((r) => r.body);
      const list = () =>
        request(`${replica.url}/api/products?search=Ravens`).then((r) =>
          r.body.find((p: { sku: string }) => p.sku === 'REPLICA-1'),
        );
      expect((await read()).price).toBe(89.99); // now cached on the replica
      expect((await list()).price).toBe(89.99);
      await request(url(`/api/admin/products/${product._id}`), { method: 'PUT', token: admin, body: { price: 59.99 } });
      expect((await read()).price).toBe(59.99);
      expect((await list()).price).toBe(59.99);
    } finally {
      await replica.app.close();
    }
  }, 60_000);
});
