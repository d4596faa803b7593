import { selectBestSeller, selectList, selectNewArrivals, selectSimilar, selectSuggestions } from './catalogue-queries';
import type { CatalogueIndex } from './catalogue-index';
import type { ProductListQuery } from './product-query';
import { listResponse, productResponse, suggestResponse, type PublicResponse } from './public-response';

/** The public catalogue reads, each answering with an R. */
export interface PublicReads<R> {
  list(q: ProductListQuery): R;
  product(id: string): R;
  similar(id: string): R;
  newArrivals(): R;
  bestSeller(): R;
  /** `text`: a parsed suggest query (parseSuggestQuery); undefined answers no suggestions. */
  suggest(text: string | undefined): R;
}

/**
 * The public reads answered from an index, as bytes ready to send; undefined where the answer is a 404 (an
 * unknown or unpublished product, no best seller), whose message the caller knows. Popularity lists, similar
 * products and the best seller depend on units sold, which their surrogate keys say.
 */
export function indexReads(index: CatalogueIndex): PublicReads<PublicResponse | undefined> {
  return {
    list: (q) => listResponse(selectList(index, q), q.sortBy === 'popularity'),
    product(id) {
      const entry = index.get(id.toLowerCase());
      return entry && productResponse(entry);
    },
    similar(id) {
      const similar = selectSimilar(index, id.toLowerCase());
      return similar && listResponse(similar, true);
    },
    newArrivals: () => listResponse(selectNewArrivals(index)),
    bestSeller() {
      const best = selectBestSeller(index);
      return best && productResponse(best, true);
    },
    suggest(text) {
      if (text === undefined) return suggestResponse([]);
      const { products, didYouMean } = selectSuggestions(index, text);
      return suggestResponse(products, didYouMean);
    },
  };
}
