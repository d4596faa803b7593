import { publicReadOf as sharedPublicReadOf } from '@shop/catalog-read-model';
import { asHttpError } from '../products/product-query';
import type { PublicReads } from './public-reads';
import type { PublicResponse } from './public-response';

/** A public read, to be asked of PublicReads. */
export type PublicRead = (reads: PublicReads) => Promise<PublicResponse>;

/**
 * The public read a GET path and query ask for (the shared routes, which the gateway's copy answers too), or
 * undefined when they are not one the fast lane takes (admin routes, malformed ids, other spellings of the path):
 * those go through Express and ProductsController. A malformed query rejects with its 400.
 */
export function publicReadOf(pathname: string, query: Record<string, unknown>): PublicRead | undefined {
  const read = sharedPublicReadOf<Promise<PublicResponse>>(pathname, query);
  if (!read) return undefined;
  return async (reads) => {
    try {
      return await read(reads);
    } catch (err) {
      throw asHttpError(err);
    }
  };
}
