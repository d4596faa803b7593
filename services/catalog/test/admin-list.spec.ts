import {
  ADMIN_LIST_MESSAGES,
  CATEGORIES,
  PRODUCT_LIST_MESSAGES,
  PRODUCT_LIST_SORTS,
  TOTAL_COUNT_HEADER,
  type ProductJson,
} from '@shop/contracts';
import { request, type TestService } from '@shop/nest-common/testing';
import { adminToken, insertProducts, newProductBody, startCatalog, type ProductFixture } from './catalog.fixtures';

/** A small deterministic generator, so that a failure can be replayed. */
function random(seed: number): () => number {
  let s = seed;
  return () => {
    s = (s * 1_103_515_245 + 12_345) % 2_147_483_648;
    return s / 2_147_483_648;
  };
}

const BRANDS = ['Baltimore Ravens', 'Green Bay Packers', 'Atlanta Falcons', 'Pittsburgh Steelers'];
const WORDS = ['Home', 'Away', 'Retro', 'Game', 'Fleece', 'Cap', 'Jersey', 'Hoodie', 'Scarf', 'ball'];
const LOW_STOCK_THRESHOLD = 5;

/** Generated products: names and prices repeat on purpose (ties must order by id), stock per variant varies. */
function generated(count: number): ProductFixture[] {
  const next = random(25);
  const pick = <T>(list: readonly T[]) => list[Math.floor(next() * list.length)]!;
  return Array.from({ length: count }, (_, i) => {
    const sizes = next() < 0.2 ? [] : ['S', 'M', 'L'].slice(0, 1 + Math.floor(next() * 3));
    const colors = next() < 0.3 ? [] : ['Black', 'White'].slice(0, 1 + Math.floor(next() * 2));
    const stock: Record<string, number> = {};
    for (const size of sizes.length ? sizes : ['-'])
      for (const color of colors.length ? colors : ['-'])
        stock[`${size}/${color}`] = Math.floor(next() * 20) - (next() < 0.3 ? 0 : -5);
    return {
      sku: `GEN-${String(i).padStart(4, '0')}`,
      name: `${pick(WORDS)} ${pick(WORDS)} ${i % 7}`,
      price: [9.99, 19.99, 49.5, 89.99][Math.floor(next() * 4)]!,
      category: pick(CATEGORIES),
      gender: pick(['Men', 'Women', 'Unisex']),
      brand: pick(BRANDS),
      sizes,
      colors,
      stock,
      daysAgo: Math.floor(next() * 30),
      isPublished: next() < 0.8,
    };
  });
}

type Query = Record<string, string>;

/** The page the list must answer, worked out in plain code over every product (the unpaged list). */
function expected(all: ProductJson[], query: Query): { total: number; ids: string[] } {
  const q = (query.q ?? '').trim().toLowerCase();
  const low = query.lowStock === 'true' ? LOW_STOCK_THRESHOLD : query.lowStock ? Number(query.lowStock) : undefined;
  const matching = all.filter(
    (p) =>
      (!query.category || p.category === query.category) &&
      (!query.published || String(p.isPublished) === query.published) &&
      (low === undefined || (p.variants ?? []).some((v) => v.countInStock <= low)) &&
      (!q ||
        p.name.toLowerCase().includes(q) ||
        p.brand.toLowerCase().includes(q) ||
        [p.sku, ...(p.variants ?? []).map((v) => v.sku)].some((s) => s.toLowerCase().includes(q))),
  );
  const sort = query.sort ?? '-createdAt';
  const field = sort.replace(/^-/, '') as (typeof PRODUCT_LIST_SORTS)[number];
  const sign = sort.startsWith('-') ? -1 : 1;
  const key = (p: ProductJson): string | number =>
    field === 'name'
      ? p.name.toLowerCase()
      : field === 'price'
        ? Math.round(p.price * 100)
        : field === 'createdAt'
          ? Date.parse(p.createdAt)
          : p.countInStock;
  matching.sort((a, b) => {
    const x = key(a);
    const y = key(b);
    return sign * (x < y ? -1 : x > y ? 1 : a._id < b._id ? -1 : a._id > b._id ? 1 : 0);
  });
  const page = Number(query.page);
  const limit = Number(query.limit ?? 25);
  return { total: matching.length, ids: matching.slice((page - 1) * limit, page * limit).map((p) => p._id) };
}

describe('catalog: the paged admin product list', () => {
  let svc: TestService;
  let admin: string;
  let all: ProductJson[];
  const list = (query: Query) =>
    request<ProductJson[]>(`${svc.url}/api/admin/products?${new URLSearchParams(query)}`, { token: admin });

  beforeAll(async () => {
    svc = await startCatalog({ LOW_STOCK_THRESHOLD: String(LOW_STOCK_THRESHOLD) });
    admin = adminToken(svc);
    await insertProducts(svc, generated(240));
    all = (await request<ProductJson[]>(`${svc.url}/api/admin/products`, { token: admin })).body;
  }, 60_000);
  afterAll(() => svc.close());

  it('keeps the list without page as it was: every product, newest first, no total', async () => {
    const res = await request<ProductJson[]>(`${svc.url}/api/admin/products?q=zzz&limit=1`, { token: admin });
    expect(res.status).toBe(200);
    expect(res.body).toHaveLength(240);
    expect(res.headers.get(TOTAL_COUNT_HEADER)).toBeNull();
    expect(all.some((p) => !p.isPublished)).toBe(true);
  });

  it('answers every page, search, filter and sort as a plain computation over all products does', async () => {
    const next = random(7);
    const pick = <T>(list: readonly T[]) => list[Math.floor(next() * list.length)]!;
    const queries: Query[] = [
      { page: '1' },
      { page: '2', limit: '100' },
      { page: '3', limit: '100' },
      { page: '1', q: 'gen-001' },
      { page: '1', q: 'GEN-0042-M' },
      { page: '1', q: 'ravens' },
      { page: '1', lowStock: 'true', sort: 'countInStock' },
      { page: '1', lowStock: '0' },
      { page: '99', limit: '100' },
    ];
    for (let i = 0; i < 60; i++) {
      const query: Query = { page: String(1 + Math.floor(next() * 4)), limit: String(pick([5, 10, 25, 40])) };
      if (next() < 0.5) query.q = pick(['home', 'Retro', 'packers', 'gen-01', '3', 'cap ball', 'x']);
      if (next() < 0.4) query.category = pick(CATEGORIES);
      if (next() < 0.4) query.published = pick(['true', 'false']);
      if (next() < 0.3) query.lowStock = pick(['true', '0', '2', '10']);
      if (next() < 0.8) query.sort = `${pick(['', '-'])}${pick(PRODUCT_LIST_SORTS)}`;
      queries.push(query);
    }
    for (const query of queries) {
      const res = await list(query);
      const want = expected(all, query);
      expect([query, res.status]).toEqual([query, 200]);
      expect([query, Number(res.headers.get(TOTAL_COUNT_HEADER)), res.body.map((p) => p._id)]).toEqual([
        query,
        want.total,
        want.ids,
      ]);
    }
    // The rows are the products as the unpaged list shows them.
    const first = (await list({ page: '1', limit: '3', sort: 'name' })).body;
    expect(first).toEqual(first.map((p) => all.find((a) => a._id === p._id)));
  });

  it('shows a create, an edit, a stock change and a delete on the very next page read', async () => {
    const created = (
      await request<ProductJson>(`${svc.url}/api/admin/products`, {
        token: admin,
        body: newProductBody({ sku: 'ZZ-FRESH-1', name: 'Zebra Fresh Scarf', isPublished: false }),
      })
    ).body;
    let page = await list({ page: '1', q: 'zz-fresh' });
    expect(page.body.map((p) => p.name)).toEqual(['Zebra Fresh Scarf']);
    expect(page.headers.get(TOTAL_COUNT_HEADER)).toBe('1');

    await request(`${svc.url}/api/admin/products/${created._id}`, {
      method: 'PUT',
      token: admin,
      body: { name: 'Zebra Renamed Scarf', variants: [{ size: 'S', color: 'Purple', countInStock: 0 }] },
    });
    page = await list({ page: '1', q: 'zz-fresh', lowStock: '0', published: 'false' });
    expect(page.body.map((p) => [p.name, p.variants?.find((v) => v.size === 'S' && v.color === 'Purple')])).toEqual([
      ['Zebra Renamed Scarf', expect.objectContaining({ countInStock: 0 })],
    ]);

    await request(`${svc.url}/api/admin/products/${created._id}`, { method: 'DELETE', token: admin });
    page = await list({ page: '1', q: 'zz-fresh' });
    expect([page.body, page.headers.get(TOTAL_COUNT_HEADER)]).toEqual([[], '0']);
  });

  it.each([
    [{ page: '0' }, ADMIN_LIST_MESSAGES.page],
    [{ page: 'first' }, ADMIN_LIST_MESSAGES.page],
    [{ page: '1', limit: '10000' }, ADMIN_LIST_MESSAGES.limit],
    [{ page: '1', limit: '0' }, ADMIN_LIST_MESSAGES.limit],
    [{ page: '1', sort: 'soldCount' }, ADMIN_LIST_MESSAGES.sort(PRODUCT_LIST_SORTS)],
    [{ page: '1', sort: '-rating' }, ADMIN_LIST_MESSAGES.sort(PRODUCT_LIST_SORTS)],
    [{ page: '1', category: 'Hats' }, ADMIN_LIST_MESSAGES.oneOf('category', CATEGORIES)],
    [{ page: '1', published: 'maybe' }, ADMIN_LIST_MESSAGES.boolean('published')],
    [{ page: '1', lowStock: '-3' }, PRODUCT_LIST_MESSAGES.lowStock],
    [{ page: '1', q: 'x'.repeat(101) }, ADMIN_LIST_MESSAGES.q],
    [{ page: '1', 'category[$ne]': 'Top Wear' }, ADMIN_LIST_MESSAGES.plain('category')],
  ])('answers 400 with a message for %j', async (query, message) => {
    const res = await list(query as Query);
    expect(res.body).toEqual({ statusCode: 400, message });
  });

  it('answers 400 for a repeated key', async () => {
    const res = await request(`${svc.url}/api/admin/products?page=1&page=2`, { token: admin });
    expect(res.body).toEqual({ statusCode: 400, message: ADMIN_LIST_MESSAGES.plain('page') });
  });
});
