import { createHash } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { promisify } from 'node:util';
import { gzip as gzipCallback } from 'node:zlib';

const gzip = promisify(gzipCallback);

/** Largest upstream body that is kept. */
const MAX_CACHED_BODY = 1024 * 1024;

/** Upstream headers a kept response is served with (everything else is the gateway's own). */
const KEPT_HEADERS = ['content-type', 'cache-control', 'last-modified'] as const;

/** An upstream answer, fully buffered. */
export interface Upstream {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/** A kept response. */
export interface Entry {
  readonly key: string;
  readonly raw: Buffer;
  /** The gzip variant, made for the first request that accepts it; null when gzip does not make it smaller. */
  gzip?: Buffer | null;
  zipping?: Promise<void>;
  /** Strong (as the upstream sent it, or computed). The gzip variant is sent with its weak form. */
  readonly etag: string;
  readonly weakEtag: string;
  /** content-type, cache-control, last-modified as the upstream sent them. */
  readonly headers: ReadonlyArray<[string, string]>;
  readonly lastModified?: number;
  /** When it stops being fresh (Surrogate-Control max-age), in Date.now() terms. */
  readonly expiresAt: number;
  /**
   * The upstream's surrogate keys for it (what it shows): a purge of any of them drops it. Undefined when the
   * upstream named none, which means any purge may concern it.
   */
  readonly keys?: readonly string[];
  /** The count of purges the store had checked it against (store.ts); set when it is kept. */
  asOf: number;
  bytes: number;
}

/**
 * How long a shared cache may keep this answer: `Surrogate-Control: max-age=N` (the Edge Architecture header that
 * CDNs such as Fastly and Akamai honour, meant for caches in front of the origin and never passed on to browsers),
 * in seconds; 0 when the upstream gave no such permission.
 */
export function surrogateMaxAge(headers: IncomingHttpHeaders): number {
  const value = headers['surrogate-control'];
  if (typeof value !== 'string' || /\bno-store\b/i.test(value)) return 0;
  const match = /\bmax-age\s*=\s*(\d+)/i.exec(value);
  return match ? Number(match[1]) : 0;
}

/**
 * Whether an upstream answer may be kept and shared: a 200 the upstream allowed shared caches to keep
 * (Surrogate-Control), not private, no cookie, no Vary but on Accept-Encoding, not encoded, of reasonable size.
 */
export function isCacheable(up: Upstream): boolean {
  if (up.status !== 200 || up.body.length > MAX_CACHED_BODY || surrogateMaxAge(up.headers) <= 0) return false;
  const encoding = up.headers['content-encoding'];
  if (encoding && encoding !== 'identity') return false;
  if (up.headers['set-cookie']) return false;
  if (/\b(no-store|private)\b/i.test(up.headers['cache-control'] ?? '')) return false;
  const vary = (up.headers.vary ?? '')
    .toLowerCase()
    .replace(/accept-encoding/g, '')
    .replace(/[\s,]/g, '');
  return vary === '';
}

export function entryOf(key: string, up: Upstream, now = Date.now()): Entry {
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
  return {
    key,
    raw: up.body,
    etag,
    weakEtag: etag.startsWith('W/') ? etag : `W/${etag}`,
    headers,
    lastModified: Number.isNaN(lastModified) ? undefined : lastModified,
    expiresAt: now + surrogateMaxAge(up.headers) * 1000,
    keys: typeof surrogateKeys === 'string' ? surrogateKeys.split(' ').filter(Boolean) : undefined,
    asOf: 0,
    bytes: up.body.length,
  };
}

/**
 * Makes the gzip variant once, however many requests ask at the same time. Lazily: many keys are read once, often
 * by clients that do not ask for gzip, and compressing them all would cost more CPU than serving them. `made` is
 * told the variant's size, for the byte budget.
 */
export function zip(entry: Entry, made: (extraBytes: number) => void): Promise<void> {
  entry.zipping ??= gzip(entry.raw).then((zipped) => {
    entry.gzip = zipped.length < entry.raw.length ? zipped : null;
    if (entry.gzip) made(entry.gzip.length);
  });
  return entry.zipping;
}
