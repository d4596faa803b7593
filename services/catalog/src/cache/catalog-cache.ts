import { Inject, Injectable, Logger, ServiceUnavailableException } from '@nestjs/common';
import { REDIS } from '@shop/nest-common';
import type Redis from 'ioredis';
import { CatalogConfig } from '../config/catalog.config';
import {
  changeFeedKeysOf,
  changesOfLog,
  purgedKeysOf,
  type CatalogChange,
  type StockWrite,
} from '@shop/catalog-read-model';

const noop = () => undefined;

/** Versions a replica can fall behind and still catch up from the log (about 17 minutes of 10 changes a second). */
export const CHANGE_LOG_LENGTH = 10_000;
/** How often a lost change's reload of every replica is tried again. */
const RELOAD_RETRY_MS = 2_000;

/**
 * One change, atomically: INCR the version, log the change under it (trimmed to the last ARGV[3] versions), and
 * PUBLISH `<version>[ <purged key>…]` on the channel named like the version key.
 */
const RECORD = `
local v = redis.call('incr', KEYS[1])
redis.call('zadd', KEYS[2], v, v .. ' ' .. ARGV[1])
redis.call('zremrangebyscore', KEYS[2], '-inf', v - tonumber(ARGV[3]))
if ARGV[2] == '' then redis.call('publish', KEYS[1], tostring(v)) else redis.call('publish', KEYS[1], v .. ' ' .. ARGV[2]) end
return v`;

/** Records a change (see RECORD) and returns its version. The seed program uses it without a running service. */
export async function recordChange(redis: Redis, namespace: string, change: CatalogChange): Promise<number> {
  const keys = changeFeedKeysOf(namespace);
  const version = await redis.eval(
    RECORD,
    2,
    keys.version,
    keys.log,
    JSON.stringify(change),
    purgedKeysOf(change).join(' '),
    CHANGE_LOG_LENGTH,
  );
  return Number(version);
}

/**
 * Keeps every replica's in-memory catalogue (and the gateway's cache) coherent with the database.
 *
 * Every write that changes what a public read shows is recorded *after* the database write: the Redis counter
 * `<namespace>catalog:version` goes up by one, the change is logged under the new version in the sorted set
 * `<namespace>catalog:changes`, and the new version is PUBLISHed (with the surrogate keys it purges) on the
 * channel named like the counter. A replica reads the counter before each public read (see readVersion) and
 * replays the logged changes it has not seen yet, so a write that finished before a request arrived shows in
 * that request's answer on every replica. A stock write carries its new levels, so replaying it needs no
 * database round trip; an admin edit is reloaded from the database; a gap in the log means a full reload.
 */
@Injectable()
export class CatalogCache {
  private readonly logger = new Logger(CatalogCache.name);
  private readonly namespace: string;
  private readonly keys: { version: string; log: string };
  /** The version GET on the wire, and the one that will follow it (see readVersion). */
  private sent?: Promise<string>;
  private queued?: Promise<string>;
  private reloadPending = false;

  constructor(
    @Inject(REDIS) private readonly redis: Redis,
    config: CatalogConfig,
  ) {
    this.namespace = config.RABBITMQ_NAMESPACE;
    this.keys = changeFeedKeysOf(this.namespace);
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
    const get = this.redis.get(this.keys.version).then((v) => v ?? '0');
    this.sent = get;
    get.then(noop, noop).then(() => {
      if (this.sent === get) this.sent = undefined;
    });
    return get;
  }

  /**
   * The changes of versions `from + 1 … to`, in order; undefined when the log cannot tell them all (trimmed,
   * or a version bumped without a log entry): the caller then reloads everything.
   */
  async changesSince(from: number, to: number): Promise<CatalogChange[] | undefined> {
    return changesOfLog(await this.redis.zrangebyscore(this.keys.log, `(${from}`, to), from, to);
  }

  /** Anything may have changed (products written behind the service's back): every replica reloads everything. */
  invalidate(): Promise<void> {
    return this.record({ all: true });
  }

  /** An admin created, edited or deleted these products. */
  productsEdited(productIds: string[]): Promise<void> {
    return this.record({ edited: productIds.map((id) => id.toLowerCase()) });
  }

  /**
   * Resolves when the change feed answers, else a 503: a stock write is made only when its change can reach every
   * replica's read model (a write whose change is lost anyway makes every replica reload: see record).
   */
  async assertReachable(): Promise<void> {
    try {
      await this.readVersion();
    } catch {
      throw new ServiceUnavailableException('The stock cannot be changed right now, please try again');
    }
  }

  /** A stock write set these values (its stockVersion orders it among writes logged out of order). */
  stockChanged(productId: string, write: StockWrite, soldChanged: boolean): Promise<void> {
    return this.record({ stock: { productId: productId.toLowerCase(), write, soldChanged } });
  }

  private async record(change: CatalogChange): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        await recordChange(this.redis, this.namespace, change);
        return;
      } catch (err) {
        if (attempt >= 3) {
          this.logger.error(
            `catalog change not recorded: replicas may serve stale products until they reload: ${(err as Error).message}`,
          );
          this.reloadEverywhereLater();
          return;
        }
      }
    }
  }

  /**
   * A change was written to the database but not to the feed (Redis went away in between): until a `{ all: true }`
   * change reaches the feed, tried every few seconds, replicas do not know what they miss.
   */
  private reloadEverywhereLater(): void {
    if (this.reloadPending) return;
    this.reloadPending = true;
    const attempt = () =>
      recordChange(this.redis, this.namespace, { all: true }).then(
        () => {
          this.reloadPending = false;
          this.logger.log('catalog change feed back: every replica reloads the catalogue');
        },
        () => setTimeout(attempt, RELOAD_RETRY_MS).unref(),
      );
    setTimeout(attempt, RELOAD_RETRY_MS).unref();
  }
}
