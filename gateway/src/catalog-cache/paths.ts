import type { IncomingMessage } from 'node:http';
import { DOT_SEGMENT } from '../proxy';

/**
 * The cache key's path for a public catalogue read, or undefined when the path is not one: lower-cased,
 * without a trailing slash. Paths with percent escapes or dot segments are left to the proxy (which
 * rejects dot segments), so that two different upstream paths can never share an entry.
 */
export function cacheablePath(rawPath: string): string | undefined {
  if (rawPath.length < 13 || rawPath.includes('%')) return undefined;
  const lowered = rawPath.toLowerCase().replace(/\/+$/, '');
  if (lowered !== '/api/products' && !lowered.startsWith('/api/products/')) return undefined;
  if (DOT_SEGMENT.test(lowered)) return undefined;
  return lowered;
}

/** The key of a cacheable read (GET/HEAD of a public catalogue path, query kept as sent), else undefined. */
export function cacheKeyOf(req: IncomingMessage): string | undefined {
  if (req.method !== 'GET' && req.method !== 'HEAD') return undefined;
  const url = req.url ?? '/';
  const q = url.indexOf('?');
  const path = cacheablePath(q === -1 ? url : url.slice(0, q));
  if (path === undefined) return undefined;
  return q === -1 ? path : `${path}${url.slice(q)}`;
}
