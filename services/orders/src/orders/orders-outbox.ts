import { Inject, Injectable, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { EventBus, OutboxRelay, ROOT_LOGGER, type EventBusLogger, type OutboxEntry } from '@shop/nest-common';
import type { Model } from 'mongoose';
import { OrdersConfig } from '../config/orders.config';
import { Order } from './order.schema';

/**
 * The orders' outbox relay: an order's events are stored in the order itself, in the same write as the
 * change they announce, and published from there until the broker confirms them. A write relays its own
 * events at once (`relaySoon`); the periodic sweep catches whatever that missed — a broker that was away,
 * a replica that crashed between its write and the publish. The relays of one order take turns in a replica,
 * so those two never publish an entry twice; replicas may overlap, and a crash after the broker's confirm
 * publishes again: at least once, with the same eventId, which consumers dedupe. An entry is marked published by
 * one conditional update of the outbox as read (OutboxRelay), with no lock: an order written meanwhile keeps its
 * write, and the mark is made again on what it wrote.
 */
@Injectable()
export class OrdersOutbox implements OnModuleInit, OnApplicationShutdown {
  private readonly relay: OutboxRelay;

  constructor(
    @InjectModel(Order.name) orders: Model<Order>,
    bus: EventBus,
    config: OrdersConfig,
    @Inject(ROOT_LOGGER) private readonly logger: EventBusLogger,
  ) {
    this.relay = new OutboxRelay({
      model: orders,
      bus,
      logger: this.logger,
      intervalMs: config.OUTBOX_RELAY_MS,
    });
  }

  onModuleInit(): void {
    this.relay.start();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.relay.stop();
  }

  /**
   * Publishes the order's pending events now, without making the caller wait for the broker. `created`: the
   * entries of an order just inserted (published without reading the order back, see OutboxRelay.relay).
   */
  relaySoon(orderId: string, created?: OutboxEntry[]): void {
    this.relay
      .relay(orderId, created)
      .catch((err: Error) =>
        this.logger.warn({ orderId, err: err.message }, 'order events not published yet; the outbox sweep retries'),
      );
  }

  /** Publishes the order's pending events and waits for the broker; rejects while it is away. */
  relayNow(orderId: string): Promise<number> {
    return this.relay.relay(orderId);
  }
}
