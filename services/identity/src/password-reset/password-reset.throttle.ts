import { HttpException, HttpStatus, Inject, Injectable, Logger } from '@nestjs/common';
import { REDIS } from '@shop/nest-common';
import type Redis from 'ioredis';
import { RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import { IdentityConfig } from '../config/identity.config';

/**
 * Reset requests per client address and per account, counted in Redis (shared by every replica).
 *
 * - Per address: over the limit answers 429 — it tells the caller nothing about any account.
 * - Per account: over the limit still answers the same 202 and sends nothing; a 429 here would tell who has an
 *   account. Counted per email as typed (normalised), known or not, for the same reason.
 *
 * When Redis cannot be reached both step aside (logged), like the login throttle: the reset itself needs Redis
 * (the revocation record), so an outage cannot be used to change a password unthrottled.
 */
@Injectable()
export class PasswordResetThrottle {
  private readonly logger = new Logger(PasswordResetThrottle.name);
  private readonly perAddress: RateLimiterRedis;
  private readonly perAccount: RateLimiterRedis;

  constructor(@Inject(REDIS) redis: Redis, config: IdentityConfig) {
    const limiter = (name: string, points: number) =>
      new RateLimiterRedis({
        storeClient: redis,
        keyPrefix: `${config.RABBITMQ_NAMESPACE}identity:password-reset:${name}`,
        points,
        duration: config.PASSWORD_RESET_WINDOW_SECONDS,
      });
    this.perAddress = limiter('address', config.PASSWORD_RESET_MAX_PER_ADDRESS);
    this.perAccount = limiter('account', config.PASSWORD_RESET_MAX_PER_ACCOUNT);
  }

  /** Counts a request from this address; throws 429 beyond the limit. */
  async consumeAddress(address: string): Promise<void> {
    const limited = await this.consume(this.perAddress, address);
    if (limited) {
      const minutes = Math.max(1, Math.ceil(limited.msBeforeNext / 60_000));
      throw new HttpException(
        {
          statusCode: HttpStatus.TOO_MANY_REQUESTS,
          message: `Too many password reset requests, please try again in ${minutes} minute${minutes === 1 ? '' : 's'}`,
        },
        HttpStatus.TOO_MANY_REQUESTS,
      );
    }
  }

  /** Counts a request for this email; false beyond the limit. */
  async consumeAccount(email: string): Promise<boolean> {
    return !(await this.consume(this.perAccount, email));
  }

  /** The limiter's refusal, or undefined when allowed (or when Redis is away). */
  private async consume(limiter: RateLimiterRedis, key: string): Promise<RateLimiterRes | undefined> {
    try {
      await limiter.consume(key);
      return undefined;
    } catch (err) {
      if (err instanceof RateLimiterRes) return err;
      this.logger.warn(`password reset throttle unavailable: ${(err as Error).message}`);
      return undefined;
    }
  }
}
