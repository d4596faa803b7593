import { Injectable, Logger, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { OrdersConfig } from '../config/orders.config';
import { OrdersService } from './orders.service';

/**
 * Every REFUND_CHECK_MS, settles the cancels whose refund got no answer in time (OrdersService.checkPendingRefunds):
 * the refund made meanwhile → the order cancelled with it; none → the order left as it is. Money refunded never sits
 * on an order that still reads paid. Safe on every replica at once: each order is changed under its lock, and
 * checkout answers a made refund the same way however often asked.
 */
@Injectable()
export class PendingRefunds implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger(PendingRefunds.name);
  private timer?: NodeJS.Timeout;
  private running?: Promise<unknown>;

  constructor(
    private readonly orders: OrdersService,
    private readonly config: OrdersConfig,
  ) {}

  onModuleInit(): void {
    // Orders marked before the check's field existed get it first, in the background (a whole-collection read, once).
    this.running = this.orders
      .backfillRefundPendingAt()
      .then((n) => n && this.logger.log(`${n} order(s) with a pending refund marked for the check`))
      .catch((err: Error) => this.logger.warn(`marking pending refunds for the check failed: ${err.message}`))
      .finally(() => (this.running = undefined));
    this.timer = setInterval(() => this.check(), this.config.REFUND_CHECK_MS);
    this.timer.unref();
  }

  private check(): void {
    if (this.running) return;
    this.running = this.orders
      .backfillRefundPendingAt()
      .then(() => this.orders.checkPendingRefunds())
      .catch((err: Error) => this.logger.warn(`checking pending refunds failed: ${err.message}`))
      .finally(() => (this.running = undefined));
  }

  async onApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    await this.running;
  }
}
