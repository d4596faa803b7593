import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { Redis } from 'ioredis';
import { RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import type { GatewayConfig } from './config';
import { MESSAGES, sendError } from './errors';
import { throttled, type Logger } from './logger';
import { requestIdOf } from './request-id';
import { normalisePath, RATE_LIMITED } from './routes';

/**
 * Per-IP limits on login and register, counted in Redis so that every gateway replica shares them.
 * If Redis is unreachable the limit fails OPEN (with a throttled warning): the shop stays up.
 */
export function rateLimits(config: GatewayConfig, redis: Redis, logger: Logger): RequestHandler {
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

  return async (req: Request, res: Response, next: NextFunction) => {
    if (req.method !== 'POST') return next();
    const path = normalisePath(req.path);
    const which = (Object.keys(RATE_LIMITED) as Array<keyof typeof RATE_LIMITED>).find(
      (key) => RATE_LIMITED[key].path === path,
    );
    if (!which) return next();

    const key = req.ip ?? req.socket.remoteAddress ?? 'unknown';
    try {
      const result = await limiters[which].consume(key);
      res.setHeader('RateLimit-Remaining', String(result.remainingPoints));
    } catch (err) {
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
    }
    next();
  };
}
