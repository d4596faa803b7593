import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import type { Logger } from 'pino';
import { REQUEST_ID_HEADER, type ServiceName } from '@shop/contracts';
import { observeRequest } from './metrics';
import { pathOf } from './routes';

const SANE_ID = /^[A-Za-z0-9._-]{1,128}$/;

/** What a request's access-log line and metrics say besides its method, path and status. */
export interface RequestNotes {
  /** The service that answered (proxied, or filled the HTTP cache). */
  upstream?: ServiceName;
  cache?: 'HIT' | 'MISS' | 'BYPASS';
  /** The route-table prefix that dispatched it (the metrics' route label). */
  route?: string;
}

/** The notes of a request, kept as Express's `res.locals` (Express keeps an existing one). */
export function notesOf(res: ServerResponse): RequestNotes {
  return ((res as ServerResponse & { locals?: RequestNotes }).locals ??= {});
}

/** The request id of a request that went through {@link beginRequest}. */
export const requestIdOf = (req: IncomingMessage): string => String(req.headers[REQUEST_ID_HEADER] ?? '');

/**
 * Takes a sane incoming x-request-id or makes one, puts it on the request headers (so the proxy forwards it) and on
 * the response, and writes one access-log line and counts the request (metrics.ts) when the response is done or cut
 * off: a response emits `close` either way, after `finish` when it was sent whole.
 */
export function beginRequest(req: IncomingMessage, res: ServerResponse, logger: Logger): void {
  const started = performance.now();
  const incoming = req.headers[REQUEST_ID_HEADER];
  const requestId = typeof incoming === 'string' && SANE_ID.test(incoming) ? incoming : randomUUID();
  req.headers[REQUEST_ID_HEADER] = requestId;
  res.setHeader(REQUEST_ID_HEADER, requestId);
  res.once('close', () => {
    const ms = performance.now() - started;
    const notes = notesOf(res);
    const url = (req as { originalUrl?: string }).originalUrl ?? req.url ?? '/';
    observeRequest(req, res, ms / 1000, notes.route);
    const line: Record<string, unknown> = {
      requestId,
      method: req.method,
      path: pathOf(url),
      status: res.statusCode,
      ms: Math.round(ms * 10) / 10,
      upstream: notes.upstream ?? null,
    };
    if (notes.cache) line.cache = notes.cache;
    if (!res.writableFinished) line.aborted = true;
    if (res.statusCode >= 500) logger.warn(line, 'request');
    else logger.info(line, 'request');
  });
}
