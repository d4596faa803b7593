import { Injectable, OnModuleInit } from '@nestjs/common';
import { EVENTS, type EventEnvelope } from '@shop/contracts';
import { EventBus } from '@shop/nest-common';
import {
  newsletterConfirmation,
  orderConfirmation,
  orderStatusChanged,
  passwordReset,
  welcome,
  type Composed,
  type ComposeSettings,
} from './messages';
import { NotificationsService } from './notifications.service';

/** Which email each event causes (messages.ts says how). */
export const EMAIL_OF_EVENT: Record<string, (event: EventEnvelope, s: ComposeSettings) => Composed> = {
  [EVENTS.orders.orderPlaced]: orderConfirmation,
  [EVENTS.orders.orderStatusChanged]: orderStatusChanged,
  [EVENTS.identity.userRegistered]: welcome,
  [EVENTS.identity.passwordResetRequested]: passwordReset,
  [EVENTS.identity.subscriberSubscribed]: newsletterConfirmation,
};

/**
 * The service's one durable queue (`<namespace>notifications.events`, replicas share it): every event above, each
 * handled once (the bus's processed-events dedupe, then the sent-messages claim). A handler that throws (SMTP down)
 * is retried with backoff and finally dead-lettered, like every consumer's.
 */
@Injectable()
export class NotificationsEvents implements OnModuleInit {
  constructor(
    private readonly bus: EventBus,
    private readonly notifications: NotificationsService,
  ) {}

  async onModuleInit(): Promise<void> {
    await this.bus.subscribe(
      Object.fromEntries(
        Object.entries(EMAIL_OF_EVENT).map(([type, compose]) => [
          type,
          async (event: EventEnvelope) => {
            await this.notifications.handle(event, compose);
          },
        ]),
      ),
    );
  }
}
