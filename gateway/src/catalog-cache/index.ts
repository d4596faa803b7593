import type { IncomingMessage, ServerResponse } from 'node:http';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { Redis } from 'ioredis';
import type { CatalogueIndex } from '@shop/catalog-read-model';
import type { ServiceName } from '@shop/contracts';
import type { GatewayConfig } from '../config';
import { MESSAGES, sendError, unavailableMessage } from '../errors';
import { throttled, type Logger } from '../logger';
import { requestIdOf } from '../request-id';
import { normalisePath } from '../routes';
import { createCatalogueCopy } from './copy';
import { zip, type Entry } from './entry';
import { createFiller } from './fill';
import { acceptsGzip, noteForAccessLog } from './http';
import { followCatalogVersion } from './invalidation';
import { patched, productPageKey } from './patch';
import { cacheKeyOf } from './paths';
import { serveEntry, servePassed, writeEntry } from './respond';
import { createStore } from './store';

export { MAX_CACHED_BODY } from './entry';
export { acceptsGzip } from './http';
export { cacheablePath } from './paths';

/** Writes under these public prefixes may change what a public catalogue read shows. */
const WRITE_PREFIXES = ['/api/products', '/api/admin/products', '/api/upload'];
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Answers a request in front of Express: `head` is a flat [name, value, …] list of the headers that go first
 * (request id, security headers); nothing may have been set on the response before.
 */
export type FastAnswer = (res: ServerResponse, head: string[]) => void;

export interface CatalogCacheStats {
  /** The catalog version the cache follows; undefined while Redis is unreachable (cache bypassed). */
  version: string | undefined;
  entries: number;
  bytes: number;
  hits: number;
  misses: number;
  bypassed: number;
  /** Lists made current after stock writes instead of fetched again (counted among hits). */
  patched: number;
  /** Reads answered from the catalogue copy (counted among hits: from memory, not from the catalog). */
  copied: number;
  /** The version of the catalogue copy, once loaded (it answers while equal to `version`), and its products. */
  copy?: { version: number | undefined; products: number };
}

export interface CatalogCache {
  /** Express middleware: answers cacheable catalogue reads, else calls next(). Mount before compression. */
  handler: RequestHandler;
  /**
   * The fast lane: how to answer this request before Express (whose router and per-request helmet cost more
   * than a hit itself), when it is a cacheable read and the catalog version is known; else undefined.
   */
  fastLane(req: IncomingMessage): FastAnswer | undefined;
  /** Proxy hook: a 2xx answer to a catalogue write drops every entry at once. */
  onUpstreamResponse(req: IncomingMessage, statusCode: number, service: ServiceName): void;
  /** Resolves true once a version is known (subscribed and read), false after timeoutMs. */
  whenArmed(timeoutMs: number): Promise<boolean>;
  stats(): CatalogCacheStats;
  /**
   * The catalogue copy's index while it is current (copy.ts `currentIndex`), for a reader that prices from the
   * catalogue (the gateway's guest cart reads); undefined otherwise, or without a copy.
   */
  currentCatalogue(): CatalogueIndex | undefined;
  close(): Promise<void>;
}

/**
 * Public catalogue reads (GET/HEAD /api/products and below) answered from this process's memory. In parts:
 * - store.ts keeps the responses (LRU, byte budget) and checks each against the purges at its next read;
 * - invalidation.ts follows the catalog's version channel and drops what a change may have touched;
 * - patch.ts replaces, in a kept list, the bytes of the products a stock write changed;
 * - copy.ts holds a copy of the catalog's read model, kept at the same version, and answers what the store does
 *   not hold (or holds stale) as the catalog would, without asking it;
 * - fill.ts fetches a miss from the catalog once (while the copy is not current), however many requests wait;
 * - respond.ts writes the answers (../write-together.ts: a turn's writes back to back); `fastLane` gives app.ts
 *   what to run in front of Express.
 */
export function createCatalogCache(config: GatewayConfig, redis: Redis, logger: Logger): CatalogCache {
  const { maxEntries, maxBytes, prefix, versionPollMs } = config.catalogCache;
  const store = createStore({ maxEntries, maxBytes });
  const filler = createFiller(config, store, logger);
  const copy = config.catalogCache.copy
    ? createCatalogueCopy(config, redis, logger, () => follower.version)
    : undefined;
  const follower = followCatalogVersion(redis, { prefix, pollMs: versionPollMs }, logger, {
    dropAll: () => {
      store.dropAll();
      filler.forgetInflight();
      copy?.sync();
    },
    purge: (keys) => {
      store.purge(keys);
      filler.forgetInflight();
      copy?.sync();
    },
  });
  const counters = { hits: 0, misses: 0, bypassed: 0, patched: 0, copied: 0 };

  /** The copy's answer, kept in the store like a fill (a repeat is then a plain hit). */
  const fromCopy = (key: string): Entry | undefined => {
    const entry = copy?.answer(key);
    if (!entry) return undefined;
    store.admit(entry, store.ticket());
    counters.copied += 1;
    return entry;
  };
  const warnBypass = throttled(10_000);

  /**
   * Answers a cacheable read: from memory, or from one fill of the key shared by every request waiting for it.
   * In the fast lane (`head` given: the headers that go first) an entry is written in one writeHead; on the
   * Express path through setHeader. A gzip variant is made first if this client is the first to want it.
   */
  const answer = async (key: string, req: IncomingMessage, res: ServerResponse, head?: string[]) => {
    let entry = store.get(key);
    if (entry?.stale) entry = fromCopy(key) ?? (await madeCurrent(entry, req));
    entry ??= fromCopy(key);
    const outcome = entry ? 'HIT' : 'MISS';
    if (entry) counters.hits += 1;
    else {
      counters.misses += 1;
      noteForAccessLog(res, { upstream: 'catalog' });
      const result = await filler.fill(key, req);
      if (res.headersSent || res.destroyed) return;
      if ('entry' in result) entry = result.entry;
      else {
        for (let i = 0; head && i < head.length; i += 2) res.setHeader(head[i], head[i + 1]);
        if ('passed' in result) servePassed(req, res, result.passed);
        else if (!sendError(res, 503, unavailableMessage('catalog'))) res.destroy();
        return;
      }
    }
    if (acceptsGzip(req.headers['accept-encoding'])) await zip(entry, (extra) => store.grew(entry, extra));
    if (res.headersSent || res.destroyed) return;
    if (head) writeEntry(req, res, entry, outcome, head);
    else serveEntry(req, res, entry, outcome);
  };

  /**
   * A list whose products' stock changed since it was kept, made current from those products' pages: cached, or
   * fetched once (shared with every list and client that needs them: a stock write costs one product read, not a
   * read of every list showing it). Undefined when that fails (a product unpublished meanwhile, its page evicted):
   * the list is then fetched like any miss.
   */
  const madeCurrent = async (entry: Entry, req: IncomingMessage): Promise<Entry | undefined> => {
    for (let fetched = false; ; fetched = true) {
      const pages = new Map<string, Buffer>();
      for (const id of entry.stale ?? []) {
        const page = store.get(productPageKey(id));
        if (page) pages.set(id, page.raw);
      }
      if (pages.size === entry.stale?.size) {
        const next = patched(entry, pages);
        store.replace(entry, next);
        counters.patched += 1;
        return next;
      }
      if (fetched) return undefined;
      await Promise.all(
        [...(entry.stale ?? [])]
          .filter((id) => !pages.has(id))
          .map((id) => filler.fill(productPageKey(id), req, productPageKey(id))),
      );
      // Meanwhile another request may have made it current, or a change dropped it or named more of its products.
      const now = store.get(entry.key);
      if (!now?.stale) return now;
      entry = now;
    }
  };

  const fastLane = (req: IncomingMessage): FastAnswer | undefined => {
    const key = follower.version === undefined ? undefined : cacheKeyOf(req);
    if (key === undefined) return undefined;
    return (res, head) =>
      answer(key, req, res, head).catch((err: Error) => {
        logger.error({ requestId: requestIdOf(req), err }, 'unhandled error');
        if (!sendError(res, 500, MESSAGES.internal)) res.destroy();
      });
  };

  const handler: RequestHandler = (req: Request, res: Response, next: NextFunction) => {
    const key = cacheKeyOf(req);
    if (key === undefined) return next();
    if (follower.version === undefined) {
      counters.bypassed += 1;
      warnBypass(() => logger.warn({ prefix }, 'catalog cache bypassed: catalog version unknown (Redis down?)'));
      res.setHeader('x-cache', 'BYPASS');
      return next();
    }
    answer(key, req, res).catch(next);
  };

  const onUpstreamResponse = (req: IncomingMessage, statusCode: number, service: ServiceName): void => {
    if (service !== 'catalog' || statusCode < 200 || statusCode > 299) return;
    if (SAFE_METHODS.has(req.method ?? 'GET')) return;
    const path = normalisePath((req.url ?? '/').split('?')[0]);
    if (!WRITE_PREFIXES.some((p) => path === p || path.startsWith(`${p}/`))) return;
    store.dropAll();
    filler.forgetInflight();
    copy?.fence();
    logger.debug({ requestId: requestIdOf(req), method: req.method, path }, 'catalogue write: cache dropped');
  };

  return {
    handler,
    fastLane,
    onUpstreamResponse,
    whenArmed: (timeoutMs) => follower.whenArmed(timeoutMs),
    stats: () => ({
      version: follower.version,
      entries: store.size,
      bytes: store.bytes,
      ...counters,
      copy: copy?.stats(),
    }),
    currentCatalogue: () => copy?.currentIndex(),
    close: async () => {
      copy?.close();
      await follower.close();
      filler.close();
    },
  };
}
