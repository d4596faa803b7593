import { Type } from 'class-transformer';
import { IsInt, Max, Min } from 'class-validator';
import { ServiceConfig } from '@shop/nest-common';

export class OrdersConfig extends ServiceConfig {
  /**
   * How often this replica looks for orders whose events the broker has not confirmed yet (ms). Each write
   * relays its own events at once; the sweep only catches what that missed (broker away, a crash).
   */
  @Type(() => Number)
  @IsInt()
  @Min(50)
  @Max(600_000)
  OUTBOX_RELAY_MS = 5000;
}
