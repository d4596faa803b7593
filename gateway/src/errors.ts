import type { ServerResponse } from 'node:http';
import type { ApiError } from '@shop/contracts';

export const MESSAGES = {
  notFound: 'Not found',
  tooLarge: 'Request body is too large',
  tooMany: 'Too many requests, please try again later',
  internal: 'Internal server error',
  badPath: 'Invalid request path',
} as const;

/** "catalog" → "Catalog service is unavailable" */
export function unavailableMessage(service: string): string {
  return `${service.charAt(0).toUpperCase()}${service.slice(1)} service is unavailable`;
}

/**
 * Writes the one error shape of the /api surface (API.md "Conventions"). Works on a bare
 * ServerResponse too, so the proxy's error handler can use it. No-op once headers are out.
 */
export function sendError(
  res: ServerResponse,
  statusCode: number,
  message: string,
  headers: Record<string, string> = {},
): boolean {
  if (res.headersSent || res.writableEnded || res.destroyed) return false;
  const body: ApiError = { message, statusCode };
  const payload = JSON.stringify(body);
  res.statusCode = statusCode;
  for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Content-Length', Buffer.byteLength(payload));
  res.setHeader('Cache-Control', 'no-store');
  res.end(payload);
  return true;
}
