import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Entry, Upstream } from './entry';
import { notesOf } from '../request-id';
import { acceptsGzip, appendVary, isNotModified } from './http';

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

/** Whether this request gets the gzip variant (made already: see zip in entry.ts). */
function wantsGzip(req: IncomingMessage, entry: Entry): boolean {
  return acceptsGzip(req.headers['accept-encoding']) && entry.gzip != null;
}

/** Answers from an entry through setHeader (a miss just filled, or a hit that had to wait for its gzip). */
export function serveEntry(req: IncomingMessage, res: ServerResponse, entry: Entry, outcome: 'HIT' | 'MISS'): void {
  const zipped = wantsGzip(req, entry);
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
