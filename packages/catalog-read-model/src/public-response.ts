import type { ProductJson } from '@shop/contracts';
import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { SURROGATE_KEY_HEADER, surrogateKeysOf } from './surrogate-keys';
import { etagOf, type CatalogueEntry } from './catalogue-entry';

/** The headers every public read's 200 carries besides its ETag (and its keys). */
export const PUBLIC_CONTENT_TYPE = 'application/json; charset=utf-8';
export const PUBLIC_CACHE_CONTROL = 'public, no-cache';
/**
 * For shared caches in front (the gateway's, a CDN): keep a public read up to 5 minutes, purged sooner by its
 * surrogate keys when the catalogue changes. Browsers never see it (caches strip it) and revalidate every time.
 */
export const PUBLIC_SURROGATE_CONTROL = 'max-age=300';

/** A public read's answer: the JSON bytes, their ETag, and the surrogate keys a cache in front may purge it by. */
export interface PublicResponse {
  body: Buffer;
  etag: string;
  surrogateKeys?: string;
}

/** What answers are assembled from: a product's id, its JSON bytes and their ETag. */
export type ProductBytes = Pick<CatalogueEntry, '_id' | 'body' | 'etag'>;

/** A product read from the database (while the read model cannot be used), in the read model's form. */
export function productBytesOf(product: ProductJson): ProductBytes {
  const body = Buffer.from(JSON.stringify(product), 'utf8');
  return { _id: product._id, body, etag: etagOf(body) };
}

export function productResponse(product: ProductBytes, dependsOnSales = false): PublicResponse {
  return { body: product.body, etag: product.etag, surrogateKeys: surrogateKeysOf([product._id], dependsOnSales) };
}

/**
 * A list, assembled from the products' bytes: the very bytes JSON.stringify gives for the array. Its ETag is
 * the hash of theirs, as the list's bytes follow from its products' bytes: no need to hash the whole body.
 */
export function listResponse(products: readonly ProductBytes[], dependsOnSales = false): PublicResponse {
  let length = 2 + Math.max(0, products.length - 1); // brackets and commas
  for (const product of products) length += product.body.length;
  const body = Buffer.allocUnsafe(length);
  const etags: string[] = [];
  let at = 0;
  body[at++] = 0x5b; // [
  products.forEach((product, i) => {
    if (i) body[at++] = 0x2c; // ,
    at += product.body.copy(body, at);
    etags.push(product.etag);
  });
  body[at] = 0x5d; // ]
  const surrogateKeys = surrogateKeysOf(
    products.map((product) => product._id),
    dependsOnSales,
  );
  return {
    body,
    // One update of the joined ETags: the same digest as one update per product, at a fraction of the calls.
    etag: `"${createHash('sha1').update(etags.join('')).digest('base64url')}"`,
    surrogateKeys,
  };
}

function etagMatches(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === '*') return true;
  return header.split(',').some((t) => t.trim().replace(/^W\//, '') === etag);
}

/**
 * Sends a public response with its ETag, or 304 when the client already has it. Clients must revalidate every
 * time (`no-cache`): an admin edit shows on the very next request.
 */
export function sendPublic(req: IncomingMessage, res: ServerResponse, response: PublicResponse): void {
  res.setHeader('ETag', response.etag);
  res.setHeader('Cache-Control', PUBLIC_CACHE_CONTROL);
  if (etagMatches(req.headers['if-none-match'], response.etag)) {
    res.statusCode = 304;
    res.end();
    return;
  }
  res.setHeader('Surrogate-Control', PUBLIC_SURROGATE_CONTROL);
  if (response.surrogateKeys !== undefined) res.setHeader(SURROGATE_KEY_HEADER, response.surrogateKeys);
  res.setHeader('Content-Type', PUBLIC_CONTENT_TYPE);
  res.setHeader('Content-Length', response.body.length);
  res.statusCode = 200;
  res.end(response.body);
}
