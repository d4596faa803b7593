import { Injectable, Logger, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { CatalogConfig } from '../config/catalog.config';
import { StockAlertsService } from './stock-alerts.service';

/** Runs the back-in-stock sweep every STOCK_ALERT_SWEEP_MS, one at a time per replica. */
@Injectable()
export class StockAlertsSweeper implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger(StockAlertsSweeper.name);
  private timer?: NodeJS.Timeout;
  private sweeping?: Promise<unknown>;

  constructor(
    private readonly alerts: StockAlertsService,
    private readonly config: CatalogConfig,
  ) {}

  onModuleInit(): void {
    this.timer = setInterval(() => this.sweep(), this.config.STOCK_ALERT_SWEEP_MS);
    this.timer.unref();
  }

  private sweep(): void {
    if (this.sweeping) return;
    this.sweeping = this.alerts
      .sweep()
      .catch((err: Error) => this.logger.warn(`back-in-stock sweep failed: ${err.message}`))
      .finally(() => (this.sweeping = undefined));
  }

  async onApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    await this.sweeping;
  }
}
