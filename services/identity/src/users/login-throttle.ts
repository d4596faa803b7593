import { HttpException, HttpStatus, Inject, Injectable, Logger } from '@nestjs/common';
import { REDIS } from '@shop/nest-common';
import type Redis from 'ioredis';
import { RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import { IdentityConfig } from '../config/identity.config';

/**
 * Failed logins per account (the gateway limits per IP). Only failures count; a success
 * clears the account's record. The limit is checked before the password is, so a locked
 * account cannot be probed. When Redis cannot be reached the throttle steps aside (logged), like the
 * gateway's per-IP limits: an outage of the counter must not lock every shopper out.
 */
@Injectable()
export class LoginThrottle {
  private readonly logger = new Logger(LoginThrottle.name);
  private readonly limiter: RateLimiterRedis;

  constructor(@Inject(REDIS) redis: Redis, config: IdentityConfig) {
    this.limiter = new RateLimiterRedis({
      storeClient: redis,
      keyPrefix: `${config.RABBITMQ_NAMESPACE}identity:login-failures`,
      points: config.LOGIN_MAX_FAILURES,
      duration: config.LOGIN_FAILURE_WINDOW_SECONDS,
    });
  }

  async assertAllowed(email: string): Promise<void> {
    const state = await this.unlessDown('read', () => this.limiter.get(email));
    if (state && state.consumedPoints >= this.limiter.points) this.tooMany(state);
  }

  async recordFailure(email: string): Promise<void> {
    await this.unlessDown('record', () => this.limiter.penalty(email, 1));
  }

  async reset(email: string): Promise<void> {
    await this.unlessDown('reset', () => this.limiter.delete(email));
  }

  private async unlessDown<T>(what: string, fn: () => Promise<T>): Promise<T | undefined> {
    try {
      return await fn();
    } catch (err) {
      this.logger.warn(`login throttle unavailable (${what}): ${(err as Error).message}`);
      return undefined;
    }
  }

  private tooMany(state: RateLimiterRes): never {
    const minutes = Math.max(1, Math.ceil(state.msBeforeNext / 60_000));
    throw new HttpException(
      {
        statusCode: HttpStatus.TOO_MANY_REQUESTS,
        message: `Too many failed login attempts, please try again in ${minutes} minute${minutes === 1 ? '' : 's'}`,
      },
      HttpStatus.TOO_MANY_REQUESTS,
    );
  }
}
