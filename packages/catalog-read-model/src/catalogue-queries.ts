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
 * What a search text finds, by slot: the slots in the order found (`count` of them), and per slot its score and
 * whether it is exact (1: every word as typed, or the text as a substring), valid when its stamp is this search's.
 * Kept from search to search (one runs at a time) rather than allocated for each: a broad text finds most of
 * 100,000 products, and arrays of them each search set off the collections of a 600 MB heap.
 */
const found = {
  slots: new Int32Array(0),
  count: 0,
  score: new Float64Array(0),
  exact: new Uint8Array(0),
  stamps: new Uint32Array(0),
  stamp: 0,
};

function startSearch(slots: number): void {
  if (found.stamps.length < slots) {
    const capacity = slots * 2;
    Object.assign(found, {
      slots: new Int32Array(capacity),
      score: new Float64Array(capacity),
      exact: new Uint8Array(capacity),
      stamps: new Uint32Array(capacity),
      stamp: 0,
    });
  }
  if (++found.stamp === 2 ** 32) {
    found.stamps.fill(0);
    found.stamp = 1;
  }
  found.count = 0;
}

/** Adds a slot to what the search found; found again, it stays where it is, exact if either finding is. */
function addFound(slot: number, score: number, exact: number): void {
  if (found.stamps[slot] === found.stamp) {
    found.exact[slot] |= exact;
    return;
  }
  found.stamps[slot] = found.stamp;
  found.slots[found.count++] = slot;
  found.score[slot] = score;
  found.exact[slot] = exact;
}

/**
 * Every product a search text finds, into `found`: the full-text search's hits (typos, prefixes, team names; see
 * product-search.ts; none while it is being built), and every product whose name or description contains the text as
 * typed, in any case — what the search has always promised, and what the database answers when the read model
 * cannot (a substring inside a word, "ackers"). Those, and hits on every word as typed, are exact; the others are not.
 */
function findSearch(index: CatalogueIndex, search: string): void {
  startSearch(index.slots);
  const hits = index.search.search(search);
  for (let i = 0; i < (hits?.count ?? 0); i++) addFound(hits!.slots[i], hits!.scores[i], hits!.exact[i]);
  const substring = compileFilter(toMongoFilter({ sortBy: 'newest', limit: 0, search }));
  const needle = substring.text?.needle;
  if (needle === undefined) {
    for (const entry of index.entries()) if (substring.matches(entry)) addFound(entry.slot, 0, 1);
  } else index.forEachContaining(needle, substring.matches, (slot) => addFound(slot, 0, 1));
}

/**
 * Of two slots a search found: exact matches first, then by score, then newest first (never shuffled). Places in an
 * order rather than the products' fields: numbers side by side, where a broad search compares tens of thousands.
 */
function byRelevance(index: CatalogueIndex): (a: number, b: number) => number {
  const { exact, score } = found;
  const newest = index.placesIn('newest');
  return (a, b) => exact[b] - exact[a] || score[b] - score[a] || newest[a] - newest[b];
}

/**
 * GET /api/products with a search: the products it finds (findSearch) that pass the other filters, by relevance
 * (exact matches first) unless the query sorts otherwise, up to the limit.
 */
function selectSearch(index: CatalogueIndex, q: ProductListQuery, search: string): CatalogueEntry[] {
  const filter = compileFilter(toMongoFilter({ ...q, search: undefined }));
  findSearch(index, search);
  let compare: (a: number, b: number) => number;
  if (q.sortBy === 'relevance') compare = byRelevance(index);
  else {
    const places = index.placesIn(q.sortBy);
    compare = (a, b) => places[a] - places[b];
  }
  const keep = filter.always ? undefined : (slot: number) => filter.matches(index.at(slot));
  return firstSlots(found.slots, found.count, q.limit, compare, keep).map((slot) => index.at(slot));
}

/**
 * The first `limit` (0: all) of `count` slots that `keep` keeps, in the order: a page of a broad search (tens of
 * thousands found at 100,000 products) keeps the best few in a sorted buffer rather than sorting everything, testing
 * `keep` only on a slot that would enter it.
 */
function firstSlots(
  slots: Int32Array,
  count: number,
  limit: number,
  compare: (a: number, b: number) => number,
  keep?: (slot: number) => boolean,
): number[] {
  if (limit <= 0 || limit * 8 >= count) {
    const kept: number[] = [];
    for (let i = 0; i < count; i++) if (!keep || keep(slots[i])) kept.push(slots[i]);
    kept.sort(compare);
    return limit > 0 ? kept.slice(0, limit) : kept;
  }
  const best: number[] = [];
  for (let i = 0; i < count; i++) {
    const slot = slots[i];
    if (best.length === limit && compare(slot, best[limit - 1]) >= 0) continue;
    if (keep && !keep(slot)) continue;
    let low = 0;
    let high = best.length;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if (compare(best[mid], slot) <= 0) low = mid + 1;
      else high = mid;
    }
    best.splice(low, 0, slot);
    if (best.length > limit) best.pop();
  }
  return best;
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
  if (hits) {
    // straight from the hits: a two-letter start finds most of a large catalogue, and 8 are shown
    startSearch(index.slots);
    for (let i = 0; i < hits.count; i++) addFound(hits.slots[i], hits.scores[i], hits.exact[i]);
  } else findSearch(index, text);
  const products = firstSlots(found.slots, found.count, SUGGESTIONS_MAX, byRelevance(index)).map((slot) =>
    index.at(slot),
  );
  if (products.length) return { products };
  return { products: [], didYouMean: index.search.didYouMean(text) };
}
