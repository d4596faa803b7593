import type { VariantJson } from '@shop/contracts';
import { productKey, SALES_KEY } from './surrogate-keys';

/**
 * What a stock write set on a product: units still for sale (in all, and per variant as the product's JSON shows
 * them), units sold, and its updatedAt (ISO). `variants` is absent only in changes logged before variants existed.
 */
export interface StockWrite {
  countInStock: number;
  soldCount: number;
  updatedAt: string;
  variants?: VariantJson[];
  /**
   * The product's stockVersion after the write. Stock writes take no lock, so two may be logged in the other order
   * than they were made: a replica applies one only over an older version (absent: logged before versions existed).
   */
  stockVersion?: number;
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
 * changes the bytes of its product (countInStock, its variants' stock) and, when units were sold, the order of responses that sort
 * by sales. Anything an admin edits can move a product into or out of any list, so it names no key (everything).
 */
export function purgedKeysOf(change: CatalogChange): string[] {
  if (!('stock' in change)) return [];
  const { productId, soldChanged } = change.stock;
  return soldChanged ? [productKey(productId), SALES_KEY] : [productKey(productId)];
}

/**
 * The Redis keys of a deployment's change feed: the version counter (and the channel of the same name, on which
 * each version is PUBLISHed with the keys it purges), and the log of changes (a sorted set scored by version, each
 * member `<version> <change as JSON>`).
 */
export function changeFeedKeysOf(namespace: string): { version: string; log: string } {
  return { version: `${namespace}catalog:version`, log: `${namespace}catalog:changes` };
}

/**
 * The changes of versions `from + 1 … to`, in order, from the log's members of those scores; undefined when they
 * are not all there (the log was trimmed, or a version was bumped without a log entry): then reload everything.
 */
export function changesOfLog(members: readonly string[], from: number, to: number): CatalogChange[] | undefined {
  if (members.length !== to - from) return undefined;
  const changes: CatalogChange[] = [];
  for (const [i, member] of members.entries()) {
    const space = member.indexOf(' ');
    if (Number(member.slice(0, space)) !== from + 1 + i) return undefined;
    changes.push(JSON.parse(member.slice(space + 1)) as CatalogChange);
  }
  return changes;
}
