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

  /**
   * How long cancelling a paid order waits for checkout's refund (PayPal's refund and its confirmation) before it
   * answers 503 (ms): less than the gateway's PROXY_TIMEOUT_MS, so the admin hears why. A refund made after that is
   * not lost: the admin's retry answers it (one refund per payment).
   */
  @Type(() => Number)
  @IsInt()
  @Min(500)
  @Max(60_000)
  REFUND_TIMEOUT_MS = 8000;

  /**
   * How often this replica checks the cancels whose refund got no answer in time (ms): checkout is asked whether the
   * refund was made, and the order cancelled if so (OrdersService.checkPendingRefunds).
   */
  @Type(() => Number)
  @IsInt()
  @Min(50)
  @Max(3_600_000)
  REFUND_CHECK_MS = 30_000;

  /**
   * How often this replica brings the dashboard's sales days up to date with the orders changed since (ms;
   * stats/sales-days.ts). Every dashboard read does so too: this keeps what is left for that read small.
   */
  @Type(() => Number)
  @IsInt()
  @Min(50)
  @Max(3_600_000)
  SALES_DAYS_SWEEP_MS = 30_000;
}
