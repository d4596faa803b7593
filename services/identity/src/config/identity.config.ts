import { Type } from 'class-transformer';
import { IsInt, Max, Min } from 'class-validator';
import { ServiceConfig } from '@shop/nest-common';

export class IdentityConfig extends ServiceConfig {
  /** Failed logins allowed per account in the window before it is locked for the rest of it. */
  @Type(() => Number)
  @IsInt()
  @Min(1)
  LOGIN_MAX_FAILURES = 10;

  @Type(() => Number)
  @IsInt()
  @Min(1)
  LOGIN_FAILURE_WINDOW_SECONDS = 15 * 60;

  /** How long a password reset link works. */
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(24 * 60)
  PASSWORD_RESET_TTL_MINUTES = 30;

  /** Reset emails per account in the window; beyond it requests are still answered 202 and send nothing. */
  @Type(() => Number)
  @IsInt()
  @Min(1)
  PASSWORD_RESET_MAX_PER_ACCOUNT = 3;

  /** Reset requests per client address in the window; beyond it 429. */
  @Type(() => Number)
  @IsInt()
  @Min(1)
  PASSWORD_RESET_MAX_PER_ADDRESS = 20;

  @Type(() => Number)
  @IsInt()
  @Min(1)
  PASSWORD_RESET_WINDOW_SECONDS = 60 * 60;

  /**
   * Identity is reached only through the gateway, over loopback or a private network: the client address is the
   * last public one in X-Forwarded-For (the gateway appends what it saw). TRUSTED_PROXIES overrides this.
   */
  override TRUSTED_PROXIES?: string[] = ['loopback', 'linklocal', 'uniquelocal'];
}
