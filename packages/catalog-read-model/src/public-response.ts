import type { ProductJson, ProductSuggestionJson, ProductSuggestionsJson } from '@shop/contracts';
import { createHash } from 'node:crypto';
import { surrogateKeysOf } from './surrogate-keys';
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
  /** How long a shared cache may keep it, when not PUBLIC_SURROGATE_CONTROL. */
  surrogateControl?: string;
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

/**
 * Suggestions change with a product's name, price or picture, which only edits change (and every edit purges the
 * whole cache in front), never with its stock: so a shared cache may keep them a minute.
 */
export const SUGGEST_SURROGATE_CONTROL = 'max-age=60';

function suggestionOf(product: ProductBytes): ProductSuggestionJson {
  const json = JSON.parse(product.body.toString('utf8')) as ProductJson;
  return {
    name: json.name,
    team: json.brand,
    price: json.price,
    thumbnail: json.images?.[0]?.url ?? null,
    url: `/product/${json._id}`,
  };
}

/**
 * GET /api/products/suggest's answer (ProductSuggestionsJson). It names no surrogate key (an empty header, not none):
 * a stock write, which purges the responses showing that product, changes nothing a suggestion shows; an edit,
 * which may, drops the whole cache in front.
 */
export function suggestResponse(products: readonly ProductBytes[], didYouMean?: string): PublicResponse {
  const answer: ProductSuggestionsJson = { suggestions: products.map(suggestionOf), didYouMean: didYouMean ?? null };
  const body = Buffer.from(JSON.stringify(answer), 'utf8');
  return { body, etag: etagOf(body), surrogateKeys: '', surrogateControl: SUGGEST_SURROGATE_CONTROL };
}
