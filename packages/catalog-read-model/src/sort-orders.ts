import { BEST_SELLER_ORDER, NEWEST_FIRST, SIMILAR_ORDER, toMongoSort, type MongoSort } from './product-query';
import type { CatalogueEntry } from './catalogue-entry';

/**
 * Every order a public read uses, as the MongoDB sort specifications the database path runs: the read model
 * derives its comparators from the very same objects, so the two cannot drift apart.
 */
export const ORDERS = {
  newest: NEWEST_FIRST,
  priceAsc: toMongoSort('priceAsc'),
  priceDesc: toMongoSort('priceDesc'),
  popularity: toMongoSort('popularity'),
  similar: SIMILAR_ORDER,
  bestSeller: BEST_SELLER_ORDER,
} as const satisfies Record<string, MongoSort>;
export type OrderName = keyof typeof ORDERS;
export const ORDER_NAMES = Object.keys(ORDERS) as OrderName[];

const SORT_FIELDS = ['_id', 'pricePence', 'createdAt', 'rating', 'soldCount', 'numReviews'] as const;
type SortField = (typeof SORT_FIELDS)[number];

/** The comparator of a sort specification over entries (a missing price sorts first ascending, as null does). */
export function comparatorOf(spec: MongoSort): (a: CatalogueEntry, b: CatalogueEntry) => number {
  const fields = Object.entries(spec).map(([field, direction]) => {
    if (!(SORT_FIELDS as readonly string[]).includes(field)) throw new Error(`the read model cannot sort by ${field}`);
    return [field as SortField, direction] as const;
  });
  return (a, b) => {
    for (const [field, direction] of fields) {
      const x = a[field] ?? -Infinity;
      const y = b[field] ?? -Infinity;
      if (x < y) return -direction;
      if (x > y) return direction;
    }
    return 0;
  };
}

/** The orders that read a field: they must re-place an entry whose value of it changes. */
export function ordersReading(field: SortField): OrderName[] {
  return ORDER_NAMES.filter((name) => field in ORDERS[name]);
}
