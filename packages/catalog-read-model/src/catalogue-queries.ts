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
import { MarkedSlots, type SlotSet } from './slot-set';
import type { OrderName } from './sort-orders';
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
 * The full-text hits of a search: their slots, and per slot its score and whether it is exact (1: every word as
 * typed, or the text as a substring), valid for the slots in `hits`. Kept from search to search (one runs at a time)
 * rather than allocated for each: a broad text finds most of 100,000 products, and arrays of them each search set
 * off the collections of a 600 MB heap.
 */
const hits = new MarkedSlots();
let score = new Float64Array(0);
let exact = new Uint8Array(0);
/** The substring matches of a search text that is not an ASCII literal (every product tested). */
const scanned = new MarkedSlots();

/**
 * The full-text search's hits (typos, prefixes, team names; see product-search.ts; none while it is being built),
 * into `hits`; those also among `substrings` are exact.
 */
function fullTextHits(index: CatalogueIndex, search: string, substrings?: SlotSet): SlotSet {
  hits.start(index.slots);
  if (score.length < index.slots) {
    score = new Float64Array(index.slots * 2);
    exact = new Uint8Array(index.slots * 2);
  }
  const found = index.search.search(search);
  for (let i = 0; i < (found?.count ?? 0); i++) {
    const slot = found!.slots[i];
    hits.add(slot);
    score[slot] = found!.scores[i];
    exact[slot] = found!.exact[i] || (substrings?.has(slot) ? 1 : 0);
  }
  return hits;
}

/**
 * Every product whose name or description contains the text as typed, in any case — what the search has always
 * promised, and what the database answers when the read model cannot (a substring inside a word, "ackers").
 */
function substringsOf(index: CatalogueIndex, search: string): SlotSet {
  const substring = compileFilter(toMongoFilter({ sortBy: 'newest', limit: 0, search }));
  const needle = substring.text?.needle;
  if (needle !== undefined) return index.substringMatches(needle, substring.matches);
  scanned.start(index.slots);
  for (const entry of index.entries()) if (substring.matches(entry)) scanned.add(entry.slot);
  return scanned;
}

/** Of two full-text hits: exact matches first, then by score, then newest first (never shuffled). */
function byRelevance(index: CatalogueIndex): (a: number, b: number) => number {
  const newest = index.placesIn('newest');
  return (a, b) => exact[b] - exact[a] || score[b] - score[a] || newest[a] - newest[b];
}

/** Of two slots, the one first in the order. Places in it rather than the products' fields: numbers side by side. */
function byPlaceIn(index: CatalogueIndex, order: OrderName): (a: number, b: number) => number {
  const places = index.placesIn(order);
  return (a, b) => places[a] - places[b];
}

/**
 * GET /api/products with a search: the products it finds that pass the other filters — the full-text hits and the
 * substring matches (exact, without a score) — by relevance unless the query sorts otherwise, up to the limit. Of a
 * broad text's tens of thousands, only those that could make the page are ranked: by relevance, the exact hits come
 * first, then the substring matches that are not hits (newest first), then the other hits.
 */
function selectSearch(index: CatalogueIndex, q: ProductListQuery, search: string): CatalogueEntry[] {
  const filter = compileFilter(toMongoFilter({ ...q, search: undefined }));
  const bits = equalityBits(index, filter);
  const keep = filter.always
    ? undefined
    : (slot: number) => (!bits || hasBit(bits, slot)) && filter.matches(index.at(slot));
  const substrings = substringsOf(index, search);
  const found = fullTextHits(index, search, substrings);
  const onlySubstring = (slot: number) => !found.has(slot) && (!keep || keep(slot));
  let slots: number[];
  if (q.sortBy === 'relevance') {
    const best = firstSlots(found.slots, found.count, q.limit, byRelevance(index), keep);
    const rest = firstSlots(substrings.slots, substrings.count, q.limit, byPlaceIn(index, 'newest'), onlySubstring);
    const exactHits = best.filter((slot) => exact[slot]).length;
    slots = [...best.slice(0, exactHits), ...rest, ...best.slice(exactHits)];
  } else {
    const compare = byPlaceIn(index, q.sortBy);
    slots = [
      ...firstSlots(found.slots, found.count, q.limit, compare, keep),
      ...firstSlots(substrings.slots, substrings.count, q.limit, compare, onlySubstring),
    ].sort(compare);
  }
  return (q.limit > 0 ? slots.slice(0, q.limit) : slots).map((slot) => index.at(slot));
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
  let slots: number[];
  if (index.search.ready) {
    const found = fullTextHits(index, text);
    slots = firstSlots(found.slots, found.count, SUGGESTIONS_MAX, byRelevance(index));
  } else {
    const found = substringsOf(index, text);
    slots = firstSlots(found.slots, found.count, SUGGESTIONS_MAX, byPlaceIn(index, 'newest'));
  }
  if (slots.length) return { products: slots.map((slot) => index.at(slot)) };
  return { products: [], didYouMean: index.search.didYouMean(text) };
}
