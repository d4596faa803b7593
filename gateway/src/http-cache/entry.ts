import { createHash } from 'node:crypto';
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import fresh from 'fresh';
import Negotiator from 'negotiator';
import { notesOf } from '../request-id';

/** Largest upstream body that is kept. */
const MAX_CACHED_BODY = 1024 * 1024;

/** Upstream headers a kept response is served with (everything else is the gateway's own). */
const KEPT_HEADERS = ['content-type', 'cache-control', 'last-modified'] as const;

/** Not passed on from an answer that is not kept: hop-by-hop (RFC 9110 §7.6.1), the banner, the cache's own. */
const NOT_FORWARDED =
  /^(connection|keep-alive|proxy-auth.*|te|trailer|transfer-encoding|upgrade|x-powered-by|surrogate-.*)$/;

export interface Upstream {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/**
 * How long a shared cache may keep this answer, in seconds: `Surrogate-Control: max-age=N`, the Edge Architecture
 * header that CDNs such as Fastly and Akamai honour, meant for caches in front of the origin and never passed on to
 * browsers. 0 when the upstream gave no such permission.
 */
export function surrogateMaxAge(headers: IncomingHttpHeaders): number {
  const value = headers['surrogate-control'];
  if (typeof value !== 'string' || /\bno-store\b/i.test(value)) return 0;
  return Number(/\bmax-age\s*=\s*(\d+)/i.exec(value)?.[1] ?? 0);
}

/**
 * Whether an upstream answer may be kept and shared: a 200 the upstream allowed shared caches to keep, not private,
 * no cookie, no Vary but on Accept-Encoding, not encoded, of reasonable size.
 */
export function isCacheable({ status, headers, body }: Upstream): boolean {
  if (status !== 200 || body.length > MAX_CACHED_BODY || surrogateMaxAge(headers) <= 0) return false;
  if ((headers['content-encoding'] ?? 'identity') !== 'identity' || headers['set-cookie']) return false;
  if (/\b(no-store|private)\b/i.test(headers['cache-control'] ?? '')) return false;
  return (headers.vary ?? '').toLowerCase().replace(/accept-encoding|[\s,]/g, '') === '';
}

/** A kept response; replaced by one with its gzip variant once that is made (the store counts its size when set). */
export type Entry = ReturnType<typeof entryOf>;

export function entryOf({ headers, body }: Upstream) {
  const kept: Record<string, string> = {};
  for (const name of KEPT_HEADERS) {
    const value = headers[name];
    if (value) kept[name] = value;
  }
  const keys = headers['surrogate-key'];
  return {
    raw: body,
    /** Undefined until a client asks for it; null when gzip does not make it smaller. */
    gzip: undefined as Buffer | null | undefined,
    /** Strong (as the upstream sent it, or computed); the gzip variant is sent with its weak form. */
    etag: headers.etag || `"${createHash('sha1').update(body).digest('base64url')}"`,
    headers: kept as Readonly<Record<string, string>>,
    /** The upstream's surrogate keys (what it shows); undefined when it named none: any purge may concern it. */
    keys: typeof keys === 'string' ? keys.split(' ').filter(Boolean) : undefined,
    /** When it stops being fresh (Surrogate-Control max-age), in Date.now() terms. */
    expiresAt: Date.now() + surrogateMaxAge(headers) * 1000,
    /** The purge count it was last checked against (`kept` in index.ts). */
    asOf: 0,
  };
}

/** Whether Accept-Encoding allows gzip, as `compression` reads it (q-values, `*`). */
export const acceptsGzip = (header: string | undefined): boolean =>
  new Negotiator({ headers: { 'accept-encoding': header } }).encoding(['gzip']) === 'gzip';

/** Answers from an entry: its gzip variant when one is given (the client takes it), else its bytes as kept. */
export function serveEntry(
  req: IncomingMessage,
  res: ServerResponse,
  entry: Entry,
  zipped: Buffer | null | undefined,
  outcome: 'HIT' | 'MISS',
): void {
  notesOf(res).cache = outcome;
  res.setHeader('x-cache', outcome);
  const vary = res.getHeader('Vary'); // CORS may have set Vary: Origin
  res.setHeader('Vary', vary === undefined ? 'Accept-Encoding' : `${String(vary)}, Accept-Encoding`);
  const etag = zipped && !entry.etag.startsWith('W/') ? `W/${entry.etag}` : entry.etag;
  res.setHeader('ETag', etag);
  for (const name in entry.headers) res.setHeader(name, entry.headers[name]);
  // A client's `Cache-Control: no-cache` asks for an answer validated with the origin (fetch() sends it with any
  // If-None-Match set by hand): a kept entry is the catalog's current answer, purged when it changes, so its validators
  // stand. `fresh`, written for origin servers, would answer such a request with the whole body.
  const { 'cache-control': _validated, ...conditional } = req.headers;
  if (fresh(conditional, { etag, 'last-modified': entry.headers['last-modified'] })) {
    res.removeHeader('content-type');
    res.statusCode = 304;
    res.end();
    return;
  }
  if (zipped) res.setHeader('Content-Encoding', 'gzip');
  sendBody(req, res, 200, zipped ?? entry.raw);
}

/** Passes on an upstream answer that is not kept (an error, a non-JSON body, too large, no-store). */
export function servePassed(req: IncomingMessage, res: ServerResponse, { status, headers, body }: Upstream): void {
  notesOf(res).cache = 'MISS';
  for (const [name, value] of Object.entries(headers))
    if (value !== undefined && !NOT_FORWARDED.test(name)) res.setHeader(name, value);
  res.setHeader('x-cache', 'MISS');
  sendBody(req, res, status, body);
}

function sendBody(req: IncomingMessage, res: ServerResponse, status: number, body: Buffer): void {
  res.statusCode = status;
  res.setHeader('Content-Length', body.length);
  res.end(req.method === 'HEAD' ? undefined : body);
}
