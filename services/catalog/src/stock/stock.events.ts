import { Injectable, Logger, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { CatalogConfig } from '../config/catalog.config';
import { StockService } from './stock.service';

/**
 * Runs the expiry sweeper. The orders events that move stock (`orders.order.placed`, `orders.order.cancelled`) reach
 * StockService through the service's one subscription (events/catalog-events.ts).
 */
@Injectable()
export class StockEvents implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger(StockEvents.name);
  private timer?: NodeJS.Timeout;
  private sweeping?: Promise<unknown>;

  constructor(
    private readonly stock: StockService,
    private readonly config: CatalogConfig,
  ) {}

  onModuleInit(): void {
    this.timer = setInterval(() => this.sweep(), this.config.RESERVATION_SWEEP_MS);
    this.timer.unref();
  }

  /** One sweep at a time per replica; replicas may overlap safely (per-product locks, status checks). */
  private sweep(): void {
    if (this.sweeping) return;
    this.sweeping = this.stock
      .sweep()
      .catch((err: Error) => this.logger.warn(`reservation sweep failed: ${err.message}`))
      .finally(() => (this.sweeping = undefined));
  }

  async onApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    await this.sweeping;
  }
}
