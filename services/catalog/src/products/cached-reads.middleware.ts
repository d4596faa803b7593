import { Injectable, NestMiddleware } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { CatalogCache, sendCached } from '../cache/catalog-cache';
import { cacheKeyOf, parseProductListQuery } from './product-query';

const PREFIX = '/api/products';
const OBJECT_ID = /^[0-9a-f]{24}$/i;

/**
 * The hot path: a public catalogue read already in this replica's cache is answered here, before
 * Nest's router, guards, pipes and interceptors. Anything else (a miss, a write, a malformed query
 * that deserves its 400) goes on to ProductsController, which uses the very same cache keys.
 */
export function publicReadKey(pathname: string, query: Record<string, unknown>): string | undefined {
  if (pathname === PREFIX) {
    try {
      return `list:${cacheKeyOf(parseProductListQuery(query))}`;
    } catch {
      return undefined;
    }
  }
  if (!pathname.startsWith(`${PREFIX}/`)) return undefined;
  const rest = pathname.slice(PREFIX.length + 1);
  if (rest === 'new-arrivals' || rest === 'best-seller') return rest;
  if (rest.startsWith('similar/') && OBJECT_ID.test(rest.slice(8))) return `similar:${rest.slice(8).toLowerCase()}`;
  if (OBJECT_ID.test(rest)) return `product:${rest.toLowerCase()}`;
  return undefined;
}

@Injectable()
export class CachedReadsMiddleware implements NestMiddleware {
  constructor(private readonly cache: CatalogCache) {}

  async use(req: Request, res: Response, next: NextFunction): Promise<void> {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    const pathname = req.originalUrl.split('?', 1)[0];
    const key = publicReadKey(pathname, req.query as Record<string, unknown>);
    const hit = key ? await this.cache.peek(key) : undefined;
    if (!hit) return next();
    sendCached(req, res, hit);
  }
}
