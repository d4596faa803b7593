import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { notesOf } from '../request-id';
import type { Entry, Upstream } from './entry';

/** Not forwarded from an uncacheable upstream answer (RFC 9110 §7.6.1, the upstream's banner, its cache directives and tags). */
const NOT_FORWARDED = new Set([
  'connection',
  'keep-alive',
  'proxy-authenticate',
  'proxy-authorization',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'x-powered-by',
  'surrogate-key',
  'surrogate-control',
]);

/** Whether Accept-Encoding allows gzip (honours q=0 and `*`). */
export function acceptsGzip(header: string | undefined): boolean {
  if (!header) return false;
  let star: number | undefined;
  for (const part of header.split(',')) {
    const [name, ...params] = part.split(';');
    const token = name.trim().toLowerCase();
    if (token !== 'gzip' && token !== 'x-gzip' && token !== '*') continue;
    let q = 1;
    for (const param of params) {
      const match = /^\s*q\s*=\s*([0-9.]+)\s*$/i.exec(param);
      if (match) q = Number(match[1]);
    }
    if (token === '*') star = q;
    else return q > 0;
  }
  return star !== undefined && star > 0;
}

/** If-None-Match (weak comparison, `*`), else If-Modified-Since against the stored Last-Modified. */
export function isNotModified(
  headers: IncomingHttpHeaders,
  validators: { etag: string; lastModified?: number },
): boolean {
  const noneMatch = headers['if-none-match'];
  if (noneMatch !== undefined) {
    const opaque = validators.etag.replace(/^W\//, '');
    return noneMatch.split(',').some((tag) => {
      const t = tag.trim();
      return t === '*' || t.replace(/^W\//, '') === opaque;
    });
  }
  const since = headers['if-modified-since'];
  if (since !== undefined && validators.lastModified !== undefined) {
    const sinceMs = Date.parse(since);
    return !Number.isNaN(sinceMs) && validators.lastModified <= sinceMs;
  }
  return false;
}

export function appendVary(res: ServerResponse, field: string): void {
  const current = res.getHeader('Vary');
  if (current === undefined) res.setHeader('Vary', field);
  else if (!String(current).toLowerCase().includes(field.toLowerCase()))
    res.setHeader('Vary', `${String(current)}, ${field}`);
}

/** Answers from an entry through setHeader (a miss just filled, or a hit that had to wait for its gzip). */
export function serveEntry(req: IncomingMessage, res: ServerResponse, entry: Entry, outcome: 'HIT' | 'MISS'): void {
  // the gzip variant, made already when this request takes it (zip in entry.ts)
  const zipped = acceptsGzip(req.headers['accept-encoding']) && entry.gzip != null;
  notesOf(res).cache = outcome;
  res.setHeader('x-cache', outcome);
  appendVary(res, 'Accept-Encoding'); // CORS may have set Vary: Origin
  res.setHeader('ETag', zipped ? entry.weakEtag : entry.etag);
  if (isNotModified(req.headers, entry)) {
    for (const [name, value] of entry.headers) if (name !== 'content-type') res.setHeader(name, value);
    res.statusCode = 304;
    res.end();
    return;
  }
  for (const [name, value] of entry.headers) res.setHeader(name, value);
  const body = zipped ? (entry.gzip as Buffer) : entry.raw;
  if (zipped) res.setHeader('Content-Encoding', 'gzip');
  res.setHeader('Content-Length', body.length);
  res.statusCode = 200;
  if (req.method === 'HEAD') res.end();
  else res.end(body);
}

/** Passes on an upstream answer that is not kept (an error, a non-JSON body, too large, no-store). */
export function servePassed(req: IncomingMessage, res: ServerResponse, passed: Upstream): void {
  notesOf(res).cache = 'MISS';
  for (const [name, value] of Object.entries(passed.headers)) {
    if (value !== undefined && !NOT_FORWARDED.has(name)) res.setHeader(name, value);
  }
  res.setHeader('x-cache', 'MISS');
  res.setHeader('Content-Length', passed.body.length);
  res.statusCode = passed.status;
  if (req.method === 'HEAD') res.end();
  else res.end(passed.body);
}
