import type { ServerResponse } from 'node:http';
import type { ApiError } from '@shop/contracts';

export const MESSAGES = {
  notFound: 'Not found',
  tooLarge: 'Request body is too large',
  tooMany: 'Too many requests, please try again later',
  internal: 'Internal server error',
  badPath: 'Invalid request path',
} as const;

/**
 * Writes the one error shape of the /api surface (docs/api.md#conventions). Works on a bare ServerResponse too, so the
 * proxy's error handler can use it. Returns false, writing nothing, once headers are out.
 */
export function sendError(res: ServerResponse, statusCode: number, message: string, headers = {}): boolean {
  if (res.headersSent || res.writableEnded || res.destroyed) return false;
  const payload = JSON.stringify({ message, statusCode } satisfies ApiError);
  res.writeHead(statusCode, {
    ...headers,
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(payload),
    'Cache-Control': 'no-store',
  });
  res.end(payload);
  return true;
}

/** 503 "Catalog service is unavailable" (for "catalog"), or the connection cut if the answer had begun. */
export function sendUnavailable(res: ServerResponse, service: string): void {
  if (!sendError(res, 503, `${service.charAt(0).toUpperCase()}${service.slice(1)} service is unavailable`))
    res.destroy();
}
