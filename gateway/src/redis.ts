import { once } from 'node:events';
import { Redis } from 'ioredis';
import type { Logger } from 'pino';

/**
 * One Redis client for the process, built to fail fast (docs/pitfalls.md#ioredis-fail-fast): no offline queue, few
 * retries, short command timeout, reconnects in the background, errors logged (throttled) instead of thrown.
 */
export function createRedis(url: string, logger: Logger): Redis {
  const redis = new Redis(url, {
    maxRetriesPerRequest: 1,
    enableOfflineQueue: false,
    connectTimeout: 2000,
    commandTimeout: 1000,
    disconnectTimeout: 200, // ioredis otherwise keeps a 2 s timer alive after disconnecting a dead socket
    retryStrategy: (attempt) => Math.min(attempt * 200, 2000),
  });
  const warn = throttled(10_000);
  redis.on('error', (err: Error) => warn(() => logger.warn({ err: err.message }, 'redis error')));
  return redis;
}

/** QUIT when connected, otherwise just stop reconnecting. Never throws. */
export async function closeRedis(redis: Redis): Promise<void> {
  if (redis.status === 'ready') await redis.quit().catch(() => redis.disconnect());
  else if (redis.status !== 'end') redis.disconnect();
}

/** Resolves true when the client is ready, false after timeoutMs (never rejects: callers fail open). */
export async function waitForRedis(redis: Redis, timeoutMs: number): Promise<boolean> {
  if (redis.status === 'ready') return true;
  return once(redis, 'ready', { signal: AbortSignal.timeout(timeoutMs) }).then(
    () => true,
    () => false,
  );
}

/** Logs at most once per interval: a Redis outage, felt by every request, must not flood the log. */
export function throttled(intervalMs: number): (log: () => void) => void {
  let last = 0;
  return (log) => {
    if (Date.now() - last < intervalMs) return;
    last = Date.now();
    log();
  };
}
