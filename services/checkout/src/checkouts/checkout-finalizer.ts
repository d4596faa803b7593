import { Injectable, Logger, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { CheckoutConfig } from '../config/checkout.config';
import { CheckoutsService } from './checkouts.service';

/**
 * Every FINALIZE_SWEEP_MS, finalizes paid checkouts left unfinalized for FINALIZE_GRACE_MS (the shopper's
 * browser closed between paying and finalizing, or orders was away): money taken always becomes an order.
 * Safe on every replica at once: each checkout is finalized under its lock, and orders is idempotent.
 */
@Injectable()
export class CheckoutFinalizer implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger(CheckoutFinalizer.name);
  private timer?: NodeJS.Timeout;
  private running?: Promise<unknown>;

  constructor(
    private readonly checkouts: CheckoutsService,
    private readonly config: CheckoutConfig,
  ) {}

  onModuleInit(): void {
    this.timer = setInterval(() => this.sweep(), this.config.FINALIZE_SWEEP_MS);
    this.timer.unref();
  }

  private sweep(): void {
    if (this.running) return;
    this.running = this.checkouts
      .finalizeAbandoned()
      .catch((err: Error) => this.logger.warn(`finalizing paid checkouts failed: ${err.message}`))
      .finally(() => (this.running = undefined));
  }

  async onApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    await this.running;
  }
}
