import { parse as parseQuery } from 'node:querystring';
import type { Redis } from 'ioredis';
import {
  CatalogueReplica,
  changeFeedKeysOf,
  changesOfLog,
  indexReads,
  publicReadOf,
  PUBLIC_CACHE_CONTROL,
  PUBLIC_CONTENT_TYPE,
  QueryError,
  readSnapshot,
  type CatalogueIndex,
  type CatalogueSource,
  type PublicResponse,
} from '@shop/catalog-read-model';
import type { GatewayConfig } from '../config';
import { throttled, type Logger } from '../logger';
import type { Entry, ListParts } from './entry';

/** The path of the catalog's snapshot (services/catalog, CatalogueSnapshotController): never routed from /api. */
const SNAPSHOT_PATH = '/internal/catalogue';
/** Products asked for in one request to the snapshot route (it takes up to 1,000). */
const IDS_PER_REQUEST = 500;
/** Waits after a failed load before the next (doubling up to the last), unless the version moves first. */
const RETRY_MS = [1000, 2000, 5000, 10_000, 30_000];
/** Failed loads before any copy was loaded that are expected at boot (the catalog starting too): 8 s of tries. */
const BOOT_TRIES = 3;

export interface CatalogueCopy {
  /**
   * The answer to a cacheable read from the copy, as the catalog would give it at this moment, byte for byte: when
   * the copy is at exactly the version the cache follows and the read is one the copy answers with a 200. Else
   * undefined, and the read takes the cache's usual way (a malformed query or an unknown product: the catalog
   * answers its 4xx itself).
   */
  answer(key: string): Entry | undefined;
  /**
   * The copy's index while it is current (at exactly the version the cache follows, no write through this gateway
   * unseen): what `answer` reads from. Else undefined. Valid for the synchronous code that asked only.
   */
  currentIndex(): CatalogueIndex | undefined;
  /** The version the cache follows moved (or was lost): catch up with it. */
  sync(): void;
  /**
   * A catalogue write went through this gateway: answer nothing until the copy has caught up with the version
   * Redis has after it (the write's message may still be on its way).
   */
  fence(): void;
  stats(): { version: number | undefined; products: number };
  close(): void;
}

/** The headers a public read's 200 keeps (entry.ts), as the catalog sends them. */
const HEADERS: ReadonlyArray<[string, string]> = [
  ['content-type', PUBLIC_CONTENT_TYPE],
  ['cache-control', PUBLIC_CACHE_CONTROL],
];
const FLAT = HEADERS.flat();
const FLAT_304 = HEADERS.filter(([name]) => name !== 'content-type').flat();

/**
 * The entry `entryOf` (entry.ts) makes of the catalog's answer — same bytes, ETag, headers, surrogate keys and
 * product places — made from the copy's answer without printing its headers and parsing them back (measured: that
 * round trip cost a third of a list's answer).
 */
export function entryFromCopy(key: string, response: PublicResponse): Entry {
  const { body, etag, surrogateKeys, products } = response;
  let parts: ListParts | undefined;
  if (products?.length) {
    const starts: number[] = [];
    const ends: number[] = [];
    let at = 1; // after [
    for (const product of products) {
      starts.push(at);
      at += product.body.length;
      ends.push(at);
      at += 1; // , or ]
    }
    parts = { ids: products.map((product) => product._id), starts, ends };
  }
  return {
    key,
    raw: body,
    etag,
    weakEtag: `W/${etag}`,
    headers: HEADERS,
    flat: FLAT,
    flat304: FLAT_304,
    keys: surrogateKeys?.split(' ').filter(Boolean),
    parts,
    asOf: 0,
    bytes: body.length,
  };
}

/** Thrown for an answer that is not a snapshot: this catalog offers none (an older one, a test's stand-in). */
class NoSnapshot extends Error {}

/**
 * A copy of the catalog's read model in the gateway (`@shop/catalog-read-model`), so that a read the cache does not
 * hold is answered here rather than by a second HTTP exchange with the catalog. It is loaded from the catalog's
 * snapshot (`GET /internal/catalogue`) and kept at the version the cache follows (invalidation.ts), by the change
 * log the catalog's replicas replay: stock writes from the log itself, admin edits by asking the catalog for
 * those products, anything else (or a gap in the log, or Redis reset) by loading the snapshot again. It answers
 * only while it is at exactly that version: while it is loading, behind, or after a write through this gateway
 * until it has seen that write's version, reads go the cache's way (kept entries, then the catalog).
 */
export function createCatalogueCopy(
  config: GatewayConfig,
  redis: Redis,
  logger: Logger,
  followed: () => string | undefined,
): CatalogueCopy {
  const catalog = config.upstreams.catalog.replace(/\/+$/, '');
  const feed = changeFeedKeysOf(config.catalogCache.prefix);
  const warn = throttled(10_000);

  const fetchSnapshot = async (query = '') => {
    const res = await fetch(`${catalog}${SNAPSHOT_PATH}${query}`, {
      headers: { accept: 'application/json' },
      signal: AbortSignal.timeout(Math.max(config.proxyTimeoutMs, 30_000)),
    });
    const body = await res.text();
    if (res.status >= 500) throw new Error(`catalog answered ${res.status}`);
    try {
      if (res.status !== 200) throw new Error(`status ${res.status}`);
      return readSnapshot(body);
    } catch (err) {
      throw new NoSnapshot(`no catalogue snapshot from the catalog: ${(err as Error).message}`);
    }
  };

  const source: CatalogueSource = {
    changesSince: async (from, to) => changesOfLog(await redis.zrangebyscore(feed.log, `(${from}`, to), from, to),
    loadAll: async () => {
      const started = Date.now();
      const snapshot = await fetchSnapshot();
      logger.info(
        { products: snapshot.entries.length, version: snapshot.version, ms: Date.now() - started },
        'catalogue copy loaded',
      );
      return snapshot;
    },
    loadProducts: async (ids) => {
      const entries = [];
      // The catalog takes up to 1,000 ids a request (CatalogueSnapshotController).
      for (let i = 0; i < ids.length; i += IDS_PER_REQUEST)
        entries.push(...(await fetchSnapshot(`?ids=${ids.slice(i, i + IDS_PER_REQUEST).join(',')}`)).entries);
      return entries;
    },
  };
  const replica = new CatalogueReplica(source);

  let closed = false;
  /** The followed version at the last sync (a lower one since means Redis was reset: load again). */
  let lastSeen: number | undefined;
  let syncing = false;
  let failures = 0;
  let retry: NodeJS.Timeout | undefined;
  /** While a write's version is being read; then the lowest version the copy may answer at. */
  let fenced = 0;
  let fenceVersion = 0;

  const sync = (): void => {
    const followedVersion = followed();
    if (closed || syncing || followedVersion === undefined) return;
    const target = Number(followedVersion);
    const reset = lastSeen !== undefined && target < lastSeen;
    lastSeen = target;
    if (replica.index && target <= replica.version && !reset) return;
    syncing = true;
    clearTimeout(retry);
    const failed = (why: string): void => {
      failures += 1;
      lastSeen = undefined; // the next try catches up with whatever the version is then
      const waitMs = RETRY_MS[Math.min(failures, RETRY_MS.length) - 1];
      // At boot the catalog is often still starting: the first misses before any copy was loaded are no warning.
      if (!replica.index && failures <= BOOT_TRIES)
        logger.info({ why }, `catalogue copy not loaded yet (catalog starting?): retrying in ${waitMs / 1000} s`);
      else warn(() => logger.warn({ why }, 'catalogue copy not current: reads go to the cache and the catalog'));
      if (closed) return;
      retry = setTimeout(sync, waitMs);
      retry.unref();
    };
    replica
      .catchUp(target)
      .then(
        () => {
          // A snapshot older than the version heard (a catalog reading another Redis, a version announced but
          // never logged): behind, so not answering; asked again later.
          if (replica.version < target) return failed(`the catalog's snapshot is at ${replica.version}, not ${target}`);
          failures = 0;
        },
        (err: Error) => {
          // A catalog that offers no snapshot is asked again at the next version, not on a timer.
          if (err instanceof NoSnapshot) {
            lastSeen = undefined;
            warn(() => logger.warn({ err: err.message }, 'catalogue copy not loaded: reads go to the cache'));
          } else failed(err.message);
        },
      )
      .finally(() => {
        syncing = false;
        // The version moved while this catch-up ran: catch up with it too.
        if (!closed && followed() !== undefined && Number(followed()) !== target) sync();
      });
  };

  const isCurrent = (): boolean => {
    const followedVersion = followed();
    if (!replica.index || followedVersion === undefined || fenced) return false;
    const version = Number(followedVersion);
    return version === replica.version && version >= fenceVersion;
  };

  return {
    answer(key) {
      if (!isCurrent()) return undefined;
      const q = key.indexOf('?');
      const read = publicReadOf<PublicResponse | undefined>(
        q === -1 ? key : key.slice(0, q),
        q === -1 ? {} : parseQuery(key.slice(q + 1)),
      );
      if (!read) return undefined;
      try {
        const response = read(indexReads(replica.index!));
        return response && entryFromCopy(key, response);
      } catch (err) {
        if (err instanceof QueryError) return undefined; // the catalog answers its 400
        throw err;
      }
    },
    currentIndex: () => (isCurrent() ? replica.index : undefined),
    sync,
    fence() {
      const ticket = ++fenced;
      const lift = (version: number): void => {
        if (fenced !== ticket) return;
        fenced = 0;
        fenceVersion = version;
        sync();
      };
      redis.get(feed.version).then(
        (value) => lift(Number(value ?? 0)),
        () => lift(Number(followed() ?? 0) + 1), // unreadable: wait for the next version heard
      );
    },
    stats: () => ({ version: replica.index ? replica.version : undefined, products: replica.index?.size ?? 0 }),
    close() {
      closed = true;
      clearTimeout(retry);
    },
  };
}
