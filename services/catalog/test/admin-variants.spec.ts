import { AUTH_MESSAGES, PATTERNS, type LowStockJson, type ProductJson } from '@shop/contracts';
import { RpcClient } from '@shop/nest-common';
import { request, type TestService } from '@shop/nest-common/testing';
import fc from 'fast-check';
import { adminToken, customerToken, newProductBody, startCatalog } from './catalog.fixtures';

type Answer = { status: number; body: ProductJson & { message?: string; statusCode?: number } };

describe('catalog: variants through the admin API', () => {
  let svc: TestService;
  let admin: string;
  let rpc: RpcClient;
  const url = (path: string) => `${svc.url}${path}`;
  const create = (body: Record<string, unknown>) =>
    request(url('/api/admin/products'), { token: admin, body }) as Promise<Answer>;
  const update = (id: string, body: Record<string, unknown>, path = '/api/admin/products') =>
    request(url(`${path}/${id}`), { method: 'PUT', token: admin, body }) as Promise<Answer>;
  const grid = (p: ProductJson) =>
    p.variants.map((v) => `${v.size ?? '-'}/${v.color ?? '-'} ${v.sku} ${v.countInStock}`);

  beforeAll(async () => {
    svc = await startCatalog();
    admin = adminToken(svc);
    rpc = new RpcClient('catalog', { url: svc.config.RABBITMQ_URL, namespace: svc.namespace, timeoutMs: 20_000 });
  }, 60_000);
  afterAll(async () => {
    await rpc.onApplicationShutdown();
    await svc.close();
  });

  it('creates a product with a variant per size × colour: default SKUs, stock as sent, 0 for the rest', async () => {
    const res = await create(
      newProductBody({
        sku: 'Rav-Home',
        sizes: ['M', 'L'],
        colors: ['Purple', 'Black'],
        variants: [
          { size: 'M', color: 'Purple', countInStock: 4 },
          { size: 'L', color: 'Black', countInStock: 2, sku: 'RAV-L-BLK' },
          { size: 'l', color: 'purple', countInStock: '1' },
        ],
      }),
    );
    expect(res.status).toBe(201);
    expect(res.body.countInStock).toBe(7);
    expect(grid(res.body)).toEqual([
      'M/Purple RAV-HOME-M-PURPLE 4',
      'M/Black RAV-HOME-M-BLACK 0',
      'L/Purple RAV-HOME-L-PURPLE 1',
      'L/Black RAV-L-BLK 2',
    ]);
    // Shoppers see the same variants at once.
    expect((await request<ProductJson>(url(`/api/products/${res.body._id}`))).body.variants).toEqual(res.body.variants);
  });

  it('keeps listing a product under a size or colour it offers, sold out in it or not', async () => {
    const res = await create(
      newProductBody({
        sku: 'FILTER-1',
        name: 'Filterable Sold Out Jersey',
        sizes: ['M', 'L'],
        colors: ['Navy'],
        variants: [
          { size: 'M', color: 'Navy', countInStock: 0 },
          { size: 'L', color: 'Navy', countInStock: 0 },
        ],
      }),
    );
    expect(res.body.countInStock).toBe(0);
    for (const query of ['size=M', 'color=Navy', 'size=m&color=navy']) {
      const listed = await request<ProductJson[]>(url(`/api/products?${query}&search=Filterable`));
      expect([query, listed.body.map((p) => p.sku)]).toEqual([query, ['FILTER-1']]);
    }
    expect((await request<ProductJson[]>(url('/api/products?size=XL&search=Filterable'))).body).toEqual([]);
  });

  it('gives a product without sizes or colours one variant, whose stock a bare countInStock sets', async () => {
    const res = await create(
      newProductBody({ sku: 'BALL-1', sizes: [], colors: [], variants: undefined, countInStock: 6 }),
    );
    expect(res.status).toBe(201);
    expect(res.body.variants).toEqual([{ sku: 'BALL-1', size: null, color: null, countInStock: 6 }]);
    const edited = await update(res.body._id, { countInStock: 2 });
    expect([edited.body.countInStock, edited.body.variants[0].countInStock]).toEqual([2, 2]);
    // One size only: still one variant.
    const cap = await create(
      newProductBody({ sku: 'CAP-1', sizes: ['M'], colors: [], variants: undefined, countInStock: 3 }),
    );
    expect(cap.body.variants).toEqual([{ sku: 'CAP-1-M', size: 'M', color: null, countInStock: 3 }]);
  });

  it('refuses a bare countInStock for a product with several variants, saying to send variants', async () => {
    const message =
      'This product has 6 variants (sizes × colours): set their stock with variants, e.g. [{ "size": "M", "color": "Red", "countInStock": 5 }], not with countInStock';
    const created = await create(newProductBody({ sku: 'BARE-1', variants: undefined, countInStock: 5 }));
    expect(created.body).toEqual({ statusCode: 400, message });
    const product = (await create(newProductBody({ sku: 'BARE-2' }))).body;
    const res = await update(product._id, { countInStock: 9 }, '/api/products');
    expect(res.body).toEqual({ statusCode: 400, message });
    // Sent with variants (an edit form sending the product back whole), it is the read-only sum: ignored.
    const both = await update(product._id, {
      countInStock: 99,
      variants: [{ size: 'S', color: 'Black', countInStock: 1 }],
    });
    expect(both.status).toBe(200);
    expect(both.body.countInStock).toBe(6);
    // Growing a one-variant product into several with a bare countInStock is refused too.
    const one = (await create(newProductBody({ sku: 'BARE-3', sizes: [], colors: [], variants: undefined }))).body;
    expect((await update(one._id, { sizes: ['M', 'L'], countInStock: 4 })).body).toEqual({
      statusCode: 400,
      message: message.replace('6 variants', '2 variants'),
    });
  });

  it('keeps every variant SKU unique across the catalogue, whatever its case', async () => {
    const first = (await create(newProductBody({ sku: 'UNIQ-1' }))).body;
    expect(first.variants.map((v) => v.sku)).toContain('UNIQ-1-M-PURPLE');
    const clash = await create(
      newProductBody({
        sku: 'UNIQ-2',
        variants: [{ size: 'S', color: 'Purple', countInStock: 1, sku: 'uniq-1-m-purple' }],
      }),
    );
    expect(clash.body).toEqual({ statusCode: 400, message: 'SKU uniq-1-m-purple already exists' });
    // Nothing of the refused product was kept: its own SKUs are free.
    expect((await create(newProductBody({ sku: 'UNIQ-2' }))).status).toBe(201);
    const second = (await request<ProductJson[]>(url('/api/admin/products'), { token: admin })).body.find(
      (p) => p.sku === 'UNIQ-2',
    )!;
    const renamed = await update(second._id, {
      variants: [{ size: 'S', color: 'Purple', countInStock: 1, sku: 'UNIQ-1-L-BLACK' }],
    });
    expect(renamed.body).toEqual({ statusCode: 400, message: 'SKU UNIQ-1-L-BLACK already exists' });
    const twice = await update(second._id, {
      variants: [
        { size: 'S', color: 'Purple', countInStock: 1, sku: 'SAME' },
        { size: 'M', color: 'Purple', countInStock: 1, sku: 'same' },
      ],
    });
    expect(twice.body).toEqual({ statusCode: 400, message: 'SKU same is given to more than one variant' });
    // The product SKU keeps its own message.
    expect((await create(newProductBody({ sku: 'UNIQ-1' }))).body).toEqual({
      statusCode: 400,
      message: 'SKU already exists',
    });

    // A SKU given up is free again: renamed away, or its product removed.
    const moved = await update(first._id, {
      variants: [{ size: 'M', color: 'Purple', countInStock: 1, sku: 'UNIQ-1-MP' }],
    });
    expect(moved.body.variants.find((v) => v.size === 'M' && v.color === 'Purple')!.sku).toBe('UNIQ-1-MP');
    const taken = await update(second._id, {
      variants: [{ size: 'S', color: 'Purple', countInStock: 1, sku: 'UNIQ-1-M-PURPLE' }],
    });
    expect(taken.status).toBe(200);
    await request(url(`/api/admin/products/${first._id}`), { method: 'DELETE', token: admin });
    const again = await update(second._id, {
      variants: [{ size: 'M', color: 'Black', countInStock: 1, sku: 'UNIQ-1-MP' }],
    });
    expect(again.status).toBe(200);
  });

  it('gives a variant SKU to one product when ten admins claim it at the same moment', async () => {
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        create(
          newProductBody({
            sku: `RACE-SKU-${i}`,
            sizes: ['M'],
            colors: ['Black'],
            variants: [{ size: 'M', color: 'Black', countInStock: 1, sku: 'CONTESTED-1' }],
          }),
        ),
      ),
    );
    expect(results.map((r) => r.status).sort()).toEqual([201, ...Array(9).fill(400)]);
    for (const r of results.filter((r) => r.status === 400))
      expect(r.body.message).toBe('SKU CONTESTED-1 already exists');
    const all = (await request<ProductJson[]>(url('/api/admin/products'), { token: admin })).body;
    expect(all.flatMap((p) => p.variants).filter((v) => v.sku === 'CONTESTED-1')).toHaveLength(1);
  });

  it('adds a size’s variants at 0 and removes a removed colour’s, unless a checkout holds one (409)', async () => {
    const product = (
      await create(
        newProductBody({
          sku: 'GROW-1',
          sizes: ['M'],
          colors: ['Purple', 'Black'],
          variants: [
            { size: 'M', color: 'Purple', countInStock: 3 },
            { size: 'M', color: 'Black', countInStock: 2 },
          ],
        }),
      )
    ).body;
    const grown = await update(product._id, { sizes: ['M', 'XL'] });
    expect(grid(grown.body)).toEqual([
      'M/Purple GROW-1-M-PURPLE 3',
      'M/Black GROW-1-M-BLACK 2',
      'XL/Purple GROW-1-XL-PURPLE 0',
      'XL/Black GROW-1-XL-BLACK 0',
    ]);

    await rpc.send(PATTERNS.catalog.reserveStock, {
      checkoutId: 'grow-hold',
      lines: [{ productId: product._id, quantity: 2, size: 'M', color: 'Black' }],
    });
    const refused = await update(product._id, { colors: ['Purple'] });
    expect(refused.body).toEqual({
      statusCode: 409,
      message:
        'Ravens Home Game Jersey (M, Black) cannot be removed: 2 units are held by a checkout in progress. Try again once it is paid or has expired',
    });
    // Another variant of the same colour, not held, does not make a difference: nothing changed.
    expect(
      grid((await request<ProductJson>(url(`/api/admin/products/${product._id}`), { token: admin })).body),
    ).toEqual(grid(grown.body).map((row) => row.replace('M/Black GROW-1-M-BLACK 2', 'M/Black GROW-1-M-BLACK 0')));
    await rpc.send(PATTERNS.catalog.releaseStock, { checkoutId: 'grow-hold' });
    const shrunk = await update(product._id, { colors: ['Purple'] });
    expect(grid(shrunk.body)).toEqual(['M/Purple GROW-1-M-PURPLE 3', 'XL/Purple GROW-1-XL-PURPLE 0']);
    expect(shrunk.body.countInStock).toBe(3);
  });

  it.each<[string, unknown, string]>([
    ['variants that are not a list', 'M=3', 'Variants must be a list'],
    ['a variant that is not an object', [3], 'Each variant must be an object'],
    ['a variant without stock', [{ size: 'M', color: 'Purple' }], 'Every variant needs its countInStock'],
    ['negative variant stock', [{ size: 'M', color: 'Purple', countInStock: -1 }], 'Variant stock cannot be negative'],
    [
      'fractional variant stock',
      [{ size: 'M', color: 'Purple', countInStock: 1.5 }],
      'Variant stock must be a whole number',
    ],
    [
      'an unknown variant size',
      [{ size: 'XXXL', color: 'Purple', countInStock: 1 }],
      'Variant size must be from: XS, S, M, L, XL, XXL',
    ],
    [
      'a variant SKU with odd characters',
      [{ size: 'M', color: 'Purple', countInStock: 1, sku: 'A$B' }],
      'Variant SKU may hold only letters, digits, spaces, dots, dashes and underscores',
    ],
    [
      'a variant SKU that is an object',
      [{ size: 'M', color: 'Purple', countInStock: 1, sku: { $ne: '' } }],
      'Variant SKU must be text',
    ],
    [
      'a variant of a size the product does not offer',
      [{ size: 'XL', color: 'Purple', countInStock: 1 }],
      "The variant size XL, color Purple is not one of this product's sizes × colours (6 variants)",
    ],
    [
      'a variant without a size of a product with sizes',
      [{ color: 'Purple', countInStock: 1 }],
      "The variant without a size, color Purple is not one of this product's sizes × colours (6 variants)",
    ],
    [
      'the same variant twice',
      [
        { size: 'M', color: 'Purple', countInStock: 1 },
        { size: 'm', color: 'PURPLE', countInStock: 2 },
      ],
      'The variant size M, color Purple is given twice',
    ],
  ])('refuses %s (400), on create and on update, changing nothing', async (_what, variants, message) => {
    expect((await create(newProductBody({ sku: undefined, variants }))).body).toEqual(
      expect.objectContaining({ statusCode: 400, message }),
    );
    const product = (await create(newProductBody({ sku: undefined }))).body;
    expect((await update(product._id, { variants })).body).toEqual(
      expect.objectContaining({ statusCode: 400, message }),
    );
    expect((await request(url(`/api/admin/products/${product._id}`), { token: admin })).body).toEqual(product);
  });

  it('answers any variants body with a 2xx or a 4xx JSON message, never a 5xx', async () => {
    const product = (await create(newProductBody({ sku: 'FUZZ-1' }))).body;
    const option = fc.oneof(
      fc.constantFrom<unknown>('S', 'M', 'L', 'Purple', 'Black', '', ' m ', null, 'XXXL', 'Orange'),
      fc.integer(),
      fc.boolean(),
      fc.constant({ $ne: null }),
      fc.constant(['M']),
      fc.string({ maxLength: 6 }),
    );
    const stock = fc.oneof(
      fc.integer({ min: -2, max: 2_000_000 }),
      fc.constantFrom<unknown>('3', ' 4 ', '1e3', '', null, 1.5, NaN, { $gt: 0 }, [1], true),
    );
    const sku = fc.oneof(
      fc.constant(undefined),
      fc.string({ maxLength: 90 }),
      fc.constantFrom<unknown>(null, 5, {}, 'FUZZ-1-M-PURPLE'),
    );
    const variant = fc.oneof(
      fc.record({ size: option, color: option, countInStock: stock, sku }, { requiredKeys: [] }),
      fc.constantFrom<unknown>(null, 1, 'x', []),
    );
    const body = fc.record(
      {
        variants: fc.oneof(fc.array(variant, { maxLength: 8 }), fc.constantFrom<unknown>(null, 'M', 7, {})),
        countInStock: stock,
        sizes: fc.oneof(fc.constantFrom<unknown>('S,M', 'M', '', ['L', 'XL'], [], 'XS,S,M,L,XL,XXL')),
        colors: fc.constantFrom<unknown>('Purple', 'Black,Purple', [], 'Red'),
      },
      { requiredKeys: [] },
    );
    await fc.assert(
      fc.asyncProperty(body, fc.boolean(), async (b, onCreate) => {
        const res = onCreate
          ? await create(newProductBody({ sku: undefined, ...(b as Record<string, unknown>) }))
          : await update(product._id, b as Record<string, unknown>);
        const fine = res.status < 300 || (res.status < 500 && typeof res.body.message === 'string');
        if (!fine) throw new Error(`${res.status} ${JSON.stringify(res.body)} for ${JSON.stringify(b)}`);
        if (res.status < 300) {
          expect(res.body.countInStock).toBe(res.body.variants.reduce((sum, v) => sum + v.countInStock, 0));
          expect(res.body.variants).toHaveLength(
            Math.max(1, res.body.sizes.length) * Math.max(1, res.body.colors.length),
          );
        }
      }),
      { numRuns: 60, seed: Number(process.env.FUZZ_SEED ?? 20260522) },
    );
  }, 120_000);

  describe('GET /api/admin/products/low-stock', () => {
    const low = (query = '', token = admin) =>
      request<LowStockJson & { message?: string; statusCode?: number }>(url(`/api/admin/products/low-stock${query}`), {
        token,
      });

    it('answers 401 without a token and 403 for a customer', async () => {
      expect((await request(url('/api/admin/products/low-stock'))).body).toEqual({
        statusCode: 401,
        message: AUTH_MESSAGES.noToken,
      });
      expect((await low('', customerToken(svc))).body).toEqual({ statusCode: 403, message: AUTH_MESSAGES.notAdmin });
    });

    it('lists the variants at or below the threshold (default 5), lowest first, published or not', async () => {
      const drafted = (
        await create(
          newProductBody({
            sku: 'LOW-1',
            name: 'Low Stock Hoodie',
            isPublished: false,
            sizes: ['S', 'M'],
            colors: ['Black'],
            variants: [
              { size: 'S', color: 'Black', countInStock: 5 },
              { size: 'M', color: 'Black', countInStock: 6 },
            ],
          }),
        )
      ).body;
      const jersey = (
        await create(
          newProductBody({
            sku: 'LOW-2',
            name: 'Low Stock Jersey',
            sizes: ['M', 'L'],
            colors: ['Purple'],
            variants: [
              { size: 'M', color: 'Purple', countInStock: 1 },
              { size: 'L', color: 'Purple', countInStock: 0 },
            ],
          }),
        )
      ).body;
      const res = await low();
      expect(res.status).toBe(200);
      expect(res.body.threshold).toBe(5);
      const mine = res.body.variants.filter((v) => v.sku.startsWith('LOW-'));
      expect(mine).toEqual([
        {
          productId: jersey._id,
          name: 'Low Stock Jersey',
          sku: 'LOW-2-L-PURPLE',
          size: 'L',
          color: 'Purple',
          countInStock: 0,
        },
        {
          productId: jersey._id,
          name: 'Low Stock Jersey',
          sku: 'LOW-2-M-PURPLE',
          size: 'M',
          color: 'Purple',
          countInStock: 1,
        },
        {
          productId: drafted._id,
          name: 'Low Stock Hoodie',
          sku: 'LOW-1-S-BLACK',
          size: 'S',
          color: 'Black',
          countInStock: 5,
        },
      ]);
      const counts = res.body.variants.map((v) => v.countInStock);
      expect(counts).toEqual([...counts].sort((a, b) => a - b));
      expect(Math.max(...counts)).toBeLessThanOrEqual(5);

      const zero = await low('?threshold=0');
      expect(zero.body.threshold).toBe(0);
      expect(zero.body.variants.filter((v) => v.sku.startsWith('LOW-')).map((v) => v.sku)).toEqual(['LOW-2-L-PURPLE']);
      expect((await low('?threshold=6')).body.variants.map((v) => v.sku)).toContain('LOW-1-M-BLACK');
    });

    it.each(['-1', '1.5', 'five', '', '99999999', '1e3'])('refuses threshold=%p with a 400', async (threshold) => {
      expect((await low(`?threshold=${threshold}`)).body).toEqual({
        statusCode: 400,
        message: 'threshold must be a whole number from 0 to 1000000',
      });
    });
  });
});
