import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { REQUEST_ID_HEADER } from '@shop/contracts';
import type { Logger } from './logger';
import { observeRequest } from './metrics';

const SANE_ID = /^[A-Za-z0-9._-]{1,128}$/;

/** The request id of a request that went through {@link requestContext}. */
export function requestIdOf(req: IncomingMessage): string {
  const value = req.headers[REQUEST_ID_HEADER];
  return typeof value === 'string' ? value : '';
}

/**
 * Takes a sane incoming x-request-id or makes one, puts it on the request headers (so the proxy
 * forwards it) and on the response, and writes one access-log line when the response is done.
 */
export function requestContext(logger: Logger): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    beginRequest(req, res, logger);
    next();
  };
}

/** The work of {@link requestContext}. */
function beginRequest(req: IncomingMessage, res: ServerResponse, logger: Logger): string {
  const started = process.hrtime.bigint();
  const requestId = assignRequestId(req);
  res.setHeader(REQUEST_ID_HEADER, requestId);
  logWhenDone(req, res, logger, requestId, started);
  return requestId;
}

/** Keeps a sane incoming id or makes one; puts it on the request headers (so the proxy forwards it). */
function assignRequestId(req: IncomingMessage): string {
  const incoming = req.headers[REQUEST_ID_HEADER];
  const requestId = typeof incoming === 'string' && SANE_ID.test(incoming) ? incoming : randomUUID();
  req.headers[REQUEST_ID_HEADER] = requestId;
  return requestId;
}

/** Writes the one access-log line of a request, and counts it (metrics.ts), when its response is done (or cut off). */
function logWhenDone(
  req: IncomingMessage,
  res: ServerResponse,
  logger: Logger,
  requestId: string,
  started: bigint,
): void {
  let logged = false;
  const log = (): void => {
    if (logged) return;
    logged = true;
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    observeRequest(req, res, ms / 1000);
    const locals = (res as Partial<Response>).locals ?? {};
    const url = (req as Partial<Request>).originalUrl ?? req.url ?? '/';
    const line = {
      requestId,
      method: req.method,
      path: url.split('?')[0],
      status: res.statusCode,
      ms: Math.round(ms * 10) / 10,
      upstream: (locals.upstream as string | undefined) ?? null,
      ...(locals.cache ? { cache: locals.cache as string } : {}),
      ...(res.writableFinished ? {} : { aborted: true }),
    };
    if (res.statusCode >= 500) logger.warn(line, 'request');
    else logger.info(line, 'request');
  };
  res.on('finish', log);
  res.on('close', log);
}
