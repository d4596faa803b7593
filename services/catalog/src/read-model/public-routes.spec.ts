import type { PublicReads } from './public-reads';
import { publicReadOf } from './public-routes';

describe('publicReadOf (the fast lane takes the public reads, and only those)', () => {
  const id = '64B7F9F9F9F9F9F9F9F9F9F9';
  const calls: string[] = [];
  const reads = new Proxy({} as PublicReads, {
    get: (_target, method: string) => (arg?: unknown) => {
      calls.push(`${method}(${arg === undefined ? '' : JSON.stringify(arg)})`);
      return Promise.resolve();
    },
  });
  beforeEach(() => (calls.length = 0));

  it.each<[string, Record<string, unknown>, string]>([
    ['/api/products', { size: 'm,L', category: 'all' }, 'list({"sortBy":"newest","limit":0,"sizes":["L","M"]})'],
    ['/api/products/new-arrivals', {}, 'newArrivals()'],
    ['/api/products/best-seller', {}, 'bestSeller()'],
    [`/api/products/similar/${id}`, {}, `similar("${id}")`],
    [`/api/products/${id}`, {}, `product("${id}")`],
  ])('%s %j', async (path, query, call) => {
    await publicReadOf(path, query)!(reads);
    expect(calls).toEqual([call]);
  });

  it.each(['/api/products/not-an-id', '/api/products/similar/nope', '/api/productsx', '/api/admin/products'])(
    'leaves %s to the controller',
    (path) => expect(publicReadOf(path, {})).toBeUndefined(),
  );

  it('leaves a malformed query to the controller, which answers its 400', async () => {
    await expect(publicReadOf('/api/products', { limit: '-1' })!(reads)).rejects.toThrow(
      'limit must be a positive whole number',
    );
  });
});
