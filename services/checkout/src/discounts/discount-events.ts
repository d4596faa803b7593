import { Injectable, OnModuleInit } from '@nestjs/common';
import { EVENTS, type OrderPlacedEvent, type SubscriberSubscribedEvent } from '@shop/contracts';
import { EventBus } from '@shop/nest-common';
import { CheckoutsService } from '../checkouts/checkouts.service';
import { WelcomeCodes } from './welcome-codes';

/**
 * The events checkout acts on (queue `<namespace>checkout.events`, shared by replicas): an order placed counts its
 * discount code's use (once per checkout), a newsletter subscription (again) sends the address's welcome code.
 */
@Injectable()
export class DiscountEvents implements OnModuleInit {
  constructor(
    private readonly bus: EventBus,
    private readonly checkouts: CheckoutsService,
    private readonly welcome: WelcomeCodes,
  ) {}

  async onModuleInit(): Promise<void> {
    await this.bus.subscribe({
      [EVENTS.orders.orderPlaced]: async (event) => {
        const { checkoutId, orderId, summary } = (event.data ?? {}) as Partial<OrderPlacedEvent>;
        // An order whose summary names no discount has no use to count (an event from before summaries: look).
        const discounted = summary ? !!summary.discount : true;
        if (typeof checkoutId === 'string' && typeof orderId === 'string')
          await this.checkouts.orderPlaced(checkoutId, orderId, discounted);
      },
      [EVENTS.identity.subscriberSubscribed]: (event) =>
        this.welcome.issue(event.eventId, (event.data as Partial<SubscriberSubscribedEvent> | undefined)?.email),
    });
  }
}
