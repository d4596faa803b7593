import { publicReadKey } from './cached-reads.middleware';
import { cacheKeyOf, parseProductListQuery } from './product-query';

describe('publicReadKey (the fast path uses the controller’s cache keys)', () => {
  const id = '64B7F9F9F9F9F9F9F9F9F9F9';

  it.each<[string, Record<string, unknown>, string | undefined]>([
    ['/api/products', {}, `list:${cacheKeyOf(parseProductListQuery({}))}`],
    ['/api/products', { size: 'm,L', category: 'all' }, `list:${cacheKeyOf(parseProductListQuery({ size: 'L,M' }))}`],
    ['/api/products/new-arrivals', {}, 'new-arrivals'],
    ['/api/products/best-seller', {}, 'best-seller'],
    [`/api/products/similar/${id}`, {}, `similar:${id.toLowerCase()}`],
    [`/api/products/${id}`, {}, `product:${id.toLowerCase()}`],
    // left to the controller: its 400s and 404s, and anything else
    ['/api/products', { limit: '-1' }, undefined],
    ['/api/products', { gender: ['Men', 'Women'] }, undefined],
    ['/api/products/not-an-id', {}, undefined],
    ['/api/products/similar/nope', {}, undefined],
    ['/api/productsx', {}, undefined],
  ])('%s %j', (path, query, expected) => {
    expect(publicReadKey(path, query)).toBe(expected);
  });
});
