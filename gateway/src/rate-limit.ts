import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Redis } from 'ioredis';
import { RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import type { GatewayConfig } from './config';
import { MESSAGES, sendError } from './errors';
import { throttled, type Logger } from './logger';
import { requestIdOf } from './request-id';
import { normalisePath, RATE_LIMITED } from './routes';

/** Express's compiled `trust proxy` setting (`app.get('trust proxy fn')`): whether the hop at `addr` is trusted. */
export type TrustProxy = (addr: string, hop: number) => boolean;

/**
 * The client's address as Express's `req.ip` tells it: the socket's peer, then X-Forwarded-For from right to left
 * while the hop it came through is trusted (TRUST_PROXY).
 */
function clientIp(req: IncomingMessage, trust: TrustProxy): string {
  const forwarded = String(req.headers['x-forwarded-for'] ?? '').split(',');
  const hops = [
    req.socket.remoteAddress ?? 'unknown',
    ...forwarded
      .map((a) => a.trim())
      .filter(Boolean)
      .reverse(),
  ];
  let hop = 0;
  while (hop < hops.length - 1 && trust(hops[hop], hop)) hop += 1;
  return hops[hop];
}

/** The rate-limit step of a route: calls next() at once for any request it does not limit. */
export type RateLimit = (req: IncomingMessage, res: ServerResponse, next: () => void) => void;

/**
 * Per-IP limits on login and register, counted in Redis so that every gateway replica shares them.
 * If Redis is unreachable the limit fails OPEN (with a throttled warning): the shop stays up.
 */
export function rateLimits(config: GatewayConfig, redis: Redis, logger: Logger, trust: TrustProxy): RateLimit {
  const limiter = (name: string, points: number): RateLimiterRedis =>
    new RateLimiterRedis({
      storeClient: redis,
      keyPrefix: `${config.rateLimitPrefix}:${name}`,
      points,
      duration: 60,
      rejectIfRedisNotReady: true,
    });
  const limiters = {
    login: limiter('login', config.rateLimitLoginPerMin),
    register: limiter('register', config.rateLimitRegisterPerMin),
  };
  const warn = throttled(10_000);

  return (req, res, next) => {
    if (req.method !== 'POST') return next();
    const path = normalisePath((req.url ?? '/').split('?')[0]);
    const which = (Object.keys(RATE_LIMITED) as Array<keyof typeof RATE_LIMITED>).find(
      (key) => RATE_LIMITED[key].path === path,
    );
    if (!which) return next();

    const key = clientIp(req, trust);
    limiters[which].consume(key).then(
      (result) => {
        res.setHeader('RateLimit-Remaining', String(result.remainingPoints));
        next();
      },
      (err: unknown) => {
        if (err instanceof RateLimiterRes) {
          const retryAfter = Math.max(1, Math.ceil(err.msBeforeNext / 1000));
          logger.info({ requestId: requestIdOf(req), ip: key, limit: which }, 'rate limited');
          sendError(res, 429, MESSAGES.tooMany, { 'Retry-After': String(retryAfter) });
          return;
        }
        warn(() =>
          logger.warn(
            { err: err instanceof Error ? err.message : String(err) },
            'rate limiter unavailable (Redis down?): failing open',
          ),
        );
        next();
      },
    );
  };
}
