import type { ProductJson, ProductSuggestionsJson } from '@shop/contracts';
import { request, type TestService } from '@shop/nest-common/testing';
import { seedCatalogue } from '../src/seed/catalogue';
import { adminToken, newProductBody, productModel, startCatalog } from './catalog.fixtures';

/**
 * The search a fan types into (issue 37), against the real catalog on the seeded catalogue: typos, word starts,
 * team nicknames, ranking, `GET /api/products/suggest`, validation, and every replica seeing an edit on its next
 * search.
 */
describe('catalog: search and suggestions', () => {
  let svc: TestService;
  let admin: string;
  const url = (path: string) => `${svc.url}${path}`;
  const search = async (text: string, extra = '') =>
    (await request<ProductJson[]>(url(`/api/products?search=${encodeURIComponent(text)}${extra}`))).body;
  const suggest = (q: string) =>
    request<ProductSuggestionsJson>(url(`/api/products/suggest?q=${encodeURIComponent(q)}`));
  const names = (products: Array<{ name: string }>) => products.map((p) => p.name);

  beforeAll(async () => {
    svc = await startCatalog();
    admin = adminToken(svc);
    expect((await seedCatalogue(productModel(svc))).inserted).toBeGreaterThanOrEqual(60);
  }, 60_000);
  afterAll(() => svc.close());

  it('forgives a typo a word: "pakers hoddie" finds the Packers hoodies, and only Packers hoodies', async () => {
    const found = await search('pakers hoddie');
    expect(found.length).toBeGreaterThan(0);
    for (const p of found) {
      expect(p.brand).toBe('Green Bay Packers');
      expect(p.name).toMatch(/hoodie/i);
    }
    const typed = await search('packers hoodie');
    expect(names(found)).toEqual(names(typed));
  });

  it('matches the start of a word: "pack" finds every Packers product', async () => {
    const packers = (await search('Green Bay Packers')).filter((p) => p.brand === 'Green Bay Packers');
    expect(packers.length).toBeGreaterThan(3);
    const found = names(await search('pack'));
    for (const p of packers) expect(found).toContain(p.name);
  });

  it.each([
    ['niners', 'San Francisco 49ers'],
    ['Niners', 'San Francisco 49ers'],
    ['pats', 'New England Patriots'],
    ['cheeseheads', 'Green Bay Packers'],
    ['philly', 'Philadelphia Eagles'],
  ])('knows the teams by their nicknames: "%s" finds every product of the %s first', async (nickname, team) => {
    const all = (await request<ProductJson[]>(url('/api/products'))).body.filter((p) => p.brand === team);
    const found = await search(nickname);
    // then perhaps a word one typo away ("pats" → pants)
    expect(found.slice(0, all.length).map((p) => p.brand)).toEqual(all.map(() => team));
  });

  it('ranks a word in the name above one in the team above one in the description', async () => {
    // "fleece": in some names, in more descriptions
    const found = await search('fleece');
    const inName = found.map((p) => /fleece/i.test(p.name));
    expect(inName[0]).toBe(true);
    expect(inName.indexOf(false)).toBeGreaterThan(0);
    expect(inName.slice(inName.indexOf(false))).not.toContain(true);
    // "eagles" is the name and the team of the Eagles' products, a word of no other's description: names first
    const eagles = await search('eagles');
    expect(eagles.every((p) => p.brand === 'Philadelphia Eagles')).toBe(true);
  });

  it('puts exact matches before typo matches when sorting by relevance, and keeps every other sort', async () => {
    const jerseys = await search('jersey');
    const typo = await search('jersy');
    expect(new Set(names(typo))).toEqual(new Set(names(jerseys)));
    // "gold" as typed in many texts; "bold", "cold" and "hold" one letter away in others
    const mixed = await search('gold');
    const exact = mixed.map((p) => /\bgold\b/i.test(`${p.name} ${p.description}`));
    expect(exact[0]).toBe(true);
    expect(exact.indexOf(false)).toBeGreaterThan(0);
    expect(exact.slice(exact.indexOf(false))).not.toContain(true);

    const byPrice = await search('pack', '&sortBy=priceAsc');
    expect(byPrice.map((p) => p.price)).toEqual([...byPrice.map((p) => p.price)].sort((a, b) => a - b));
    expect(new Set(names(byPrice))).toEqual(new Set(names(await search('pack'))));
    const limited = await search('pack', '&limit=3&category=Accessories');
    expect(limited.length).toBeLessThanOrEqual(3);
    for (const p of limited) expect(p.category).toBe('Accessories');
  });

  it('still finds a substring as typed, inside a word ("ackers")', async () => {
    const found = await search('ackers');
    expect(found.length).toBeGreaterThan(0);
    for (const p of found) expect(`${p.name} ${p.description}`.toLowerCase()).toContain('ackers');
  });

  it('suggests up to 8 products with name, team, price, thumbnail and URL', async () => {
    const res = await suggest('pakers hod');
    expect(res.status).toBe(200);
    expect(res.headers.get('surrogate-control')).toBe('max-age=60');
    expect(res.headers.get('surrogate-key')).toBe(''); // stock writes leave suggestions in the cache in front
    const { suggestions, didYouMean } = res.body;
    expect(didYouMean).toBeNull();
    expect(suggestions.length).toBeGreaterThan(0);
    expect(suggestions.length).toBeLessThanOrEqual(8);
    expect(suggestions[0]).toEqual({
      name: expect.stringMatching(/Packers.*Hoodie/),
      team: 'Green Bay Packers',
      price: expect.any(Number),
      thumbnail: expect.stringMatching(/\/uploads\/seed\/.+\.svg$/),
      url: expect.stringMatching(/^\/product\/[0-9a-f]{24}$/),
    });
    const product = (await request<ProductJson>(url(`/api/products/${suggestions[0].url.split('/').pop()}`))).body;
    expect(product.name).toBe(suggestions[0].name);
    expect(product.price).toBe(suggestions[0].price);
    expect((await suggest('pack')).body.suggestions).toHaveLength(8);
  });

  it('says what the shopper may have meant when nothing matches', async () => {
    expect((await suggest('pakkers hodiee')).body).toEqual({ suggestions: [], didYouMean: 'packers hoodie' });
    expect((await suggest('qqqqqqq')).body).toEqual({ suggestions: [], didYouMean: null });
  });

  it.each(['', ' ', 'p', ' p ', '&q='])('answers no suggestions for q=%j (too short)', async (q) => {
    const res = await suggest(q);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ suggestions: [], didYouMean: null });
  });

  it('answers no suggestions without q', async () => {
    expect((await request(url('/api/products/suggest'))).body).toEqual({ suggestions: [], didYouMean: null });
  });

  it.each([
    [`q=${'x'.repeat(101)}`, 'q must be at most 100 characters'],
    ['q=pack&q=hood', 'Give q only once'],
    ['q[$ne]=x', 'Invalid q'],
    ['q[]=x', 'Invalid q'],
  ])('refuses GET /api/products/suggest?%s with 400 and a message', async (query, message) => {
    const res = await request(url(`/api/products/suggest?${query}`));
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ statusCode: 400, message });
  });

  it('cuts a search over 100 characters rather than refusing it, and refuses an operator', async () => {
    const res = await request<ProductJson[]>(url(`/api/products?search=${'packers '.repeat(30)}`));
    expect(res.status).toBe(200);
    expect((await request(url('/api/products?search[$ne]=x'))).status).toBe(400);
    expect((await request(url('/api/products?search=a&search=b'))).status).toBe(400);
  });

  it('shows an add, an edit and a delete on the next search of every replica', async () => {
    const replica = await startCatalog({ MONGO_URI: svc.config.MONGO_URI }, { namespace: svc.namespace });
    try {
      const both = async (text: string) => [
        names((await request<ProductJson[]>(`${svc.url}/api/products?search=${encodeURIComponent(text)}`)).body),
        names((await request<ProductJson[]>(`${replica.url}/api/products?search=${encodeURIComponent(text)}`)).body),
        names(
          (await request<ProductSuggestionsJson>(`${replica.url}/api/products/suggest?q=${encodeURIComponent(text)}`))
            .body.suggestions,
        ),
      ];
      expect(await both('zebrastripe')).toEqual([[], [], []]);
      const created = await request<ProductJson>(url('/api/admin/products'), {
        token: admin,
        body: newProductBody({ sku: 'SEARCH-REPLICA-1', name: 'Zebrastripe Referee Shirt' }),
      });
      expect(created.status).toBe(201);
      const added = ['Zebrastripe Referee Shirt'];
      expect(await both('zebrastrip')).toEqual([added, added, added]);
      await request(url(`/api/admin/products/${created.body._id}`), {
        method: 'PUT',
        token: admin,
        body: { name: 'Quokkapattern Striped Shirt' },
      });
      expect(await both('zebrastripe')).toEqual([[], [], []]);
      const edited = ['Quokkapattern Striped Shirt'];
      expect(await both('quokapattern')).toEqual([edited, edited, edited]);
      await request(url(`/api/admin/products/${created.body._id}`), { method: 'DELETE', token: admin });
      expect(await both('quokkapattern')).toEqual([[], [], []]);
    } finally {
      await replica.app.close();
    }
  }, 60_000);
});
