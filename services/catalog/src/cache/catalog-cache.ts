import { Inject, Injectable, Logger } from '@nestjs/common';
import { REDIS } from '@shop/nest-common';
import type { Request, Response } from 'express';
import type Redis from 'ioredis';
import { createHash } from 'node:crypto';
import { CatalogConfig } from '../config/catalog.config';

const noop = () => undefined;

/** INCR the catalog version and announce the new value, in one round trip. */
const BUMP = `local v = redis.call('incr', KEYS[1]) redis.call('publish', KEYS[1], tostring(v)) return v`;

/** A public response, serialised once and sent as bytes to every later request. */
export interface CachedResponse {
  body: Buffer;
  etag: string;
}

export function serialise(value: unknown): CachedResponse {
  const body = Buffer.from(JSON.stringify(value), 'utf8');
  const etag = `"${createHash('sha1').update(body).digest('base64url')}"`;
  return { body, etag };
}

function etagMatches(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === '*') return true;
  return header.split(',').some((t) => t.trim().replace(/^W\//, '') === etag);
}

/**
 * Sends a cached response with its ETag, or 304 when the client already has it. Clients must
 * revalidate every time (`no-cache`): an admin edit shows on the very next request.
 */
export function sendCached(req: Request, res: Response, cached: CachedResponse): void {
  res.setHeader('ETag', cached.etag);
  res.setHeader('Cache-Control', 'public, no-cache');
  if (etagMatches(req.headers['if-none-match'], cached.etag)) {
    res.statusCode = 304;
    res.end();
    return;
  }
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Content-Length', cached.body.length);
  res.statusCode = 200;
  res.end(cached.body);
}

/**
 * Public catalogue reads from memory, correct on every replica at once.
 *
 * Every write to a product (admin edit, stock change, sale) bumps one Redis counter
 * (`<namespace>catalog:version`, also PUBLISHed on the channel of that name) *after* the database write. Each read costs one Redis GET of that counter; responses are kept per replica in
 * a bounded in-process map keyed by the counter, so a bump empties every replica's map at its next
 * request. A read that raced a write can only have cached under the old counter value, which no one
 * reads again. Without Redis, reads go to the database (slower, never stale).
 */
@Injectable()
export class CatalogCache {
  private readonly logger = new Logger(CatalogCache.name);
  private readonly versionKey: string;
  private readonly maxEntries: number;
  private version: string | undefined;
  private readonly entries = new Map<string, CachedResponse>();
  private readonly inflight = new Map<string, Promise<CachedResponse>>();
  /** The version GET on the wire, and the one that will follow it (see readVersion). */
  private sent?: Promise<string>;
  private queued?: Promise<string>;

  constructor(
    @Inject(REDIS) private readonly redis: Redis,
    config: CatalogConfig,
  ) {
    this.versionKey = `${config.RABBITMQ_NAMESPACE}catalog:version`;
    this.maxEntries = config.CATALOG_CACHE_ENTRIES;
  }

  /**
   * The current catalog version, as read by a Redis GET sent *after* this call began, so a write that
   * finished before the request arrived is always seen. Requests arriving while a GET is on the wire
   * share the next one (sent as soon as that one answers): under load one GET serves a whole batch.
   */
  readVersion(): Promise<string> {
    if (!this.sent) return this.send();
    this.queued ??= this.sent.then(noop, noop).then(() => {
      this.queued = undefined;
      return this.send();
    });
    return this.queued;
  }

  private send(): Promise<string> {
    const get = this.redis.get(this.versionKey).then((v) => v ?? '0');
    this.sent = get;
    get.then(noop, noop).then(() => {
      if (this.sent === get) this.sent = undefined;
    });
    return get;
  }

  /** The cached bytes for `key` if this replica holds them for the current version; never computes. */
  async peek(key: string): Promise<CachedResponse | undefined> {
    if (this.maxEntries === 0) return undefined;
    let version: string;
    try {
      version = await this.readVersion();
    } catch {
      return undefined;
    }
    if (version !== this.version) {
      this.entries.clear();
      this.version = version;
      return undefined;
    }
    return this.entries.get(key);
  }

  /** The cached bytes for `key`, computing (once, however many ask at the same time) on a miss. */
  async get(key: string, compute: () => Promise<unknown>): Promise<CachedResponse> {
    let version: string;
    try {
      version = await this.readVersion();
    } catch (err) {
      this.logger.warn(`catalog version unreadable, serving uncached: ${(err as Error).message}`);
      return serialise(await compute());
    }
    if (this.maxEntries === 0) return serialise(await compute());
    if (version !== this.version) {
      this.entries.clear();
      this.version = version;
    }
    const hit = this.entries.get(key);
    if (hit) return hit;

    const flightKey = `${version}\u0000${key}`;
    const running = this.inflight.get(flightKey);
    if (running) return running;
    const computing = compute()
      .then((value) => {
        const cached = serialise(value);
        // Store only if no newer version was seen meanwhile: the map belongs to this.version.
        if (this.version === version) {
          if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value as string);
          this.entries.set(key, cached);
        }
        return cached;
      })
      .finally(() => this.inflight.delete(flightKey));
    this.inflight.set(flightKey, computing);
    return computing;
  }

  /**
   * Call after every write that changes what a public read shows. Bumps the counter and PUBLISHes the
   * new value on the channel of the same name (the gateway's cache of catalogue reads listens there).
   */
  async invalidate(): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        await this.redis.eval(BUMP, 1, this.versionKey);
        return;
      } catch (err) {
        if (attempt >= 3) {
          this.logger.error(`catalog version not bumped: replicas may serve a stale list: ${(err as Error).message}`);
          return;
        }
      }
    }
  }
}
