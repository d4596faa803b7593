import { Injectable, OnModuleInit } from '@nestjs/common';
import { EVENTS, type SubscriberSubscribedEvent } from '@shop/contracts';
import { EventBus } from '@shop/nest-common';
import { WelcomeCodes } from './welcome-codes';

/**
 * The events checkout acts on (queue `<namespace>checkout.events`, shared by replicas): a newsletter subscription
 * (again) sends the address's welcome code. (`orders.order.placed` is not among them: checkout counts a discount
 * use itself when it places the order.)
 */
@Injectable()
export class DiscountEvents implements OnModuleInit {
  constructor(
    private readonly bus: EventBus,
    private readonly welcome: WelcomeCodes,
  ) {}

  async onModuleInit(): Promise<void> {
    await this.bus.subscribe(
      {
        [EVENTS.identity.subscriberSubscribed]: (event) =>
          this.welcome.issue(event.eventId, (event.data as Partial<SubscriberSubscribedEvent> | undefined)?.email),
      },
      // Counted its discount use once: checkout now counts it when it places the order (queues keep old bindings).
      { retired: [EVENTS.orders.orderPlaced] },
    );
  }
}
