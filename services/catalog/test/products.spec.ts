import { request, type TestService } from '@shop/nest-common/testing';
import { insertProducts, productModel, startCatalog, type ProductFixture } from './catalog.fixtures';

/**
 * Public reads against a real catalogue. Newest first: A is the newest published product, L the oldest;
 * HIDDEN is the newest of all but unpublished, so it must never show.
 */
// prettier-ignore
const FIXTURES: ProductFixture[] = [
  { sku: 'A', name: 'Cardinals Home Jersey', description: 'Classic red game-day top.', price: 79.99, category: 'Top Wear', gender: 'Men', brand: 'Arizona Cardinals', sizes: ['S', 'M', 'L'], colors: ['Red', 'White'], material: 'Polyester', collections: 'Game Day', rating: 4.5, numReviews: 10, daysAgo: 1 },
  { sku: 'B', name: "Eagles Women's Crop Hoodie", description: 'Soft fleece, midnight green trim.', price: 54.5, category: 'Top Wear', gender: 'Women', brand: 'Philadelphia Eagles', sizes: ['XS', 'S'], colors: ['Pink'], material: 'Fleece', collections: 'Winter Warmers', rating: 4.8, daysAgo: 2 },
  { sku: 'C', name: 'Patriots Sideline Joggers', description: 'Tapered joggers for the cold sideline.', price: 45, category: 'Bottom Wear', gender: 'Men', brand: 'New England Patriots', sizes: ['M', 'L', 'XL'], colors: ['Navy'], material: 'Cotton', collections: 'Training Camp', rating: 4.1, daysAgo: 3 },
  { sku: 'D', name: 'Steelers Knit Beanie', description: 'Black and gold cuffed beanie.', price: 19.99, category: 'Accessories', gender: 'Unisex', brand: 'Pittsburgh Steelers', colors: ['Black', 'Yellow'], material: 'Wool', collections: 'Winter Warmers', rating: 4.6, daysAgo: 4 },
  { sku: 'E', name: '49ers Official Size Game Ball', description: 'Composite grip (tacky) cover, official size.', price: 29.99, category: 'Equipment', gender: 'Unisex', brand: 'San Francisco 49ers', colors: ['Red'], material: 'Polyester', collections: 'Game Day', rating: 4.9, daysAgo: 5 },
  { sku: 'F', name: "Ravens Women's V-Neck Tee", description: 'Purple cotton tee with a team crest.', price: 24.99, originalPrice: 34.99, category: 'Top Wear', gender: 'Women', brand: 'Baltimore Ravens', sizes: ['S', 'M', 'L'], colors: ['Purple'], material: 'Cotton', collections: 'Game Day', rating: 4.2, daysAgo: 6 },
  { sku: 'G', name: 'Packers Throwback Jersey', description: 'Retro green and gold stripes.', price: 120, category: 'Top Wear', gender: 'Men', brand: 'Green Bay Packers', sizes: ['M', 'L', 'XL', 'XXL'], colors: ['Green', 'Yellow'], material: 'Polyester', collections: 'Retro Classics', rating: 4.7, daysAgo: 7 },
  { sku: 'H', name: "Falcons Women's Leggings", description: 'High-waisted training leggings.', price: 39.99, category: 'Bottom Wear', gender: 'Women', brand: 'Atlanta Falcons', sizes: ['XS', 'S', 'M'], colors: ['Black', 'Red'], material: 'Viscose', collections: 'Training Camp', rating: 3.9, daysAgo: 8 },
  { sku: 'HIDDEN', name: 'Hidden Draft Jersey', description: 'Not yet released.', price: 10, category: 'Top Wear', gender: 'Men', brand: 'Arizona Cardinals', sizes: ['M'], colors: ['Red'], material: 'Polyester', collections: 'Game Day', rating: 5, daysAgo: 0, isPublished: false },
  { sku: 'J', name: "Patriots Men's Polo", description: 'Navy pique polo for match days.', price: 49.99, category: 'Top Wear', gender: 'Men', brand: 'New England Patriots', sizes: ['S', 'M'], colors: ['Navy', 'White'], material: 'Cotton', collections: 'Game Day', rating: 4.5, numReviews: 50, daysAgo: 9 },
  { sku: 'K', name: 'Steelers Receiver Gloves', description: 'Sticky palms for sure hands.', price: 34.99, category: 'Equipment', gender: 'Men', brand: 'Pittsburgh Steelers', sizes: ['S', 'M', 'L'], colors: ['Black'], material: 'Polyester', collections: 'Training Camp', rating: 4, daysAgo: 10 },
  { sku: 'L', name: "Packers Women's Scarf", description: 'Striped knit scarf.', price: 22, category: 'Accessories', gender: 'Women', brand: 'Green Bay Packers', colors: ['Green', 'White'], material: 'Wool', collections: 'Winter Warmers', rating: 4.3, daysAgo: 11 },
];
const ALL_PUBLISHED = ['A', 'B', 'C', 'D', 'E', 'F', 'G', 'H', 'J', 'K', 'L'];

describe('catalog: public product reads', () => {
  let svc: TestService;
  let ids: Map<string, string>;
  const get = (path: string, headers?: Record<string, string>) => request(`${svc.url}${path}`, { headers });
  const skus = (body: Array<{ sku: string }>) => body.map((p) => p.sku);

  beforeAll(async () => {
    svc = await startCatalog();
  }, 60_000);
  afterAll(() => svc.close());

  it('has no best seller and an empty list while the catalogue is empty', async () => {
    expect((await get('/api/products/best-seller')).body).toEqual({ statusCode: 404, message: 'No best seller found' });
    expect((await get('/api/products')).body).toEqual([]);
    expect((await get('/api/products/new-arrivals')).body).toEqual([]);
  });

  describe('with a catalogue', () => {
    beforeAll(async () => {
      ids = await insertProducts(svc, FIXTURES);
    });

    it.each<[string, string[]]>([
      ['', ALL_PUBLISHED],
      ['?collection=all', ALL_PUBLISHED],
      ['?collection=ALL', ALL_PUBLISHED],
      ['?collection=Game%20Day', ['A', 'E', 'F', 'J']],
      ['?collection=Nope', []],
      ['?category=Top%20Wear', ['A', 'B', 'F', 'G', 'J']],
      ['?category=all', ALL_PUBLISHED],
      ['?category=', ALL_PUBLISHED],
      ['?gender=Women', ['B', 'F', 'H', 'L']],
      ['?gender=all', ALL_PUBLISHED],
      ['?gender=Men&category=Top%20Wear', ['A', 'G', 'J']],
      ['?size=M,L', ['A', 'C', 'F', 'G', 'H', 'J', 'K']],
      ['?size=xs', ['B', 'H']],
      ['?color=Red,Navy', ['A', 'C', 'E', 'H', 'J']],
      ['?color=%20pink%20', ['B']],
      ['?material=Wool', ['D', 'L']],
      ['?material=Cotton,Fleece', ['B', 'C', 'F', 'J']],
      ['?brand=New%20England%20Patriots', ['C', 'J']],
      ['?brand=Green%20Bay%20Packers,Pittsburgh%20Steelers', ['D', 'G', 'K', 'L']],
      ['?minPrice=40', ['A', 'B', 'C', 'G', 'J']],
      ['?maxPrice=39.99', ['D', 'E', 'F', 'H', 'K', 'L']],
      ['?minPrice=30&maxPrice=50', ['C', 'H', 'J', 'K']],
      ['?minPrice=200', []],
      ['?search=jersey', ['A', 'G']],
      ['?search=JERSEY', ['A', 'G']],
      ['?search=crest', ['F']],
      ['?search=(', ['E']],
      ['?search=.*', []],
      // relevance (a search without a sort): the shorter names, where the word weighs more, first
      ['?search=women%27s', ['H', 'L', 'B', 'F']],
      ['?category=Top%20Wear&gender=Women&color=Pink', ['B']],
      ['?unknownKey=x&page=2', ALL_PUBLISHED],
      ['?limit=3', ['A', 'B', 'C']],
      ['?limit=0', ALL_PUBLISHED],
      ['?limit=500', ALL_PUBLISHED],
    ])('filters GET /api/products%s', async (query, expected) => {
      const res = await get(`/api/products${query}`);
      expect(res.status).toBe(200);
      expect(skus(res.body)).toEqual(expected);
    });

    it.each<[string, string[]]>([
      ['priceAsc', ['D', 'L', 'F', 'E', 'K', 'H', 'C', 'J', 'B', 'A', 'G']],
      ['priceDesc', ['G', 'A', 'B', 'J', 'C', 'H', 'K', 'E', 'F', 'L', 'D']],
      // rating, then units sold, then reviews: J and A share 4.5, J has more reviews
      ['popularity', ['E', 'B', 'G', 'D', 'J', 'A', 'L', 'F', 'C', 'K', 'H']],
      ['newest-or-anything-else', ALL_PUBLISHED],
    ])('sorts by %s', async (sortBy, expected) => {
      expect(skus((await get(`/api/products?sortBy=${sortBy}`)).body)).toEqual(expected);
    });

    it('combines a filter, a sort and a limit', async () => {
      expect(skus((await get('/api/products?gender=Men&sortBy=priceAsc&limit=2')).body)).toEqual(['K', 'C']);
    });

    it.each<[string, string]>([
      ['?gender[$ne]=x', 'Invalid gender filter'],
      ['?search[$regex]=.*', 'Invalid search filter'],
      ['?gender=Men&gender=Women', 'Give the gender filter only once'],
      ['?size=M&size=L', 'Give the size filter only once'],
      ['?minPrice=abc', 'minPrice must be a number of pounds, e.g. 49.99'],
      ['?maxPrice=-5', 'maxPrice must be a number of pounds, e.g. 49.99'],
      ['?limit=-1', 'limit must be a positive whole number'],
      ['?limit=abc', 'limit must be a positive whole number'],
      ['?limit=2.5', 'limit must be a positive whole number'],
    ])('refuses GET /api/products%s with 400', async (query, message) => {
      expect((await get(`/api/products${query}`)).body).toEqual({ statusCode: 400, message });
    });

    it('shows a product in the API shape, with pounds and the struck-through price', async () => {
      const res = await get(`/api/products/${ids.get('F')}`);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        _id: ids.get('F'),
        name: "Ravens Women's V-Neck Tee",
        description: 'Purple cotton tee with a team crest.',
        price: 24.99,
        originalPrice: 34.99,
        countInStock: 10,
        sku: 'F',
        category: 'Top Wear',
        brand: 'Baltimore Ravens',
        sizes: ['S', 'M', 'L'],
        colors: ['Purple'],
        // One per size × colour, the product's stock split over them (10 = 4 + 3 + 3).
        variants: [
          { sku: 'F-S-PURPLE', size: 'S', color: 'Purple', countInStock: 4 },
          { sku: 'F-M-PURPLE', size: 'M', color: 'Purple', countInStock: 3 },
          { sku: 'F-L-PURPLE', size: 'L', color: 'Purple', countInStock: 3 },
        ],
        collections: 'Game Day',
        material: 'Cotton',
        gender: 'Women',
        images: [{ url: '/uploads/seed/f-1.svg', altText: "Ravens Women's V-Neck Tee" }],
        rating: 4.2,
        numReviews: 10,
        isFeatured: false,
        isPublished: true,
        tags: [],
        createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
        updatedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      });
      expect((await get(`/api/products/${ids.get('A')}`)).body).not.toHaveProperty('originalPrice');
      // A product without sizes has one variant per colour; the key order is the API's.
      expect((await get(`/api/products/${ids.get('D')}`)).body.variants).toEqual([
        { sku: 'D-BLACK', size: null, color: 'Black', countInStock: 5 },
        { sku: 'D-YELLOW', size: null, color: 'Yellow', countInStock: 5 },
      ]);
      expect(Object.keys(res.body).slice(0, 12)).toEqual([
        '_id',
        'name',
        'description',
        'price',
        'countInStock',
        'sku',
        'category',
        'brand',
        'sizes',
        'colors',
        'variants',
        'collections',
      ]);
    });

    it.each<[string, () => string, number, string]>([
      ['a malformed id', () => '/api/products/not-an-id', 400, 'Invalid product id'],
      ['an unknown id', () => '/api/products/64b7f9f9f9f9f9f9f9f9f9f0', 404, 'Product not found'],
      ['an unpublished product', () => `/api/products/${ids.get('HIDDEN')}`, 404, 'Product not found'],
      ['similar to a malformed id', () => '/api/products/similar/xyz', 400, 'Invalid product id'],
      ['similar to an unknown id', () => '/api/products/similar/64b7f9f9f9f9f9f9f9f9f9f0', 404, 'Product not found'],
    ])('answers %s with a clear error', async (_what, path, statusCode, message) => {
      expect((await get(path())).body).toEqual({ statusCode, message });
    });

    it('lists the 8 newest published products as new arrivals', async () => {
      const res = await get('/api/products/new-arrivals');
      expect(res.status).toBe(200);
      expect(skus(res.body)).toEqual(['A', 'B', 'C', 'D', 'E', 'F', 'G', 'H']);
    });

    it('suggests up to 4 similar products: same gender and category, never itself or an unpublished one', async () => {
      expect(skus((await get(`/api/products/similar/${ids.get('A')}`)).body)).toEqual(['G', 'J']);
      expect(skus((await get(`/api/products/similar/${ids.get('B')}`)).body)).toEqual(['F']);
    });

    it('picks the best seller by rating while nothing is sold', async () => {
      expect((await get('/api/products/best-seller')).body.sku).toBe('E');
    });

    it('picks the best seller by units sold once orders exist, rating breaking a tie', async () => {
      const products = productModel(svc);
      await products.updateOne({ sku: 'C' }, { $set: { soldCount: 5 } });
      await products.updateOne({ sku: 'J' }, { $set: { soldCount: 5 } });
      await products.updateOne({ sku: 'K' }, { $set: { soldCount: 2 } });
      await insertProducts(svc, []); // turns the cache over, as a write through the service does
      expect((await get('/api/products/best-seller')).body.sku).toBe('J');
      // Popularity: rating first, then units sold.
      await products.updateOne({ sku: 'A' }, { $set: { soldCount: 9 } });
      await insertProducts(svc, []);
      expect(skus((await get('/api/products?sortBy=popularity&limit=6')).body)).toEqual(['E', 'B', 'G', 'D', 'A', 'J']);
      expect((await get('/api/products/best-seller')).body.sku).toBe('A');
    });

    it('answers a repeated read with 304 when the client holds the current ETag', async () => {
      const first = await get('/api/products?category=Top%20Wear');
      const etag = first.headers.get('etag');
      expect(etag).toMatch(/^".+"$/);
      const again = await fetch(`${svc.url}/api/products?category=Top%20Wear`, { headers: { 'if-none-match': etag! } });
      expect(again.status).toBe(304);
      expect(await again.text()).toBe('');
      const other = await get('/api/products?category=Equipment', { 'if-none-match': etag! });
      expect(other.status).toBe(200);
    });
  });
});
