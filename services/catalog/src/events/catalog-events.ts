import { Injectable, OnModuleInit } from '@nestjs/common';
import {
  EVENTS,
  type OrderCancelledEvent,
  type OrderPlacedEvent,
  type OrderStatusChangedEvent,
  type ProductChangedEvent,
  type ReturnStatusChangedEvent,
} from '@shop/contracts';
import { EventBus } from '@shop/nest-common';
import { ReviewsService } from '../reviews/reviews.service';
import { StockAlertsService } from '../stock-alerts/stock-alerts.service';
import { StockService } from '../stock/stock.service';

/**
 * The events catalog consumes, on its one queue `<namespace>catalog.events` (shared by replicas; one subscription, as
 * two consumers of one queue would each take the other's events). Every handler is idempotent on its own key, so no
 * inbox: a sale or a return is a write conditional on the checkout's hold (or its `returnedCheckouts` entry, or a
 * returned order's `restockedReturns` entry) in the product, a delivery a unique key of customer and product, a
 * back-in-stock request a conditional write of its state.
 */
@Injectable()
export class CatalogEvents implements OnModuleInit {
  constructor(
    private readonly bus: EventBus,
    private readonly stock: StockService,
    private readonly reviews: ReviewsService,
    private readonly alerts: StockAlertsService,
  ) {}

  async onModuleInit(): Promise<void> {
    await this.bus.subscribe(
      {
        [EVENTS.orders.orderPlaced]: (event) => this.stock.commitOrder(event.data as OrderPlacedEvent),
        [EVENTS.orders.orderCancelled]: (event) => this.stock.returnOrder(event.data as OrderCancelledEvent),
        // A received return: the units the admin restocked go back on sale, once per return.
        [EVENTS.orders.returnStatusChanged]: (event) =>
          this.stock.restockReturn(event.data as ReturnStatusChangedEvent),
        [EVENTS.orders.orderStatusChanged]: async (event) => {
          await this.reviews.recordDelivery(event.data as OrderStatusChangedEvent);
        },
        // its own announcement of a product's change (an admin edit, units returned, a hold released or expired):
        // the waiting back-in-stock requests of a size and colour in stock again are triggered, each once
        [EVENTS.catalog.productChanged]: async (event) => {
          const { productId } = (event.data ?? {}) as Partial<ProductChangedEvent>;
          if (typeof productId === 'string') await this.alerts.checkProduct(productId.toLowerCase());
        },
      },
      { inbox: false },
    );
  }
}
