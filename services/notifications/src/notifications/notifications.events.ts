import { Inject, Injectable, OnModuleInit } from '@nestjs/common';
import { EVENTS, PATTERNS, type EventEnvelope, type PublicUser } from '@shop/contracts';
import { EventBus, RpcClient } from '@shop/nest-common';
import {
  backInStock,
  newsletterConfirmation,
  orderConfirmation,
  orderStatusChanged,
  passwordReset,
  returnStatusChanged,
  welcome,
  type Composed,
  type ComposeSettings,
} from './messages';
import { NotificationsService } from './notifications.service';

/** Which email each event causes (messages.ts says how). */
export const EMAIL_OF_EVENT: Record<string, (event: EventEnvelope, s: ComposeSettings) => Composed> = {
  [EVENTS.orders.orderPlaced]: orderConfirmation,
  [EVENTS.orders.orderStatusChanged]: orderStatusChanged,
  [EVENTS.orders.returnStatusChanged]: returnStatusChanged,
  [EVENTS.identity.userRegistered]: welcome,
  [EVENTS.identity.passwordResetRequested]: passwordReset,
  // Not identity.subscriber.subscribed: checkout answers each with the welcome code, and one subscription is one email.
  [EVENTS.checkout.welcomeCodeIssued]: newsletterConfirmation,
  [EVENTS.catalog.stockAlertTriggered]: backInStock,
};

export const IDENTITY = Symbol('identity RpcClient');

type Customer = { name?: string; email?: string };
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;

/**
 * Where an order event keeps its buyer: the placed event in its summary, a status change at the top. Undefined for
 * other events, and for order events stored before they carried one.
 */
function customerOf(
  event: EventEnvelope,
): { customer: Customer; userId: string; with: (c: Customer) => EventEnvelope } | undefined {
  const data = event.data;
  if (!isObject(data) || typeof data.userId !== 'string') return undefined;
  if (event.type === EVENTS.orders.orderPlaced && isObject(data.summary)) {
    const summary = data.summary;
    return {
      customer: isObject(summary.customer) ? (summary.customer as Customer) : {},
      userId: data.userId,
      with: (customer) => ({ ...event, data: { ...data, summary: { ...summary, customer } } }),
    };
  }
  if (event.type === EVENTS.orders.orderStatusChanged || event.type === EVENTS.orders.returnStatusChanged)
    return {
      customer: isObject(data.customer) ? (data.customer as Customer) : {},
      userId: data.userId,
      with: (customer) => ({ ...event, data: { ...data, customer } }),
    };
  return undefined;
}

/**
 * The service's one durable queue (`<namespace>notifications.events`, replicas share it): every event above, each
 * email sent once by its sent-messages claim (unique on event id and kind), so no inbox on top: it would dedupe by
 * the same event id. A handler that throws (SMTP down) is retried with backoff and finally dead-lettered, like every
 * consumer's.
 */
@Injectable()
export class NotificationsEvents implements OnModuleInit {
  constructor(
    private readonly bus: EventBus,
    private readonly notifications: NotificationsService,
    @Inject(IDENTITY) private readonly identity: RpcClient,
  ) {}

  /**
   * An order event without the buyer's email gets it from identity, by the order's user id: the order was placed
   * while checkout could not ask identity (a replica gone, the broker failing over), and its buyer is still owed the
   * email. Identity unavailable: this throws and the bus retries (then dead-letters). A user identity does not know
   * (deleted): the event as it is (acknowledged without an email, as before).
   */
  async withCustomerEmail(event: EventEnvelope): Promise<EventEnvelope> {
    const found = customerOf(event);
    if (!found || found.customer.email) return event;
    const user = await this.identity.send<PublicUser | null>(PATTERNS.identity.findUser, { userId: found.userId });
    if (!user?.email) return event;
    return found.with({ ...found.customer, name: found.customer.name || user.name, email: user.email });
  }

  async onModuleInit(): Promise<void> {
    await this.bus.subscribe(
      Object.fromEntries(
        Object.entries(EMAIL_OF_EVENT).map(([type, compose]) => [
          type,
          async (event: EventEnvelope) => {
            await this.notifications.handle(await this.withCustomerEmail(event), compose);
          },
        ]),
      ),
      { inbox: false },
    );
  }
}
