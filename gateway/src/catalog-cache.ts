import { createHash } from 'node:crypto';
import * as http from 'node:http';
import * as https from 'node:https';
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { promisify } from 'node:util';
import { gzip as gzipCallback } from 'node:zlib';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { Redis } from 'ioredis';
import type { ServiceName } from '@shop/contracts';
import type { GatewayConfig } from './config';
import { sendError, unavailableMessage } from './errors';
import { throttled, type Logger } from './logger';
import { DOT_SEGMENT } from './proxy';
import { requestIdOf } from './request-id';
import { normalisePath } from './routes';
import { closeRedis } from './redis';

const gzip = promisify(gzipCallback);

/** Largest upstream body that is kept. */
export const MAX_CACHED_BODY = 1024 * 1024;

/** Upstream headers a cached response keeps (everything else is the gateway's own). */
const KEPT_HEADERS = ['content-type', 'cache-control', 'last-modified'] as const;

/** Not forwarded from an uncacheable upstream answer (RFC 9110 §7.6.1, plus the upstream's banner). */
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-authenticate',
  'proxy-authorization',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'x-powered-by',
]);

/** Writes under these public prefixes may change what a public catalogue read shows. */
const WRITE_PREFIXES = ['/api/products', '/api/admin/products', '/api/upload'];
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

const JSON_TYPE = /^application\/(?:[\w.+-]*\+)?json\s*(?:;|$)/i;

/** An entry as seen from outside this module. */
export type CachedRead = Readonly<{ etag: string; version: string }>;

interface Entry {
  raw: Buffer;
  /** Absent when gzip would not make it smaller. */
  gzip?: Buffer;
  /** Strong (as sent by the catalog, or computed). The gzip variant is sent with its weak form. */
  etag: string;
  weakEtag: string;
  /** content-type, cache-control, last-modified as the catalog sent them. */
  headers: Array<[string, string]>;
  /** The same, flat for writeHead; and without content-type for a 304. */
  flat: string[];
  flat304: string[];
  lastModified?: number;
  /** The catalog version this entry was fetched under. */
  version: string;
  generation: number;
  bytes: number;
}

/** An upstream answer we pass on as is (not stored): an error, a non-JSON body, too large, no-store. */
interface Passed {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

type FillResult = { entry: Entry } | { passed: Passed } | { failed: string };

interface Upstream {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

export interface CatalogCacheStats {
  /** The catalog version the cache follows; undefined while Redis is unreachable (cache bypassed). */
  version: string | undefined;
  entries: number;
  bytes: number;
  hits: number;
  misses: number;
  bypassed: number;
}

export interface CatalogCache {
  /** Express middleware: answers cacheable catalogue reads, else calls next(). Mount before compression. */
  handler: RequestHandler;
  /**
   * The fresh entry for this request if it is a cacheable read already in memory (counts as a hit),
   * for the fast lane in front of Express; then {@link serveHit} answers it.
   */
  lookup(req: IncomingMessage): CachedRead | undefined;
  /**
   * Answers a hit from {@link lookup} in one writeHead: `head` is a flat [name, value, …] list of the
   * headers that go first (request id, security headers); nothing may have been set on `res` before.
   */
  serveHit(req: IncomingMessage, res: ServerResponse, entry: CachedRead, head: string[]): void;
  /** Proxy hook: a 2xx answer to a catalogue write drops every entry at once. */
  onUpstreamResponse(req: IncomingMessage, statusCode: number, service: ServiceName): void;
  /** Resolves true once a version is known (subscribed and read), false after timeoutMs. */
  whenArmed(timeoutMs: number): Promise<boolean>;
  stats(): CatalogCacheStats;
  close(): Promise<void>;
}

/**
 * Public catalogue reads (GET/HEAD /api/products and below) answered from this process's memory.
 *
 * Freshness: the catalog bumps `<prefix>catalog:version` in Redis on every write that changes a public
 * read and PUBLISHes the new value on the channel of the same name. We subscribe on a dedicated
 * connection and also read the key on (re)subscribe and every `versionPollMs` (lost messages). Any
 * change of version, and any 2xx answer to a catalogue write proxied by this gateway, drops every
 * entry and bumps a local generation: a fill that started before the drop is served to the requests
 * that were waiting for it but never stored. With no version known (Redis unreachable) every request
 * is proxied: correctness over speed.
 *
 * Fills are fetched anonymously (no Authorization, no cookies: public reads ignore them, and a shared
 * entry must not depend on who asked first), once per key however many requests miss at the same time.
 */
export function createCatalogCache(config: GatewayConfig, redis: Redis, logger: Logger): CatalogCache {
  const { maxEntries, maxBytes, prefix, versionPollMs } = config.catalogCache;
  const versionKey = `${prefix}catalog:version`;
  const target = new URL(config.upstreams.catalog);
  const targetPath = target.pathname.replace(/\/+$/, '');
  const client = target.protocol === 'https:' ? https : http;
  const agent = new client.Agent({ keepAlive: true, maxSockets: 64, maxFreeSockets: 16, scheduling: 'lifo' });

  const entries = new Map<string, Entry>();
  const inflight = new Map<string, Promise<FillResult>>();
  let bytes = 0;
  let version: string | undefined;
  let generation = 0;
  const counters = { hits: 0, misses: 0, bypassed: 0 };

  const warnBypass = throttled(10_000);
  const warnRedis = throttled(10_000);

  // ---- version tracking -------------------------------------------------------------------------

  let closed = false;
  let subscribed = false;
  /** Bumped whenever the subscription is (re)established or lost: stale GET replies are ignored. */
  let subscription = 0;
  const armedWaiters = new Set<() => void>();

  const drop = (): void => {
    generation += 1;
    entries.clear();
    inflight.clear(); // later requests must not join a fill that started before the change
    bytes = 0;
  };

  const setVersion = (next: string, source: string): void => {
    if (next === version) return;
    const previous = version;
    version = next;
    drop();
    if (previous === undefined) {
      logger.info({ version: next, source }, 'catalog cache armed');
      armedWaiters.forEach((wake) => wake());
    } else {
      logger.debug({ version: next, previous, source }, 'catalog version changed: cache dropped');
    }
  };

  const disarm = (reason: string): void => {
    subscription += 1;
    if (version === undefined) return;
    version = undefined;
    drop();
    if (closed) return;
    warnRedis(() => logger.warn({ reason }, 'catalog cache disarmed: proxying every catalogue read'));
  };

  const readVersion = async (source: string): Promise<void> => {
    if (!subscribed) return;
    const asOf = subscription;
    try {
      const value = (await redis.get(versionKey)) ?? '0';
      if (asOf === subscription && subscribed && !closed) setVersion(value, source);
    } catch (err) {
      if (asOf === subscription) disarm(`version unreadable: ${(err as Error).message}`);
    }
  };

  const subscriber = redis.duplicate({ autoResubscribe: false, lazyConnect: true, enableOfflineQueue: false });
  subscriber.on('error', (err: Error) =>
    warnRedis(() => logger.warn({ err: err.message }, 'catalog cache subscriber: redis error')),
  );
  subscriber.on('ready', () => {
    const asOf = subscription;
    subscriber
      .subscribe(versionKey)
      .then(() => {
        if (closed || asOf !== subscription) return;
        subscription += 1;
        subscribed = true;
        return readVersion('subscribe');
      })
      .catch((err: Error) => warnRedis(() => logger.warn({ err: err.message }, 'catalog cache: subscribe failed')));
  });
  subscriber.on('close', () => {
    subscribed = false;
    disarm('subscriber disconnected');
  });
  subscriber.on('message', (channel: string, message: string) => {
    if (channel === versionKey && subscribed) setVersion(message, 'message');
  });
  subscriber.connect().catch(() => undefined); // errors are reported by the 'error' listener; it retries

  let polling = false;
  const poll = setInterval(() => {
    if (polling || !subscribed) return;
    polling = true;
    void readVersion('poll').finally(() => {
      polling = false;
    });
  }, versionPollMs);
  poll.unref();

  // ---- storage ----------------------------------------------------------------------------------

  const store = (key: string, entry: Entry): void => {
    if (entry.bytes > maxBytes) return;
    const old = entries.get(key);
    if (old) {
      bytes -= old.bytes;
      entries.delete(key);
    }
    entries.set(key, entry);
    bytes += entry.bytes;
    // Map iteration order is insertion order, and hits re-insert: the first key is the least recently used.
    for (const [oldest, evicted] of entries) {
      if (entries.size <= maxEntries && bytes <= maxBytes) break;
      entries.delete(oldest);
      bytes -= evicted.bytes;
    }
  };

  const isCacheable = (up: Upstream): boolean => {
    if (up.status !== 200 || up.body.length > MAX_CACHED_BODY) return false;
    const type = up.headers['content-type'];
    if (typeof type !== 'string' || !JSON_TYPE.test(type)) return false;
    const encoding = up.headers['content-encoding'];
    if (encoding && encoding !== 'identity') return false;
    if (up.headers['set-cookie']) return false;
    if (/\b(no-store|private)\b/i.test(up.headers['cache-control'] ?? '')) return false;
    if ((up.headers.vary ?? '').includes('*')) return false;
    return true;
  };

  const buildEntry = async (up: Upstream, fetchedUnder: string, gen: number): Promise<Entry> => {
    const upstreamEtag = up.headers.etag;
    const etag =
      typeof upstreamEtag === 'string' && upstreamEtag
        ? upstreamEtag
        : `"${createHash('sha1').update(up.body).digest('base64url')}"`;
    const zipped = await gzip(up.body);
    const headers: Array<[string, string]> = [];
    for (const name of KEPT_HEADERS) {
      const value = up.headers[name];
      if (typeof value === 'string') headers.push([name, value]);
    }
    const lastModified = up.headers['last-modified'] ? Date.parse(up.headers['last-modified']) : NaN;
    const useGzip = zipped.length < up.body.length;
    return {
      raw: up.body,
      gzip: useGzip ? zipped : undefined,
      etag,
      weakEtag: etag.startsWith('W/') ? etag : `W/${etag}`,
      headers,
      flat: headers.flat(),
      flat304: headers.filter(([name]) => name !== 'content-type').flat(),
      lastModified: Number.isNaN(lastModified) ? undefined : lastModified,
      version: fetchedUnder,
      generation: gen,
      bytes: up.body.length + (useGzip ? zipped.length : 0),
    };
  };

  // ---- upstream ---------------------------------------------------------------------------------

  /** GET the path and query as sent, anonymously, fully buffered. */
  const fetchUpstream = (req: Request): Promise<Upstream> =>
    new Promise((resolve, reject) => {
      const remote = req.socket.remoteAddress ?? '';
      const forwardedFor = req.headers['x-forwarded-for'];
      const host = req.headers.host ?? target.host;
      const headers: http.OutgoingHttpHeaders = {
        host, // like the proxy (changeOrigin: false)
        accept: 'application/json',
        'accept-encoding': 'identity', // we keep the raw bytes and gzip them once ourselves
        'x-request-id': requestIdOf(req),
        'x-forwarded-for': forwardedFor ? `${String(forwardedFor)},${remote}` : remote,
        'x-forwarded-proto': (req.socket as { encrypted?: boolean }).encrypted ? 'https' : 'http',
        'x-forwarded-host': host,
      };
      const upstreamReq = client.request(
        {
          protocol: target.protocol,
          hostname: target.hostname,
          port: target.port,
          method: 'GET',
          path: `${targetPath}${req.url}`,
          headers,
          agent,
          timeout: config.proxyTimeoutMs,
        },
        (upstreamRes) => {
          const chunks: Buffer[] = [];
          upstreamRes.on('data', (chunk: Buffer) => chunks.push(chunk));
          upstreamRes.on('end', () =>
            resolve({
              status: upstreamRes.statusCode ?? 502,
              headers: upstreamRes.headers,
              body: Buffer.concat(chunks),
            }),
          );
          upstreamRes.on('error', reject);
          upstreamRes.on('aborted', () => reject(new Error('upstream response aborted')));
        },
      );
      upstreamReq.on('timeout', () => {
        const err = new Error('upstream timed out') as NodeJS.ErrnoException;
        err.code = 'ETIMEDOUT';
        upstreamReq.destroy(err);
      });
      upstreamReq.on('error', reject);
      upstreamReq.end();
    });

  /** One upstream request per key at a time; the result is stored only if nothing changed meanwhile. */
  const fill = (key: string, req: Request): Promise<FillResult> => {
    const running = inflight.get(key);
    if (running) return running;
    const gen = generation;
    const fetchedUnder = version as string;
    const filling = fetchUpstream(req)
      .then(async (up): Promise<FillResult> => {
        if (!isCacheable(up)) return { passed: up };
        const entry = await buildEntry(up, fetchedUnder, gen);
        if (gen === generation && version === fetchedUnder) store(key, entry);
        return { entry };
      })
      .catch((err: NodeJS.ErrnoException): FillResult => {
        logger.warn(
          { requestId: requestIdOf(req), upstream: 'catalog', code: err.code, err: err.message },
          'upstream failed',
        );
        return { failed: err.message };
      })
      .finally(() => {
        if (inflight.get(key) === filling) inflight.delete(key);
      });
    inflight.set(key, filling);
    return filling;
  };

  // ---- serving ----------------------------------------------------------------------------------

  const serveEntry = (req: IncomingMessage, res: ServerResponse, entry: Entry, outcome: 'HIT' | 'MISS'): void => {
    const zipped = entry.gzip !== undefined && acceptsGzip(req.headers['accept-encoding']);
    markCache(res, outcome);
    res.setHeader('x-cache', outcome);
    appendVary(res, 'Accept-Encoding'); // CORS may have set Vary: Origin
    res.setHeader('ETag', zipped ? entry.weakEtag : entry.etag);
    if (isNotModified(req.headers, entry)) {
      for (const [name, value] of entry.headers) if (name !== 'content-type') res.setHeader(name, value);
      res.statusCode = 304;
      res.end();
      return;
    }
    for (const [name, value] of entry.headers) res.setHeader(name, value);
    const body = zipped ? (entry.gzip as Buffer) : entry.raw;
    if (zipped) res.setHeader('Content-Encoding', 'gzip');
    res.setHeader('Content-Length', body.length);
    res.statusCode = 200;
    if (req.method === 'HEAD') res.end();
    else res.end(body);
  };

  /** serveEntry for the fast lane: the same response, written in one writeHead. */
  const serveHitFast = (req: IncomingMessage, res: ServerResponse, entry: Entry, head: string[]): void => {
    const zipped = entry.gzip !== undefined && acceptsGzip(req.headers['accept-encoding']);
    markCache(res, 'HIT');
    head.push('x-cache', 'HIT', 'Vary', 'Accept-Encoding', 'ETag', zipped ? entry.weakEtag : entry.etag);
    if (isNotModified(req.headers, entry)) {
      res.writeHead(304, head.concat(entry.flat304));
      res.end();
      return;
    }
    const body = zipped ? (entry.gzip as Buffer) : entry.raw;
    head.push(...entry.flat);
    if (zipped) head.push('Content-Encoding', 'gzip');
    head.push('Content-Length', String(body.length));
    res.writeHead(200, head);
    if (req.method === 'HEAD') res.end();
    else res.end(body);
  };

  const servePassed = (req: IncomingMessage, res: ServerResponse, passed: Passed): void => {
    markCache(res, 'MISS');
    for (const [name, value] of Object.entries(passed.headers)) {
      if (value !== undefined && !HOP_BY_HOP.has(name)) res.setHeader(name, value);
    }
    res.setHeader('x-cache', 'MISS');
    res.setHeader('Content-Length', passed.body.length);
    res.statusCode = passed.status;
    if (req.method === 'HEAD') res.end();
    else res.end(passed.body);
  };

  /** The key of a cacheable read (GET/HEAD of a public catalogue path), else undefined. */
  const keyOf = (req: IncomingMessage): string | undefined => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return undefined;
    const url = req.url ?? '/';
    const q = url.indexOf('?');
    const path = cacheablePath(q === -1 ? url : url.slice(0, q));
    if (path === undefined) return undefined;
    return q === -1 ? path : `${path}${url.slice(q)}`;
  };

  const lookup = (req: IncomingMessage): Entry | undefined => {
    if (version === undefined) return undefined;
    const key = keyOf(req);
    if (key === undefined) return undefined;
    const hit = entries.get(key);
    if (hit === undefined || hit.generation !== generation) return undefined;
    counters.hits += 1;
    entries.delete(key); // re-insert: most recently used last
    entries.set(key, hit);
    return hit;
  };

  const handler: RequestHandler = (req: Request, res: Response, next: NextFunction) => {
    const key = keyOf(req);
    if (key === undefined) return next();

    if (version === undefined) {
      counters.bypassed += 1;
      warnBypass(() => logger.warn({ versionKey }, 'catalog cache bypassed: catalog version unknown (Redis down?)'));
      res.setHeader('x-cache', 'BYPASS');
      return next();
    }

    const hit = lookup(req);
    if (hit !== undefined) {
      serveEntry(req, res, hit, 'HIT');
      return;
    }

    counters.misses += 1;
    res.locals.upstream = 'catalog';
    fill(key, req)
      .then((result) => {
        if (res.headersSent || res.destroyed) return;
        if ('entry' in result) serveEntry(req, res, result.entry, 'MISS');
        else if ('passed' in result) servePassed(req, res, result.passed);
        else if (!sendError(res, 503, unavailableMessage('catalog'))) res.destroy();
      })
      .catch(next);
  };

  const onUpstreamResponse = (req: IncomingMessage, statusCode: number, service: ServiceName): void => {
    if (service !== 'catalog' || statusCode < 200 || statusCode > 299) return;
    if (SAFE_METHODS.has(req.method ?? 'GET')) return;
    const path = normalisePath((req.url ?? '/').split('?')[0]);
    if (!WRITE_PREFIXES.some((p) => path === p || path.startsWith(`${p}/`))) return;
    drop();
    logger.debug({ requestId: requestIdOf(req), method: req.method, path }, 'catalogue write: cache dropped');
  };

  const whenArmed = (timeoutMs: number): Promise<boolean> => {
    if (version !== undefined) return Promise.resolve(true);
    return new Promise((resolve) => {
      const wake = (): void => {
        clearTimeout(timer);
        armedWaiters.delete(wake);
        resolve(version !== undefined);
      };
      const timer = setTimeout(wake, timeoutMs);
      armedWaiters.add(wake);
    });
  };

  const close = async (): Promise<void> => {
    closed = true;
    clearInterval(poll);
    armedWaiters.forEach((wake) => wake());
    subscribed = false;
    disarm('closing'); // quiet: closed is set
    await closeRedis(subscriber);
    agent.destroy();
  };

  return {
    handler,
    lookup,
    serveHit: (req, res, entry, head) => serveHitFast(req, res, entry as Entry, head),
    onUpstreamResponse,
    whenArmed,
    stats: () => ({ version, entries: entries.size, bytes, ...counters }),
    close,
  };
}

/** Records HIT/MISS for the access log line (request-id.ts), on Express and bare responses alike. */
function markCache(res: ServerResponse, outcome: string): void {
  const withLocals = res as ServerResponse & { locals?: Record<string, unknown> };
  if (withLocals.locals) withLocals.locals.cache = outcome;
  else withLocals.locals = { cache: outcome };
}

function appendVary(res: ServerResponse, field: string): void {
  const current = res.getHeader('Vary');
  if (current === undefined) res.setHeader('Vary', field);
  else if (!String(current).toLowerCase().includes(field.toLowerCase()))
    res.setHeader('Vary', `${String(current)}, ${field}`);
}

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

/** Whether Accept-Encoding allows gzip (honours q=0 and `*`). */
export function acceptsGzip(header: string | undefined): boolean {
  if (!header) return false;
  let star: number | undefined;
  for (const part of header.split(',')) {
    const [name, ...params] = part.split(';');
    const token = name.trim().toLowerCase();
    if (token !== 'gzip' && token !== 'x-gzip' && token !== '*') continue;
    let q = 1;
    for (const param of params) {
      const match = /^\s*q\s*=\s*([0-9.]+)\s*$/i.exec(param);
      if (match) q = Number(match[1]);
    }
    if (token === '*') star = q;
    else return q > 0;
  }
  return star !== undefined && star > 0;
}

/** If-None-Match (weak comparison, `*`), else If-Modified-Since against the stored Last-Modified. */
function isNotModified(headers: IncomingHttpHeaders, entry: Entry): boolean {
  const noneMatch = headers['if-none-match'];
  if (noneMatch !== undefined) {
    const opaque = entry.etag.replace(/^W\//, '');
    return noneMatch.split(',').some((tag) => {
      const t = tag.trim();
      return t === '*' || t.replace(/^W\//, '') === opaque;
    });
  }
  const since = headers['if-modified-since'];
  if (since !== undefined && entry.lastModified !== undefined) {
    const sinceMs = Date.parse(since);
    return !Number.isNaN(sinceMs) && entry.lastModified <= sinceMs;
  }
  return false;
}
