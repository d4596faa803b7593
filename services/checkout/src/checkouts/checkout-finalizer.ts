import { Injectable, Logger, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { CheckoutConfig } from '../config/checkout.config';
import { DiscountsService } from '../discounts/discounts.service';
import { CheckoutsService } from './checkouts.service';

/**
 * Finishes what a shopper's pay could not: every FINALIZE_SWEEP_MS, payments PayPal confirmed but left claimed for
 * FINALIZE_GRACE_MS (a timeout or crash mid-pay, orders away when pay placed the order) are finished — the checkout
 * paid and its order placed, or the money refunded; the discount uses held by unpaid checkouts whose hold ended are
 * freed. Money taken always ends as an order or a refund. Safe on every replica at once: each checkout is changed
 * under its lock, and orders is idempotent.
 */
@Injectable()
export class CheckoutFinalizer implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger(CheckoutFinalizer.name);
  private timer?: NodeJS.Timeout;
  private running?: Promise<unknown>;

  constructor(
    private readonly checkouts: CheckoutsService,
    private readonly discounts: DiscountsService,
    private readonly config: CheckoutConfig,
  ) {}

  onModuleInit(): void {
    this.timer = setInterval(() => this.sweep(), this.config.FINALIZE_SWEEP_MS);
    this.timer.unref();
  }

  private sweep(): void {
    if (this.running) return;
    this.running = this.run().finally(() => (this.running = undefined));
  }

  private async run(): Promise<void> {
    await this.checkouts
      .settleStalePayments()
      .catch((err: Error) => this.logger.warn(`settling verified payments failed: ${err.message}`));
    await this.discounts
      .releaseExpired()
      .catch((err: Error) => this.logger.warn(`releasing expired discount holds failed: ${err.message}`));
  }

  async onApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    await this.running;
  }
}
