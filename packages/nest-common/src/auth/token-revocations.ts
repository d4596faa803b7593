import { Inject, Injectable } from '@nestjs/common';
import { revocationKey, type TokenClaims } from '@shop/contracts';
import type Redis from 'ioredis';
import { ServiceConfig } from '../config/service-config';
import { REDIS } from '../redis/redis.provider';

/**
 * "Tokens of user X issued before T are void", kept in Redis for as long as a token lives.
 * Identity writes it (role change, deletion) before it answers; every service's guard reads it.
 */
@Injectable()
export class TokenRevocations {
  constructor(
    @Inject(REDIS) private readonly redis: Redis,
    private readonly config: ServiceConfig,
  ) {}

  async revokeBefore(userId: string, beforeMs: number): Promise<void> {
    await this.redis.set(revocationKey(userId), String(beforeMs), 'EX', this.config.JWT_TTL_SECONDS);
  }

  async isRevoked(claims: Pick<TokenClaims, 'sub' | 'iatMs'>): Promise<boolean> {
    const value = await this.redis.get(revocationKey(claims.sub));
    return value !== null && claims.iatMs < Number(value);
  }
}
