import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Redis } from 'ioredis';
import { Counter, Gauge, type Registry } from 'prom-client';
import type { ServiceName } from '@shop/contracts';
import type { GatewayConfig } from '../config';
import { sendError, unavailableMessage } from '../errors';
import { throttled, type Logger } from '../logger';
import type { ProductRead } from '../product-page';
import { notesOf, requestIdOf } from '../request-id';
import { DOT_SEGMENT, matchRoute, normalisePath, ROUTES } from '../routes';
import { zip, type Entry } from './entry';
import { createFiller, type FillResult } from './fill';
import { followCatalogVersion } from './invalidation';
import { acceptsGzip, serveEntry, servePassed } from './respond';
import { createStore } from './store';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export type HttpCache = ReturnType<typeof createHttpCache>;
export type HttpCacheStats = ReturnType<HttpCache['stats']>;

/**
 * The cache key of a GET/HEAD on a route marked `cached` (its path lower-cased without a trailing slash, its query as
 * sent), else undefined. Paths with percent escapes or dot segments are left to the proxy, so that two different
 * upstream paths can never share an entry.
 */
export function cacheKeyOf(method: string | undefined, url: string): string | undefined {
  if (method !== 'GET' && method !== 'HEAD') return undefined;
  const q = url.indexOf('?');
  const path = q === -1 ? url : url.slice(0, q);
  if (path.includes('%') || !matchRoute(path)?.cached) return undefined;
  const normal = normalisePath(path);
  if (DOT_SEGMENT.test(normal)) return undefined;
  return q === -1 ? normal : `${normal}${url.slice(q)}`;
}

/**
 * An ordinary shared HTTP cache in front of the routes marked `cached` in the route table (today the public
 * catalogue, `/api/products`), the way a CDN or nginx's proxy_cache would sit there:
 * - keyed by URL; a 200 is kept, bytes exactly as the upstream sent them, only when the upstream's
 *   `Surrogate-Control: max-age` allows it, for at most that long (entry.ts), least recently used evicted first
 *   (store.ts);
 * - revalidation by the client is answered from the entry (`ETag`, `Last-Modified` as the upstream sent them);
 *   the gzip variant is made once;
 * - concurrent misses of one URL make one upstream request (fill.ts), like proxy_cache_lock;
 * - purged by the surrogate keys the catalog names: it publishes `<sequence> [<key>…]` on its purge channel in Redis
 *   after each change (invalidation.ts); a message without keys, or a gap in the sequence, empties the cache;
 *   while the sequence is unknown (Redis away) nothing is kept and every read is proxied.
 * It knows nothing of what it keeps: no product, no list, no query.
 */
export function createHttpCache(config: GatewayConfig, redis: Redis, logger: Logger, metrics?: Registry) {
  const { maxEntries, maxBytes, prefix, versionPollMs } = config.catalogCache;
  const store = createStore({ maxEntries, maxBytes });
  const cachedServices = new Set(ROUTES.filter((route) => route.cached).map((route) => route.service));
  const mayKeep = () => follower.version !== undefined;
  const fillers = new Map(
    [...cachedServices].map((service) => [service, createFiller(config, service, store, logger, mayKeep)]),
  );
  const forgetInflight = () => fillers.forEach((filler) => filler.forgetInflight());
  const follower = followCatalogVersion(redis, { prefix, pollMs: versionPollMs }, logger, {
    dropAll: () => {
      store.dropAll();
      forgetInflight();
    },
    purge: (keys) => {
      store.purge(keys);
      forgetInflight();
    },
  });
  const counters = { hits: 0, misses: 0, bypassed: 0 };
  const warnBypass = throttled(10_000);

  /**
   * The kept entry for the key, or the fill's result (kept when cacheable and purges can be heard). `url`: the path and
   * query to ask the upstream for, as the client sent them.
   */
  const lookup = (key: string, url: string, req?: IncomingMessage): Promise<FillResult> | { entry: Entry } => {
    const entry = follower.version === undefined ? undefined : store.get(key);
    if (entry) {
      counters.hits += 1;
      return { entry };
    }
    counters.misses += 1;
    return fillers.get(matchRoute(url.split('?')[0])!.service)!.fill(key, url, req);
  };

  const answer = async (key: string, url: string, req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const service = matchRoute(url.split('?')[0])!.service;
    const found = lookup(key, url, req);
    const outcome = 'entry' in found ? 'HIT' : 'MISS';
    if (outcome === 'MISS') notesOf(res).upstream = service;
    const result = await found;
    if (res.headersSent || res.destroyed) return;
    if ('passed' in result) return servePassed(req, res, result.passed);
    if ('failed' in result) {
      if (!sendError(res, 503, unavailableMessage(service))) res.destroy();
      return;
    }
    const { entry } = result;
    if (acceptsGzip(req.headers['accept-encoding'])) await zip(entry, (extra) => store.grew(entry, extra));
    if (res.headersSent || res.destroyed) return;
    serveEntry(req, res, entry, outcome);
  };

  const stats = () => ({
    /** The purge sequence the cache follows; undefined while Redis is unreachable (every read is then proxied). */
    version: follower.version,
    entries: store.size,
    bytes: store.bytes,
    ...counters,
  });
  if (metrics) registerMetrics(metrics, stats);

  return {
    /** Answers GET/HEAD on the routes marked `cached`, else calls next(). Before compression: hits are sent as kept. */
    handle(req: IncomingMessage, res: ServerResponse, next: (err?: unknown) => void): void {
      const url = req.url ?? '/';
      const key = cacheKeyOf(req.method, url);
      if (key === undefined) return next();
      if (follower.version === undefined) {
        counters.bypassed += 1;
        warnBypass(() => logger.warn({ prefix }, 'HTTP cache bypassed: purge sequence unknown (Redis down?)'));
        res.setHeader('x-cache', 'BYPASS');
        return next();
      }
      answer(key, url, req, res).catch(next);
    },
    /**
     * A public GET of `path` through the cache, as a client of the API would make it (the product pages' read of a
     * product): the kept entry, or one fill shared with every client asking for it.
     */
    async read(path: string): Promise<ProductRead> {
      const key = cacheKeyOf('GET', path);
      if (key === undefined) throw new Error(`not a cached route: ${path}`);
      const result = await lookup(key, path);
      if ('entry' in result) return { status: 200, etag: result.entry.etag, body: result.entry.raw };
      if ('passed' in result) return { status: result.passed.status, body: result.passed.body };
      throw new Error(result.failed);
    },
    /** Proxy hook: a successful write proxied to a service whose answers are kept drops them (RFC 9111 §4.4). */
    onUpstreamResponse(req: IncomingMessage, statusCode: number, service: ServiceName): void {
      if (!cachedServices.has(service) || statusCode < 200 || statusCode > 299) return;
      if (SAFE_METHODS.has(req.method ?? 'GET')) return;
      store.dropAll();
      forgetInflight();
      logger.debug({ requestId: requestIdOf(req), method: req.method, service }, 'write succeeded: cache dropped');
    },
    /** Resolves true once the purge sequence is known (subscribed and read), false after timeoutMs. */
    whenArmed: (timeoutMs: number) => follower.whenArmed(timeoutMs),
    stats,
    close: async () => {
      await follower.close();
      fillers.forEach((filler) => filler.close());
    },
  };
}

/** The cache's counters and size on the gateway's metrics registry (read when scraped). */
function registerMetrics(registry: Registry, stats: () => HttpCacheStats): void {
  for (const name of ['shop_catalog_cache_requests_total', 'shop_catalog_cache_entries', 'shop_catalog_cache_bytes'])
    registry.removeSingleMetric(name); // a gateway built again in the same process (tests) reports its own cache
  new Counter({
    name: 'shop_catalog_cache_requests_total',
    help: 'Reads of cached routes at the gateway: hit (answered from memory), miss (filled from the service) or bypass (purge sequence unknown, proxied)',
    labelNames: ['result'] as const,
    registers: [registry],
    collect() {
      const s = stats();
      this.reset();
      this.inc({ result: 'hit' }, s.hits);
      this.inc({ result: 'miss' }, s.misses);
      this.inc({ result: 'bypass' }, s.bypassed);
    },
  });
  new Gauge({
    name: 'shop_catalog_cache_entries',
    help: 'Responses kept in the gateway HTTP cache',
    registers: [registry],
    collect() {
      this.set(stats().entries);
    },
  });
  new Gauge({
    name: 'shop_catalog_cache_bytes',
    help: 'Bytes kept in the gateway HTTP cache (raw and gzip variants)',
    registers: [registry],
    collect() {
      this.set(stats().bytes);
    },
  });
}
