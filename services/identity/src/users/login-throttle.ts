import { HttpException, HttpStatus, Inject, Injectable } from '@nestjs/common';
import { REDIS } from '@shop/nest-common';
import type Redis from 'ioredis';
import { RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import { IdentityConfig } from '../config/identity.config';

/**
 * Failed logins per account (the gateway limits per IP). Only failures count; a success
 * clears the account's record. The limit is checked before the password is, so a locked
 * account cannot be probed.
 */
@Injectable()
export class LoginThrottle {
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
    const state = await this.limiter.get(email);
    if (state && state.consumedPoints >= this.limiter.points) this.tooMany(state);
  }

  async recordFailure(email: string): Promise<void> {
    await this.limiter.penalty(email, 1);
  }

  async reset(email: string): Promise<void> {
    await this.limiter.delete(email);
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
