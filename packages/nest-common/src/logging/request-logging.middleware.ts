import { REQUEST_ID_HEADER } from '@shop/contracts';
import type { NextFunction, Request, Response } from 'express';
import type { Logger } from 'pino';
import { normaliseRequestId, runWithRequestContext } from './request-context';

/**
 * Runs every HTTP request inside its request context, echoes the id, and writes one
 * access line when the response is finished.
 */
export function requestLogging(logger: Logger) {
  return (req: Request, res: Response, next: NextFunction) => {
    const requestId = normaliseRequestId(req.headers[REQUEST_ID_HEADER]);
    req.headers[REQUEST_ID_HEADER] = requestId;
    res.setHeader(REQUEST_ID_HEADER, requestId);
    const started = process.hrtime.bigint();
    runWithRequestContext({ requestId }, () => {
      res.on('finish', () => {
        const ms = Number(process.hrtime.bigint() - started) / 1e6;
        const line = {
          method: req.method,
          path: req.originalUrl.split('?')[0],
          status: res.statusCode,
          ms: Math.round(ms * 10) / 10,
        };
        if (req.path === '/health' || req.path === '/ready') logger.debug(line, 'request');
        else logger.info(line, 'request');
      });
      next();
    });
  };
}
