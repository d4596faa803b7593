import { parseProductListQuery, type ProductListQuery } from './product-query';

const PREFIX = '/api/products';
const OBJECT_ID = /^[0-9a-f]{24}$/i;

/** The public catalogue reads, each answering with an R (the catalog's are async; the gateway's copy is not). */
export interface PublicReads<R> {
  list(q: ProductListQuery): R;
  product(id: string): R;
  similar(id: string): R;
  newArrivals(): R;
  bestSeller(): R;
}

/** A public read, to be asked of some PublicReads. A list's query is parsed when it runs (a QueryError if bad). */
export type PublicRead<R> = (reads: PublicReads<R>) => R;

/**
 * The public read a GET path and query ask for, or undefined when they are not one of them as spelled (admin
 * routes, malformed ids, other spellings of the path): those are the catalog's Express routes' to answer.
 */
export function publicReadOf<R>(pathname: string, query: Record<string, unknown>): PublicRead<R> | undefined {
  if (pathname === PREFIX) return (reads) => reads.list(parseProductListQuery(query));
  if (!pathname.startsWith(`${PREFIX}/`)) return undefined;
  const rest = pathname.slice(PREFIX.length + 1);
  if (rest === 'new-arrivals') return (reads) => reads.newArrivals();
  if (rest === 'best-seller') return (reads) => reads.bestSeller();
  const similar = rest.startsWith('similar/') ? rest.slice('similar/'.length) : undefined;
  if (similar !== undefined) return OBJECT_ID.test(similar) ? (reads) => reads.similar(similar) : undefined;
  if (OBJECT_ID.test(rest)) return (reads) => reads.product(rest);
  return undefined;
}
