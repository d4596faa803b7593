import * as http from 'node:http';
import * as https from 'node:https';
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { buffer } from 'node:stream/consumers';
import type { TLSSocket } from 'node:tls';
import { promisify } from 'node:util';
import { gzip as gzipCallback } from 'node:zlib';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { Counter, Gauge } from 'prom-client';
import { REQUEST_ID_HEADER, type ServiceName } from '@shop/contracts';
import type { GatewayConfig } from '../config';
import { sendUnavailable } from '../errors';
import { registry } from '../metrics';
import type { ProductRead } from '../product-page';
import type { Agents } from '../proxy';
import { throttled } from '../redis';
import { isRefused, isRetriable, type ServiceReplicas } from '../replicas';
import { notesOf, requestIdOf } from '../request-id';
import { DOT_SEGMENT, matchRoute, normalisePath, pathOf, ROUTES } from '../routes';
import { acceptsGzip, entryOf, isCacheable, serveEntry, servePassed } from './entry';
import type { Entry, Upstream } from './entry';
import { followCatalogVersion } from './invalidation';

const gzip = promisify(gzipCallback);
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** What a fill brings (it rejects when the upstream fails): an entry to serve, or an answer to pass on as is. */
type FillResult = { entry: Entry } | { passed: Upstream };

/**
 * The cache key of a GET/HEAD on a route marked `cached` (its path lower-cased without a trailing slash, its query as
 * sent), else undefined. Paths with percent escapes or dot segments are left to the proxy, so that two different
 * upstream paths can never share an entry.
 */
export function cacheKeyOf(method: string | undefined, url: string): string | undefined {
  if (method !== 'GET' && method !== 'HEAD') return undefined;
  const path = pathOf(url);
  if (path.includes('%') || !matchRoute(path)?.cached) return undefined;
  const normal = normalisePath(path);
  if (DOT_SEGMENT.test(normal)) return undefined;
  return normal + url.slice(path.length);
}

/**
 * An ordinary shared HTTP cache in front of the routes marked `cached` in the route table (today the public
 * catalogue), the way a CDN or nginx's proxy_cache would sit there: keyed by URL, answers kept as the upstream sent
 * them when it allows (entry.ts), least recently used evicted first, client revalidation answered from the
 * entry, one upstream request for concurrent misses of a URL (like proxy_cache_lock), purged by the surrogate keys the
 * catalog names (invalidation.ts); while the purge sequence is unknown (Redis away) every read is proxied.
 * It knows nothing of what it keeps: no product, no list, no query.
 */
export function createHttpCache(
  config: GatewayConfig,
  redis: Redis,
  logger: Logger,
  agents: Agents,
  replicas: ServiceReplicas,
) {
  const { maxEntries, maxBytes, prefix, versionPollMs } = config.catalogCache;
  /** The kept responses, in insertion order, and reads re-insert: the first key is the least recently used. */
  const entries = new Map<string, Entry>();
  let bytes = 0;
  const sizeOf = (entry: Entry) => entry.raw.length + (entry.gzip?.length ?? 0);
  /**
   * A purge only notes the purge count at which each surrogate key it names changed; an entry is checked against those
   * notes when it is next read (a few map lookups, and only if a purge came since its last read), so a purge costs the
   * same whatever the number of entries. The notes are forgotten when everything is dropped: no entry is older.
   */
  const changedAt = new Map<string, number>();
  let purges = 0;
  /** Bumped when everything is dropped: a fill that started before must not keep its answer. */
  let generation = 0;
  const inflight = new Map<string, Promise<FillResult>>();
  const zipping = new WeakMap<Entry, Promise<Buffer | null>>();
  const reads = cacheMetrics(() => ({ entries: entries.size, bytes }));
  const warnBypass = throttled(10_000);

  const remove = (key: string): void => {
    const entry = entries.get(key);
    if (entry) bytes -= sizeOf(entry);
    entries.delete(key);
  };
  /** Keeps an entry as the most recently used, evicting the least recently used beyond the limits. */
  const keep = (key: string, entry: Entry): void => {
    remove(key);
    if (sizeOf(entry) > maxBytes) return;
    entries.set(key, entry);
    bytes += sizeOf(entry);
    for (const oldest of entries.keys()) {
      if (entries.size <= maxEntries && bytes <= maxBytes) break;
      remove(oldest);
    }
  };
  /** The entry for a key, unless it expired or a purge since it was last read named one of its keys (or it has none). */
  const kept = (key: string): Entry | undefined => {
    const entry = follower.version === undefined ? undefined : entries.get(key);
    if (!entry) return undefined;
    remove(key);
    if (entry.expiresAt <= Date.now()) return undefined;
    if (entry.asOf < purges && !entry.keys?.every((name) => (changedAt.get(name) ?? -1) <= entry.asOf))
      return undefined;
    entry.asOf = purges;
    keep(key, entry);
    return entry;
  };

  // After a change, later requests must not join a fill that started before it (inflight.clear).
  const invalidate = {
    dropAll() {
      generation += 1;
      entries.clear();
      bytes = 0;
      changedAt.clear();
      inflight.clear();
    },
    purge(keys: readonly string[]) {
      purges += 1;
      for (const key of keys) changedAt.set(key, purges);
      inflight.clear();
    },
  };
  const follower = followCatalogVersion(redis, { prefix, pollMs: versionPollMs }, logger, invalidate);

  /**
   * GETs `url` from the service anonymously (no Authorization or cookie: a shared entry must not depend on who asked
   * first), whole and unencoded (the cache gzips once itself), passing on the client's request id and address.
   */
  const fetchUpstream = async (service: ServiceName, url: string, req?: IncomingMessage): Promise<Upstream> => {
    // A GET: sent to the next replica in turn, and to another one if that one is gone (as the proxy does).
    const tried = new Set<string>();
    for (;;) {
      const target = replicas[service].pick(tried);
      if (target === undefined) throw new Error('no replica left'); // never: the loop below returns or throws first
      tried.add(target);
      try {
        return await fetchFrom(service, target, url, req);
      } catch (err) {
        if (isRefused(err)) replicas[service].refused(target);
        if (!isRetriable(err) || replicas[service].pick(tried) === undefined) throw err;
      }
    }
  };
  const fetchFrom = (service: ServiceName, target: string, url: string, req?: IncomingMessage): Promise<Upstream> => {
    const { protocol, hostname, port, host, pathname } = new URL(target);
    const headers: OutgoingHttpHeaders = {
      host: req?.headers.host ?? host, // as the proxy sends it (changeOrigin: false)
      accept: 'application/json',
      'accept-encoding': 'identity',
    };
    if (req) {
      const remote = req.socket.remoteAddress ?? '';
      const forwardedFor = req.headers['x-forwarded-for'];
      headers[REQUEST_ID_HEADER] = requestIdOf(req);
      headers['x-forwarded-for'] = forwardedFor ? `${String(forwardedFor)},${remote}` : remote;
      headers['x-forwarded-proto'] = (req.socket as TLSSocket).encrypted ? 'https' : 'http';
      headers['x-forwarded-host'] = headers.host;
    }
    return new Promise((resolve, reject) => {
      const path = pathname.replace(/\/$/, '') + url;
      const upstream = (protocol === 'https:' ? https : http)
        .request({ protocol, hostname, port, path, headers, agent: agents[service], timeout: config.proxyTimeoutMs })
        .on('response', (res: IncomingMessage) =>
          buffer(res).then((body) => resolve({ status: res.statusCode ?? 502, headers: res.headers, body }), reject),
        )
        .on('timeout', () => upstream.destroy(Object.assign(new Error('upstream timed out'), { code: 'ETIMEDOUT' })))
        .on('error', reject);
      upstream.end();
    });
  };

  /** One upstream request per key at a time; later requests for the key wait for the same answer. */
  const fill = (key: string, service: ServiceName, url: string, req?: IncomingMessage): Promise<FillResult> => {
    const running = inflight.get(key);
    if (running) return running;
    const asOf = { generation, purges };
    const filling = fetchUpstream(service, url, req)
      .then((up): FillResult => {
        if (!isCacheable(up)) return { passed: up };
        // Checked, when next read, against the purges since the fill started; not kept after a drop since then, or
        // while purges cannot be heard.
        const entry = { ...entryOf(up), asOf: asOf.purges };
        if (asOf.generation === generation && follower.version !== undefined) keep(key, entry);
        return { entry };
      })
      .catch((err: NodeJS.ErrnoException) => {
        const requestId = req && requestIdOf(req);
        logger.warn({ requestId, upstream: service, code: err.code, err: err.message }, 'upstream failed');
        throw err;
      })
      .finally(() => {
        if (inflight.get(key) === filling) inflight.delete(key);
      });
    inflight.set(key, filling);
    return filling;
  };

  /**
   * The gzip variant, made once however many requests ask at the same time, and lazily: many keys are read once, often
   * by clients that do not ask for gzip, and compressing them all would cost more CPU than serving them.
   */
  const gzipOf = (key: string, entry: Entry): Promise<Buffer | null> | Buffer | null => {
    if (entry.gzip !== undefined) return entry.gzip;
    let made = zipping.get(entry);
    if (!made) {
      made = gzip(entry.raw).then((zipped) => {
        const smaller = zipped.length < entry.raw.length ? zipped : null;
        if (entries.get(key) === entry) keep(key, { ...entry, gzip: smaller }); // its bytes counted
        return smaller;
      });
      zipping.set(entry, made);
    }
    return made;
  };

  /** `url`: the path and query to ask the upstream for, as the client sent them. */
  const lookup = (key: string, service: ServiceName, url: string, req?: IncomingMessage) => {
    const entry = kept(key);
    reads[entry ? 'hit' : 'miss'].inc();
    return entry ? { entry } : fill(key, service, url, req);
  };

  const answer = async (key: string, url: string, req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const service = matchRoute(pathOf(url))!.service;
    const found = lookup(key, service, url, req);
    const outcome = 'entry' in found ? 'HIT' : 'MISS';
    if (outcome === 'MISS') notesOf(res).upstream = service;
    const result = await Promise.resolve(found).catch(() => undefined);
    if (res.headersSent || res.destroyed) return;
    if (!result) return sendUnavailable(res, service);
    if ('passed' in result) return servePassed(req, res, result.passed);
    const zipped = acceptsGzip(req.headers['accept-encoding']) ? await gzipOf(key, result.entry) : undefined;
    if (res.headersSent || res.destroyed) return;
    serveEntry(req, res, result.entry, zipped, outcome);
  };

  const cachedServices = new Set(ROUTES.filter((route) => route.cached).map((route) => route.service));

  return {
    /** Answers GET/HEAD on the routes marked `cached`, else calls next(). Before compression: hits are sent as kept. */
    handle(req: IncomingMessage, res: ServerResponse, next: (err?: unknown) => void): void {
      const url = req.url ?? '/';
      const key = cacheKeyOf(req.method, url);
      if (key === undefined) return next();
      if (follower.version === undefined) {
        reads.bypass.inc();
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
      const result = await lookup(key, matchRoute(pathOf(path))!.service, path);
      if ('entry' in result) return { status: 200, etag: result.entry.etag, body: result.entry.raw };
      return { status: result.passed.status, body: result.passed.body };
    },
    /** Proxy hook: a successful write proxied to a service whose answers are kept drops them (RFC 9111 §4.4). */
    onUpstreamResponse(req: IncomingMessage, statusCode: number, service: ServiceName): void {
      if (!cachedServices.has(service) || statusCode < 200 || statusCode > 299) return;
      if (SAFE_METHODS.has(req.method ?? 'GET')) return;
      invalidate.dropAll();
      logger.debug({ requestId: requestIdOf(req), method: req.method, service }, 'write succeeded: cache dropped');
    },
    /** Resolves true once the purge sequence is known (subscribed and read), false after timeoutMs. */
    whenArmed: (timeoutMs: number) => follower.whenArmed(timeoutMs),
    /** `version`: the purge sequence followed; undefined while Redis is unreachable (every read is then proxied). */
    stats: () => ({ version: follower.version, entries: entries.size, bytes }),
    close: () => follower.close(),
  };
}

/** The cache's reads by result, counted as they happen, and its size, read when scraped. */
function cacheMetrics(size: () => { entries: number; bytes: number }) {
  const names = ['shop_catalog_cache_requests_total', 'shop_catalog_cache_entries', 'shop_catalog_cache_bytes'];
  names.forEach((name) => registry.removeSingleMetric(name)); // a gateway built again in one process (tests)
  const reads = new Counter({
    name: names[0],
    help: 'Reads of cached routes at the gateway: hit (answered from memory), miss (filled from the service) or bypass (purge sequence unknown, proxied)',
    labelNames: ['result'] as const,
    registers: [registry],
  });
  const gauge = (name: string, help: string, value: () => number) =>
    new Gauge({
      name,
      help,
      registers: [registry],
      collect() {
        this.set(value());
      },
    });
  gauge(names[1], 'Responses kept in the gateway HTTP cache', () => size().entries);
  gauge(names[2], 'Bytes kept in the gateway HTTP cache (raw and gzip variants)', () => size().bytes);
  return { hit: reads.labels('hit'), miss: reads.labels('miss'), bypass: reads.labels('bypass') };
}
