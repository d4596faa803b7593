import { ServiceUnavailableException } from '@nestjs/common';
import type Redis from 'ioredis';
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';

const RELEASE = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end`;

export interface LockOptions {
  /** How long the lock lives if its holder dies (ms). */
  ttlMs?: number;
  /** How long to keep trying before giving up with a 503 (ms). */
  waitMs?: number;
  /**
   * Throws when something the guarded work needs is known to be away (e.g. `assertDatabaseReachable`). Checked
   * before waiting and again once the lock is taken: in a database outage each holder waits out its own
   * timeouts, and a caller queued behind a few of them would otherwise wait them all out, then its own.
   */
  requires?: () => void;
}

/** Per Redis client, the last local caller queued for each key (see withRedisLock). */
const localQueues = new WeakMap<Redis, Map<string, Promise<void>>>();

/** Per Redis client, who hears of each lock it takes (the service's metrics: see observeLocks). */
const observers = new WeakMap<Redis, (lock: string) => void>();

/** Calls `onAcquired` with the lock's name (lockName) each time a lock is taken through this client. */
export function observeLocks(redis: Redis, onAcquired: (lock: string) => void): void {
  observers.set(redis, onAcquired);
}

/**
 * What a lock's key names, without the record it is for: the key less its last `:` part when that holds a digit
 * (an id, a date), so `catalog:lock:product:<id>` counts as `catalog:lock:product` and `identity:lock:admins` as itself.
 */
export function lockName(key: string): string {
  const last = key.lastIndexOf(':');
  return last > 0 && /\d/.test(key.slice(last + 1)) ? key.slice(0, last) : key;
}

/**
 * Serialises work per key where one document cannot decide it by itself (each caller says why: the invariant spans
 * several records, or several stores). Single-document changes need no lock: MongoDB, and our FerretDB build, apply
 * a conditional update atomically. SET NX PX, released by compare-and-delete so a holder that outlived its TTL never
 * frees someone else's lock; what the lock guards must still be safe when that happens (a conditional write, a
 * unique key), since a lock with a time-to-live fences nothing by itself.
 *
 * Callers in this process queue for a key first, in arrival order, and only the first of them asks Redis: the
 * next one asks the moment the lock is released instead of polling for it (a hot product's buyers would otherwise
 * leave it free between a release and their next poll, and the order they got it in would be chance). Holders in
 * other processes (replicas) are still waited for by polling Redis.
 */
export async function withRedisLock<T>(
  redis: Redis,
  key: string,
  fn: () => Promise<T>,
  options: LockOptions = {},
): Promise<T> {
  const ttlMs = options.ttlMs ?? 10_000;
  options.requires?.();
  const deadline = Date.now() + (options.waitMs ?? 5_000);
  const queue = localQueues.get(redis) ?? new Map<string, Promise<void>>();
  localQueues.set(redis, queue);
  const before = queue.get(key);
  let leave!: () => void;
  const mine = new Promise<void>((resolve) => (leave = resolve));
  // Whoever queues after this caller waits for it and for everyone before it, whatever becomes of this caller.
  const last = before ? before.then(() => mine) : mine;
  queue.set(key, last);
  try {
    if (before) await waitUntil(before, deadline);
    const token = randomUUID();
    let delay = 5;
    while ((await redis.set(key, token, 'PX', ttlMs, 'NX')) !== 'OK') {
      if (Date.now() > deadline) throw busy();
      await sleep(delay + Math.random() * delay);
      delay = Math.min(delay * 2, 25);
    }
    observers.get(redis)?.(lockName(key));
    try {
      options.requires?.();
      return await fn();
    } finally {
      await redis.eval(RELEASE, 1, key, token).catch(() => releaseLater(redis, key, token, ttlMs));
    }
  } finally {
    leave();
    if (queue.get(key) === last) queue.delete(key);
  }
}

function busy(): ServiceUnavailableException {
  return new ServiceUnavailableException('The service is busy, please try again');
}

/** Resolves when `turn` does, or rejects with the lock's 503 at the deadline. */
async function waitUntil(turn: Promise<void>, deadline: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(busy()), Math.max(0, deadline - Date.now()));
  });
  try {
    await Promise.race([turn, late]);
  } finally {
    clearTimeout(timer);
  }
}

/** How often a release that could not reach Redis is tried again, until the lock would have expired anyway. */
export const RELEASE_RETRY_MS = 250;

/**
 * Redis went away between taking the lock and releasing it: keep trying in the background (compare-and-delete,
 * so never someone else's lock) until the TTL would free it anyway. Without this, whatever the lock guards (a
 * cart, an order) stays "busy" for the rest of the TTL after Redis is back.
 */
function releaseLater(redis: Redis, key: string, token: string, ttlMs: number): void {
  const until = Date.now() + ttlMs;
  const attempt = () =>
    void redis.eval(RELEASE, 1, key, token).catch(() => {
      if (Date.now() + RELEASE_RETRY_MS < until) setTimeout(attempt, RELEASE_RETRY_MS).unref();
    });
  setTimeout(attempt, RELEASE_RETRY_MS).unref();
}
