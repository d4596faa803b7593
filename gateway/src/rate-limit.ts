import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import proxyAddr from 'proxy-addr';
import { RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import type { GatewayConfig } from './config';
import { MESSAGES, sendError } from './errors';
import { throttled } from './redis';
import { requestIdOf } from './request-id';
import { normalisePath, pathOf, RATE_LIMITED } from './routes';

/**
 * Per-IP limits on login and register (RATE_LIMITED), counted in Redis so that every gateway replica shares them;
 * other requests go straight on. If Redis is unreachable the limit fails OPEN (with a throttled warning): the shop
 * stays up. `trust` is Express's compiled TRUST_PROXY (`app.get('trust proxy fn')`): the address is `req.ip`'s.
 */
export function rateLimits(
  config: GatewayConfig,
  redis: Redis,
  logger: Logger,
  trust: (addr: string, i: number) => boolean,
) {
  const limiter = (name: string, points: number) =>
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

  return (req: IncomingMessage, res: ServerResponse, next: () => void): void => {
    if (req.method !== 'POST') return next();
    const path = normalisePath(pathOf(req.url ?? '/'));
    const which = (Object.keys(limiters) as Array<keyof typeof limiters>).find(
      (key) => RATE_LIMITED[key].path === path,
    );
    if (!which) return next();

    const ip = proxyAddr(req, trust);
    limiters[which].consume(ip).then(
      (result) => {
        res.setHeader('RateLimit-Remaining', String(result.remainingPoints));
        next();
      },
      (err: unknown) => {
        if (!(err instanceof RateLimiterRes)) {
          const reason = err instanceof Error ? err.message : String(err);
          warn(() => logger.warn({ err: reason }, 'rate limiter unavailable (Redis down?): failing open'));
          return next();
        }
        logger.info({ requestId: requestIdOf(req), ip, limit: which }, 'rate limited');
        const retryAfter = String(Math.max(1, Math.ceil(err.msBeforeNext / 1000)));
        sendError(res, 429, MESSAGES.tooMany, { 'Retry-After': retryAfter });
      },
    );
  };
}
