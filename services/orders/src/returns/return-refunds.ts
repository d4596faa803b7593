import { Injectable, Logger, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { OrdersConfig } from '../config/orders.config';
import { ReturnsService } from './returns.service';

/**
 * Tries again, every REFUND_CHECK_MS, the refunds of received returns that were not made (PayPal refused or was
 * away, checkout did not answer): until each is made. Safe on every replica at once: checkout makes one refund per
 * return, and recording it is a write conditional on the order's returns as read.
 */
@Injectable()
export class ReturnRefunds implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger(ReturnRefunds.name);
  private timer?: NodeJS.Timeout;
  private running?: Promise<unknown>;

  constructor(
    private readonly returns: ReturnsService,
    private readonly config: OrdersConfig,
  ) {}

  onModuleInit(): void {
    this.timer = setInterval(() => this.tick(), this.config.REFUND_CHECK_MS);
    this.timer.unref();
  }

  private tick(): void {
    if (this.running) return;
    this.running = this.returns
      .retryRefunds()
      .then((n) => n && this.logger.log(`${n} return refund(s) made on retry`))
      .catch((err: Error) => this.logger.warn(`return refunds not retried: ${err.message}`))
      .finally(() => (this.running = undefined));
  }

  async onApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    await this.running;
  }
}
