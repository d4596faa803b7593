import { Type } from 'class-transformer';
import { IsInt, Min } from 'class-validator';
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
}
