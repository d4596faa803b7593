import { NEW_ARRIVALS_COUNT, SIMILAR_COUNT, toMongoFilter, type ProductListQuery } from './product-query';
import { andInto, countBits, emptyBits, hasBit, orInto, withBit, type Bitset } from './bitset';
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

/** Slots a walk tests one by one before a search turns to the blob. */
const SEARCH_WALK = 2048;
/**
 * The blob is worth scanning only when the other filters leave more than this share of the catalogue to test one
 * by one (measured at 100,000 products: the scan ~5 ms, testing every text ~50 ms; the rest is for what it finds).
 */
const BLOB_WORTH = 1 / 8;

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

/** `bits` narrowed to the slots whose texts contain the needle (all of them when `bits` is undefined). */
function withText(index: CatalogueIndex, bits: Bitset | undefined, needle: string): Bitset {
  let found = emptyBits(index.slots);
  for (const entry of index.searchBlob().candidates(needle)) found = withBit(found, entry.slot);
  if (bits) andInto(found, bits);
  return found;
}

/**
 * GET /api/products over the index: the entries the database query returns, in its order. The filter's
 * equalities are answered at once as bits over the products; then the query's sort order — a list of slots — is
 * walked, testing a bit per product and the whole filter only where the bit is set, until the limit is reached.
 * A price range in a price order narrows the walk to its stretch. A search that has not filled the page after
 * SEARCH_WALK products, among many candidates, looks its text up in the search blob once and walks on with those
 * bits too: a common word fills a page within the first products, a rare one is found without testing every text. Even a query nothing
 * matches costs one pass over a list of numbers: about a millisecond at 100,000 products.
 */
export function selectList(index: CatalogueIndex, q: ProductListQuery): CatalogueEntry[] {
  const filter = compileFilter(toMongoFilter(q));
  const order = index.orders[q.sortBy];
  const limit = q.limit > 0 ? q.limit : Infinity;
  const walk: Walk =
    filter.price && (q.sortBy === 'priceAsc' || q.sortBy === 'priceDesc')
      ? priceSpan(index, order, filter.price, q.sortBy === 'priceAsc')
      : { from: 0, to: order.items.length };
  let bits = equalityBits(index, filter);
  const candidates = bits ? countBits(bits) : index.size;
  let needle = candidates > index.size * BLOB_WORTH ? filter.text?.needle : undefined;
  const found: CatalogueEntry[] = [];
  const slots = order.items;
  for (let i = walk.from; i < walk.to && found.length < limit; i++) {
    if (needle !== undefined && i - walk.from === SEARCH_WALK) {
      bits = withText(index, bits, needle);
      needle = undefined;
    }
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
