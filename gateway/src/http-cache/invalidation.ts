import { EventEmitter, once } from 'node:events';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { closeRedis, throttled } from '../redis';

/** How soon a failed read of the version is tried again (or pollMs, when shorter). */
const RETRY_MS = 250;

/**
 * Follows the catalog's version: the counter `<prefix>catalog:version` in Redis and the channel of the same
 * name, on which the catalog PUBLISHes `<version>` after a change that may affect any response, or
 * `<version> <key>…` after one that affects only the responses tagged with those surrogate keys (a stock write:
 * its product, and `sales` when units were sold).
 *
 * A keyed message for the very next version purges those keys; any other new version drops everything (a message
 * was missed, or it named no keys). We subscribe on a dedicated connection and also read the counter on every
 * (re)subscribe and every `pollMs` (lost messages), and again 250 ms after a failed read; a version read that way
 * drops everything when it differs.
 * While Redis is unreachable no version is known, and the cache proxies every read: correctness over speed.
 */
export function followCatalogVersion(
  redis: Redis,
  options: { prefix: string; pollMs: number },
  logger: Logger,
  /** What the follower does to the cache when the catalogue changes. */
  invalidate: { dropAll(): void; purge(keys: readonly string[]): void },
) {
  const versionKey = `${options.prefix}catalog:version`;
  const warnRedis = throttled(10_000);
  let version: string | undefined;
  let closed = false;
  let subscribed = false;
  /** Bumped whenever the subscription is (re)established or lost: stale GET replies are ignored. */
  let subscription = 0;
  /** Emits `armed` when a version becomes known, and at close (waking every whenArmed). */
  const armed = new EventEmitter().setMaxListeners(0);
  let nextRead: NodeJS.Timeout | undefined;

  const setVersion = (next: string, source: string): void => {
    if (next === version) return;
    const previous = version;
    version = next;
    invalidate.dropAll();
    if (previous === undefined) {
      logger.info({ version: next, source }, 'catalog cache armed');
      armed.emit('armed');
    } else {
      logger.debug({ version: next, previous, source }, 'catalog version changed: cache dropped');
    }
  };

  const onMessage = (message: string): void => {
    const [next, ...keys] = message.split(' ');
    if (version !== undefined && Number(next) <= Number(version)) return; // a read of the counter got there first
    if (version !== undefined && keys.length && Number(next) === Number(version) + 1) {
      version = next;
      invalidate.purge(keys);
      return;
    }
    setVersion(next, 'message');
  };

  const disarm = (reason: string): void => {
    subscription += 1;
    if (version === undefined) return;
    version = undefined;
    invalidate.dropAll();
    if (!closed) warnRedis(() => logger.warn({ reason }, 'catalog cache disarmed: proxying every catalogue read'));
  };

  /** Reads the counter, then again after pollMs; after a failure sooner, rather than at the poll, which may be far off. */
  const readVersion = async (source: string): Promise<void> => {
    if (!subscribed) return; // until the next (re)subscribe
    const asOf = subscription;
    const again = (ms: number) => {
      clearTimeout(nextRead);
      nextRead = setTimeout(() => void readVersion('poll'), ms).unref();
    };
    try {
      const value = (await redis.get(versionKey)) ?? '0';
      if (asOf !== subscription) return; // the subscription was lost or renewed meanwhile (or the follower closed)
      setVersion(value, source);
      again(options.pollMs);
    } catch (err) {
      if (asOf !== subscription) return;
      // Refused (the main client, which has no offline queue, not ready yet: the subscriber can be first) or timed out.
      disarm(`version unreadable: ${(err as Error).message}`);
      again(Math.min(RETRY_MS, options.pollMs));
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
    if (channel === versionKey && subscribed) onMessage(message);
  });
  subscriber.connect().catch(() => undefined); // errors are reported by the 'error' listener; it retries

  return {
    /** The catalog version the cache follows; undefined while unknown (Redis unreachable): nothing may be cached. */
    get version(): string | undefined {
      return version;
    },
    /** Resolves true once a version is known (subscribed and read), false after timeoutMs. */
    async whenArmed(timeoutMs: number): Promise<boolean> {
      if (version === undefined)
        await once(armed, 'armed', { signal: AbortSignal.timeout(timeoutMs) }).catch(() => undefined);
      return version !== undefined;
    },
    async close() {
      closed = true;
      subscribed = false;
      clearTimeout(nextRead);
      armed.emit('armed');
      disarm('closing'); // quiet: closed is set
      await closeRedis(subscriber);
    },
  };
}
