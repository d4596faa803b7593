import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { REQUEST_ID_HEADER } from '@shop/contracts';
import type { Logger } from './logger';

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
    const started = process.hrtime.bigint();
    const incoming = req.headers[REQUEST_ID_HEADER];
    const requestId = typeof incoming === 'string' && SANE_ID.test(incoming) ? incoming : randomUUID();
    req.headers[REQUEST_ID_HEADER] = requestId;
    res.setHeader(REQUEST_ID_HEADER, requestId);

    let logged = false;
    const log = (): void => {
      if (logged) return;
      logged = true;
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      const line = {
        requestId,
        method: req.method,
        path: req.originalUrl.split('?')[0],
        status: res.statusCode,
        ms: Math.round(ms * 10) / 10,
        upstream: (res.locals.upstream as string | undefined) ?? null,
        ...(res.writableFinished ? {} : { aborted: true }),
      };
      if (res.statusCode >= 500) logger.warn(line, 'request');
      else logger.info(line, 'request');
    };
    res.on('finish', log);
    res.on('close', log);
    next();
  };
}
