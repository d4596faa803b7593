import { Inject, Injectable, Logger, OnApplicationShutdown, Provider } from '@nestjs/common';
import Redis from 'ioredis';
import { ServiceConfig } from '../config/service-config';
import { Metrics } from '../metrics/metrics';
import { observeLocks } from './redis-lock';

export const REDIS = Symbol('REDIS');

/** The longest one Redis command may take: every command of ours is a single-key operation of microseconds. */
export const REDIS_COMMAND_TIMEOUT_MS = 2000;

export interface RedisClientOptions {
  /**
   * Send the commands issued in one event-loop turn as one write (ioredis `enableAutoPipelining`): for a service
   * whose requests each make several Redis calls under load, one socket write instead of one per command.
   */
  autoPipelining?: boolean;
}

/**
 * Fails fast instead of retrying a command for seconds while Redis is away (docs/pitfalls.md#ioredis-fail-fast): a
 * command waits for at most one reconnect attempt, reconnects are tried every 50–500 ms, and a command a hung Redis
 * never answers fails after REDIS_COMMAND_TIMEOUT_MS (the caller answers 503, well before the gateway gives up).
 *
 * A command that failed stays failed: ioredis would otherwise send the commands still unanswered on a dead
 * connection again after reconnecting (`autoResendUnfulfilledCommands`), though their callers were already told
 * they failed — a lock nobody holds (the cart or order stays "busy" for the lock's TTL) or a write the client
 * was answered 503 for appearing later.
 */
export function createRedis(url: string, logger = new Logger('Redis'), options: RedisClientOptions = {}): Redis {
  const redis = new Redis(url, {
    enableAutoPipelining: options.autoPipelining ?? false,
    maxRetriesPerRequest: 1,
    connectTimeout: 2000,
    commandTimeout: REDIS_COMMAND_TIMEOUT_MS,
    retryStrategy: (attempt) => Math.min(attempt * 50, 500),
    autoResendUnfulfilledCommands: false,
  });
  redis.on('error', (err) => logger.warn(`Redis error: ${err.message}`));
  return redis;
}

/** The service's Redis client, its locks counted in `shop_redis_lock_acquisitions_total{lock}` (lockName). */
export function redisProvider(options: RedisClientOptions = {}): Provider {
  return {
    provide: REDIS,
    useFactory: (config: ServiceConfig, metrics: Metrics) => {
      const redis = createRedis(config.REDIS_URL, undefined, options);
      const locks = metrics.counter('shop_redis_lock_acquisitions_total', 'Redis locks taken (withRedisLock)', [
        'lock',
      ]);
      observeLocks(redis, (lock) => locks.inc({ lock }));
      return redis;
    },
    inject: [ServiceConfig, Metrics],
  };
}

@Injectable()
export class RedisCloser implements OnApplicationShutdown {
  constructor(@Inject(REDIS) private readonly redis: Redis) {}
  async onApplicationShutdown() {
    // QUIT on a client that never connected would wait for a connection: just stop reconnecting.
    if (this.redis.status !== 'ready') return this.redis.disconnect();
    await this.redis.quit().catch(() => this.redis.disconnect());
  }
}
