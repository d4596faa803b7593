import { parseProductListQuery } from '../products/product-query';
import type { PublicReads } from './public-reads';
import type { PublicResponse } from './public-response';

const PREFIX = '/api/products';
const OBJECT_ID = /^[0-9a-f]{24}$/i;

/** A public read, to be asked of PublicReads. */
export type PublicRead = (reads: PublicReads) => Promise<PublicResponse>;

/**
 * The public read a GET path and query ask for, or undefined when they are not one the fast lane takes (admin
 * routes, malformed ids, other spellings of the path): those go through Express and ProductsController.
 */
export function publicReadOf(pathname: string, query: Record<string, unknown>): PublicRead | undefined {
  if (pathname === PREFIX) return async (reads) => reads.list(parseProductListQuery(query));
  if (!pathname.startsWith(`${PREFIX}/`)) return undefined;
  const rest = pathname.slice(PREFIX.length + 1);
  if (rest === 'new-arrivals') return (reads) => reads.newArrivals();
  if (rest === 'best-seller') return (reads) => reads.bestSeller();
  const similar = rest.startsWith('similar/') ? rest.slice('similar/'.length) : undefined;
  if (similar !== undefined) return OBJECT_ID.test(similar) ? (reads) => reads.similar(similar) : undefined;
  if (OBJECT_ID.test(rest)) return (reads) => reads.product(rest);
  return undefined;
}
