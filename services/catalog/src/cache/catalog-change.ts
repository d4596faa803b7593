import { productKey, SALES_KEY } from './surrogate-keys';

/** What a stock write set on a product: units still for sale, units sold, and its updatedAt (ISO). */
export interface StockWrite {
  countInStock: number;
  soldCount: number;
  updatedAt: string;
}

/**
 * What one catalog version changed, as recorded in the change log every replica's read model replays.
 * - `all`: anything may have changed (seed, a restore, a write behind the service's back): reload everything.
 * - `edited`: an admin wrote these products (any field, publication, deletion): reload them from the database.
 * - `stock`: a stock write; what it set travels with it, so no replica needs the database to apply it.
 */
export type CatalogChange =
  { all: true } | { edited: string[] } | { stock: { productId: string; write: StockWrite; soldChanged: boolean } };

/**
 * The surrogate keys a change purges from caches in front of the catalog. Only a stock write is narrow: it
 * changes the bytes of its product (countInStock) and, when units were sold, the order of responses that sort
 * by sales. Anything an admin edits can move a product into or out of any list, so it names no key (everything).
 */
export function purgedKeysOf(change: CatalogChange): string[] {
  if (!('stock' in change)) return [];
  const { productId, soldChanged } = change.stock;
  return soldChanged ? [productKey(productId), SALES_KEY] : [productKey(productId)];
}
