import { CatalogueIndex, indexReads, toEntry, type PublicResponse } from '@shop/catalog-read-model';
import type { ProductJson } from '@shop/contracts';
import { entryFromCopy } from '../src/catalog-cache/copy';
import { entryOf } from '../src/catalog-cache/entry';

/**
 * The catalogue copy makes its cache entries straight from the read model's answer; they must be the entries the
 * cache makes of the catalog's HTTP answer (services/catalog/test/gateway-copy.spec.ts compares the answers
 * themselves, through a real gateway and catalog).
 */
describe('entryFromCopy', () => {
  const products = Array.from({ length: 5 }, (_, i) => {
    const _id = (0x64b7f9 + i).toString(16).padStart(24, '0');
    const doc = { _id, name: `Cap ${i}`, category: 'Accessories', gender: 'Unisex', pricePence: 1000 + i, rating: i };
    return toEntry(doc, { _id, name: doc.name, countInStock: i } as unknown as ProductJson);
  });
  const reads = indexReads(new CatalogueIndex(products));

  /** The entry the cache makes of the same answer sent over HTTP, as the catalog's sendPublic sends it. */
  const overHttp = (key: string, response: PublicResponse) =>
    entryOf(key, {
      status: 200,
      headers: {
        'content-type': 'application/json; charset=utf-8',
        'cache-control': 'public, no-cache',
        etag: response.etag,
        ...(response.surrogateKeys !== undefined ? { 'surrogate-key': response.surrogateKeys } : {}),
        ...(response.productLengths !== undefined ? { 'product-lengths': response.productLengths } : {}),
      },
      body: response.body,
    });

  it.each<[string, PublicResponse | undefined]>([
    ['a list', reads.list({ sortBy: 'priceAsc', limit: 0 })],
    ['a list by sales', reads.list({ sortBy: 'popularity', limit: 3 })],
    ['an empty list', reads.list({ sortBy: 'newest', limit: 0, gender: 'Men' })],
    ['a product', reads.product(products[2]._id)],
    ['similar products', reads.similar(products[0]._id)],
    ['the best seller', reads.bestSeller()],
  ])('is the entry of the same answer over HTTP: %s', (_what, response) => {
    expect(entryFromCopy('/key', response!)).toEqual(overHttp('/key', response!));
  });
});
