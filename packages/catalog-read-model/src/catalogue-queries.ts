import {
  NEW_ARRIVALS_COUNT,
  SIMILAR_COUNT,
  SUGGESTIONS_MAX,
  toMongoFilter,
  type ProductListQuery,
} from './product-query';
import { andInto, emptyBits, hasBit, orInto, type Bitset } from './bitset';
import type { CatalogueEntry } from './catalogue-entry';
import type { CatalogueIndex } from './catalogue-index';
import { compileFilter, type CompiledFilter, type PriceRange } from './compiled-filter';
import type { SortedList } from './sorted-list';
import { comparatorOf, ORDERS } from './sort-orders';

/** A stretch of a sort order, walked in order. */
interface Walk {
  readonly from: number;
  readonly to: number;
}

/** The part of a price order inside the range: its entries are sorted by price first. */
function priceSpan(index: CatalogueIndex, order: SortedList<number>, range: PriceRange, ascending: boolean): Walk {
  const { min = -Infinity, max = Infinity } = range;
  const price = (slot: number) => index.at(slot).pricePence;
  const below = (p: number | undefined) => p === undefined || p < min;
  const above = (p: number | undefined) => p !== undefined && p > max;
  // Missing prices sort first ascending (last descending) and never match a range.
  if (ascending) {
    return {
      from: order.firstIndex((s) => !below(price(s))),
      to: order.firstIndex((s) => above(price(s))),
    };
  }
  return {
    from: order.firstIndex((s) => !above(price(s))),
    to: order.firstIndex((s) => below(price(s))),
  };
}

/**
 * The slots that hold, in every field the filter names, one of the values it wants; undefined when it names
 * none. A superset of the matches: the filter itself still decides about each product found here.
 */
function equalityBits(index: CatalogueIndex, filter: CompiledFilter): Bitset | undefined {
  let bits: Bitset | undefined;
  for (const { field, values } of filter.equalities) {
    const holding = emptyBits(index.slots);
    for (const value of values) {
      const posting = index.withValue(field, value);
      if (posting) orInto(holding, posting);
    }
    if (bits) andInto(bits, holding);
    else bits = holding;
  }
  return bits;
}

/**
 * GET /api/products over the index: the entries the database query returns, in its order. The filter's
 * equalities are answered at once as bits over the products; then the query's sort order — a list of slots — is
 * walked, testing a bit per product and the whole filter only where the bit is set, until the limit is reached.
 * A price range in a price order narrows the walk to its stretch. Even a query nothing matches costs one pass over
 * a list of numbers: about a millisecond at 100,000 products. A search is answered by selectSearch (below).
 */
export function selectList(index: CatalogueIndex, q: ProductListQuery): CatalogueEntry[] {
  if (q.search !== undefined) return selectSearch(index, q, q.search);
  if (q.sortBy === 'relevance') q = { ...q, sortBy: 'newest' }; // relevance without a search: the default order
  const filter = compileFilter(toMongoFilter(q));
  const order = index.orders[q.sortBy as Exclude<ProductListQuery['sortBy'], 'relevance'>];
  const limit = q.limit > 0 ? q.limit : Infinity;
  const walk: Walk =
    filter.price && (q.sortBy === 'priceAsc' || q.sortBy === 'priceDesc')
      ? priceSpan(index, order, filter.price, q.sortBy === 'priceAsc')
      : { from: 0, to: order.items.length };
  const bits = equalityBits(index, filter);
  const found: CatalogueEntry[] = [];
  const slots = order.items;
  for (let i = walk.from; i < walk.to && found.length < limit; i++) {
    if (bits && !hasBit(bits, slots[i])) continue;
    const entry = index.at(slots[i]);
    if (filter.matches(entry)) found.push(entry);
  }
  return found;
}

/** Up to SIMILAR_COUNT products of the same gender and category, not the product itself; undefined if unknown. */
export function selectSimilar(index: CatalogueIndex, id: string): CatalogueEntry[] | undefined {
  const product = index.get(id);
  if (!product) return undefined;
  const [gender] = product.values.gender;
  const [category] = product.values.category;
  const found: CatalogueEntry[] = [];
  for (const slot of index.orders.similar.items) {
    if (found.length === SIMILAR_COUNT) break;
    const entry = index.at(slot);
    if (entry !== product && entry.values.gender.includes(gender) && entry.values.category.includes(category))
      found.push(entry);
  }
  return found;
}

export function selectNewArrivals(index: CatalogueIndex): CatalogueEntry[] {
  return index.orders.newest.items.slice(0, NEW_ARRIVALS_COUNT).map((slot) => index.at(slot));
}

export function selectBestSeller(index: CatalogueIndex): CatalogueEntry | undefined {
  const [slot] = index.orders.bestSeller.items;
  return slot === undefined ? undefined : index.at(slot);
}

/**
 * What a search text finds: the slots in `found`, and at the same index their score and whether they are exact (1:
 * every word as typed, or the text as a substring). Arrays as long as what was found rather than an object a
 * product: a broad text finds most of 100,000 products.
 */
interface Found {
  readonly found: number[];
  readonly score: number[];
  readonly exact: number[];
}

/**
 * Where each slot is in a search's `found`, valid when its stamp is this search's: kept from search to search (one
 * runs at a time) rather than an array the catalogue's size allocated for each — at 100,000 products that was a
 * megabyte a search, and the collections of a 600 MB heap it set off.
 */
const positions = { of: new Int32Array(0), stamps: new Uint32Array(0), stamp: 0 };

function startSearch(slots: number): void {
  if (positions.of.length < slots) {
    positions.of = new Int32Array(slots * 2);
    positions.stamps = new Uint32Array(slots * 2);
    positions.stamp = 0;
  }
  if (++positions.stamp === 2 ** 32) {
    positions.stamps.fill(0);
    positions.stamp = 1;
  }
}

/**
 * Every product a search text finds: the full-text search's hits (typos, prefixes, team names; see
 * product-search.ts; none while it is being built), and every product whose name or description contains the text as
 * typed, in any case — what the search has always promised, and what the database answers when the read model
 * cannot (a substring inside a word, "ackers"). Those, and hits on every word as typed, are exact; the others are not.
 */
function rankSearch(index: CatalogueIndex, search: string): Found {
  startSearch(index.slots);
  const { of, stamps, stamp } = positions;
  const ranked: Found = { found: [], score: [], exact: [] };
  const hits = index.search.search(search);
  for (let i = 0; i < (hits?.count ?? 0); i++) {
    const slot = hits!.slots[i];
    stamps[slot] = stamp;
    of[slot] = ranked.found.push(slot) - 1;
    ranked.score.push(hits!.scores[i]);
    ranked.exact.push(hits!.exact[i]);
  }
  const substring = compileFilter(toMongoFilter({ sortBy: 'newest', limit: 0, search }));
  const asTyped = (slot: number) => {
    if (stamps[slot] === stamp) {
      ranked.exact[of[slot]] = 1;
      return;
    }
    stamps[slot] = stamp;
    of[slot] = ranked.found.push(slot) - 1;
    ranked.score.push(0);
    ranked.exact.push(1);
  };
  const needle = substring.text?.needle;
  if (needle === undefined) {
    for (const entry of index.entries()) if (substring.matches(entry)) asTyped(entry.slot);
  } else {
    const blob = index.searchBlob();
    for (const slot of blob.containing(needle)) asTyped(slot);
    for (const slot of blob.others) if (substring.matches(index.at(slot))) asTyped(slot);
  }
  return ranked;
}

const newestFirst = comparatorOf(ORDERS.newest);

/**
 * Of two slots, the newer first (ORDERS.newest: createdAt, then _id). Its first field compared here, the rest by
 * the order's comparator: the tie-break of every pair of equal scores — thousands in a broad search, where products
 * share their texts.
 */
function newerSlot(index: CatalogueIndex): (a: number, b: number) => number {
  return (a, b) => {
    const x = index.at(a);
    const y = index.at(b);
    return y.createdAt - x.createdAt || newestFirst(x, y);
  };
}

/** Of two indexes into what a search found: exact matches first, then by score, then newest first (never shuffled). */
function byRelevance(index: CatalogueIndex, { found, score, exact }: Found): (a: number, b: number) => number {
  const newer = newerSlot(index);
  return (a, b) => exact[b] - exact[a] || score[b] - score[a] || newer(found[a], found[b]);
}

/** The indexes 0..n-1 of what a search found that pass `keep`. */
function indexesOf({ found }: Found, keep?: (slot: number) => boolean): number[] {
  const kept: number[] = [];
  for (let i = 0; i < found.length; i++) if (!keep || keep(found[i])) kept.push(i);
  return kept;
}

/**
 * GET /api/products with a search: the products it finds (rankSearch) that pass the other filters, by relevance
 * (exact matches first) unless the query sorts otherwise, up to the limit.
 */
function selectSearch(index: CatalogueIndex, q: ProductListQuery, search: string): CatalogueEntry[] {
  const filter = compileFilter(toMongoFilter({ ...q, search: undefined }));
  const ranked = rankSearch(index, search);
  if (q.sortBy === 'relevance') {
    const kept = indexesOf(ranked, filter.always ? undefined : (slot) => filter.matches(index.at(slot)));
    const limit = q.limit > 0 ? q.limit : kept.length;
    return firstOf(kept, limit, byRelevance(index, ranked)).map((i) => index.at(ranked.found[i]));
  }
  const entries: CatalogueEntry[] = [];
  for (const slot of ranked.found) {
    const entry = index.at(slot);
    if (filter.always || filter.matches(entry)) entries.push(entry);
  }
  return firstOf(entries, q.limit > 0 ? q.limit : entries.length, comparatorOf(ORDERS[q.sortBy]));
}

/**
 * The first `limit` items in the order, sorted: a page of a broad search (tens of thousands found at 100,000
 * products) keeps the best few in a sorted buffer rather than sorting everything.
 */
export function firstOf<T>(items: T[], limit: number, compare: (a: T, b: T) => number): T[] {
  if (limit * 8 >= items.length) return items.sort(compare).slice(0, limit);
  const best: T[] = [];
  for (const item of items) insertBest(best, item, limit, compare);
  return best;
}

/** The first `limit` of the indexes 0 to count - 1 in the order, sorted (firstOf without an array of them). */
function firstIndexes(count: number, limit: number, compare: (a: number, b: number) => number): number[] {
  if (limit * 8 >= count) return firstOf([...Array(count).keys()], limit, compare);
  const best: number[] = [];
  for (let i = 0; i < count; i++) insertBest(best, i, limit, compare);
  return best;
}

/** Puts `item` in its place in `best` (sorted, at most `limit` long) if it belongs there. */
function insertBest<T>(best: T[], item: T, limit: number, compare: (a: T, b: T) => number): void {
  if (best.length === limit && compare(item, best[limit - 1]) >= 0) return;
  let low = 0;
  let high = best.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (compare(best[mid], item) <= 0) low = mid + 1;
    else high = mid;
  }
  best.splice(low, 0, item);
  if (best.length > limit) best.pop();
}

/**
 * GET /api/products/suggest: the best matches of the text (the full-text search's; the substrings as typed only
 * while it is being built), and the words it may have meant when none.
 */
export function selectSuggestions(
  index: CatalogueIndex,
  text: string,
): { products: CatalogueEntry[]; didYouMean?: string } {
  const hits = index.search.search(text);
  let products: CatalogueEntry[];
  if (hits) {
    // straight from the hits' arrays: a two-letter start finds most of a large catalogue, and 8 are shown
    const { slots, scores, exact } = hits;
    const newer = newerSlot(index);
    const best = firstIndexes(
      hits.count,
      SUGGESTIONS_MAX,
      (a, b) => exact[b] - exact[a] || scores[b] - scores[a] || newer(slots[a], slots[b]),
    );
    products = best.map((i) => index.at(slots[i]));
  } else {
    const ranked = rankSearch(index, text);
    products = firstOf(indexesOf(ranked), SUGGESTIONS_MAX, byRelevance(index, ranked)).map((i) =>
      index.at(ranked.found[i]),
    );
  }
  if (products.length) return { products };
  return { products: [], didYouMean: index.search.didYouMean(text) };
}
