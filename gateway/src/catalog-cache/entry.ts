import { createHash } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { promisify } from 'node:util';
import { gzip as gzipCallback } from 'node:zlib';

const gzip = promisify(gzipCallback);

/** Largest upstream body that is kept. */
export const MAX_CACHED_BODY = 1024 * 1024;

/** Upstream headers a cached response keeps (everything else is the gateway's own). */
const KEPT_HEADERS = ['content-type', 'cache-control', 'last-modified'] as const;

const JSON_TYPE = /^application\/(?:[\w.+-]*\+)?json\s*(?:;|$)/i;

/** An upstream answer, fully buffered. */
export interface Upstream {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/** A kept catalogue response. */
export interface Entry {
  readonly key: string;
  readonly raw: Buffer;
  /** The gzip variant, made for the first request that accepts it; null when gzip does not make it smaller. */
  gzip?: Buffer | null;
  zipping?: Promise<void>;
  /** Strong (as sent by the catalog, or computed). The gzip variant is sent with its weak form. */
  readonly etag: string;
  readonly weakEtag: string;
  /** content-type, cache-control, last-modified as the catalog sent them. */
  readonly headers: ReadonlyArray<[string, string]>;
  /** The same, flat for writeHead; and without content-type for a 304. */
  readonly flat: readonly string[];
  readonly flat304: readonly string[];
  readonly lastModified?: number;
  /**
   * The catalog's surrogate keys for it (the products it shows, `sales` when its order depends on units sold);
   * undefined when the catalog named none, which means it may depend on any product.
   */
  readonly keys?: readonly string[];
  /** Where a list's products are in raw, when the catalog said (its Product-Lengths header). */
  readonly parts?: ListParts;
  /**
   * Products of the list whose bytes in raw are out of date (a stock write named them and nothing else): the
   * entry is served only once they are replaced (patch.ts).
   */
  stale?: Set<string>;
  /** The count of purges the store had checked it against (store.ts); set when it is kept. */
  asOf: number;
  bytes: number;
}

/** A list's products within its raw bytes `[p0,p1,…]`: their ids, and where each one's bytes start and end. */
export interface ListParts {
  readonly ids: readonly string[];
  readonly starts: readonly number[];
  readonly ends: readonly number[];
}

/** The surrogate key of a response showing this product (the catalog's productKey). */
export const PRODUCT_KEY_PREFIX = 'product:';

/**
 * The products of a list and where their bytes are, from the catalog's surrogate keys (the products in order) and
 * Product-Lengths header; undefined unless both are there and add up to the body exactly.
 */
function partsOf(body: Buffer, keys: readonly string[] | undefined, lengths: unknown): ListParts | undefined {
  if (!keys || typeof lengths !== 'string' || body[0] !== 0x5b) return undefined; // [
  const ids = keys.filter((k) => k.startsWith(PRODUCT_KEY_PREFIX)).map((k) => k.slice(PRODUCT_KEY_PREFIX.length));
  const sizes = lengths.split(' ').map(Number);
  if (!ids.length || sizes.length !== ids.length) return undefined;
  const starts: number[] = [];
  const ends: number[] = [];
  let at = 1;
  for (const size of sizes) {
    if (!Number.isInteger(size) || size <= 0 || (starts.length && body[at++] !== 0x2c)) return undefined; // ,
    starts.push(at);
    at += size;
    ends.push(at);
  }
  return at === body.length - 1 && body[at] === 0x5d ? { ids, starts, ends } : undefined; // ]
}

/** Whether an upstream answer may be kept and shared: a public 200 JSON body of reasonable size. */
export function isCacheable(up: Upstream): boolean {
  if (up.status !== 200 || up.body.length > MAX_CACHED_BODY) return false;
  const type = up.headers['content-type'];
  if (typeof type !== 'string' || !JSON_TYPE.test(type)) return false;
  const encoding = up.headers['content-encoding'];
  if (encoding && encoding !== 'identity') return false;
  if (up.headers['set-cookie']) return false;
  if (/\b(no-store|private)\b/i.test(up.headers['cache-control'] ?? '')) return false;
  if ((up.headers.vary ?? '').includes('*')) return false;
  return true;
}

export function entryOf(key: string, up: Upstream): Entry {
  const upstreamEtag = up.headers.etag;
  const etag =
    typeof upstreamEtag === 'string' && upstreamEtag
      ? upstreamEtag
      : `"${createHash('sha1').update(up.body).digest('base64url')}"`;
  const headers: Array<[string, string]> = [];
  for (const name of KEPT_HEADERS) {
    const value = up.headers[name];
    if (typeof value === 'string') headers.push([name, value]);
  }
  const lastModified = up.headers['last-modified'] ? Date.parse(up.headers['last-modified']) : NaN;
  const surrogateKeys = up.headers['surrogate-key'];
  const keys = typeof surrogateKeys === 'string' ? surrogateKeys.split(' ').filter(Boolean) : undefined;
  return {
    key,
    raw: up.body,
    etag,
    weakEtag: etag.startsWith('W/') ? etag : `W/${etag}`,
    headers,
    flat: headers.flat(),
    flat304: headers.filter(([name]) => name !== 'content-type').flat(),
    lastModified: Number.isNaN(lastModified) ? undefined : lastModified,
    keys,
    parts: partsOf(up.body, keys, up.headers['product-lengths']),
    asOf: 0,
    bytes: up.body.length,
  };
}

/**
 * Makes the gzip variant once, however many requests ask at the same time. Lazily: most keys of a browsing
 * mix are read once, often by clients that do not ask for gzip, and compressing them all would cost more CPU
 * than serving them. `made` is told the variant's size, for the byte budget.
 */
export function zip(entry: Entry, made: (extraBytes: number) => void): Promise<void> {
  entry.zipping ??= gzip(entry.raw).then((zipped) => {
    entry.gzip = zipped.length < entry.raw.length ? zipped : null;
    if (entry.gzip) made(entry.gzip.length);
  });
  return entry.zipping;
}
