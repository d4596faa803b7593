import { Injectable, Logger, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { EVENTS, type OrderCancelledEvent, type OrderPlacedEvent } from '@shop/contracts';
import { EventBus } from '@shop/nest-common';
import { CatalogConfig } from '../config/catalog.config';
import { StockService } from './stock.service';

/**
 * Consumes the orders events that move stock (queue `<namespace>catalog.events`, shared by replicas),
 * and runs the expiry sweeper. Handlers are idempotent on their own (per checkout and product), besides
 * the bus's processed-event record, so a redelivery or a duplicate publish changes stock once.
 */
@Injectable()
export class StockEvents implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger(StockEvents.name);
  private timer?: NodeJS.Timeout;
  private sweeping?: Promise<unknown>;

  constructor(
    private readonly bus: EventBus,
    private readonly stock: StockService,
    private readonly config: CatalogConfig,
  ) {}

  async onModuleInit(): Promise<void> {
    await this.bus.subscribe({
      [EVENTS.orders.orderPlaced]: (event) => this.stock.commitOrder(event.data as OrderPlacedEvent),
      [EVENTS.orders.orderCancelled]: (event) => this.stock.returnOrder(event.data as OrderCancelledEvent),
    });
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
