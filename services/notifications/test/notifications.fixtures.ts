// The notifications suites run the real service in this process on the test servers (MongoDB-wire, Redis,
// RabbitMQ) with a real Mailpit, and publish what orders and identity would, on the suite's own namespace.
import { randomUUID } from 'node:crypto';
import { getModelToken } from '@nestjs/mongoose';
import type { OrderPlacedEvent, OrderStatusChangedEvent, OrderSummary } from '@shop/contracts';
import { EventBus, namespacedExchange } from '@shop/nest-common';
import { startTestService, type TestService } from '@shop/nest-common/testing';
import type { Model } from 'mongoose';
import { AppModule } from '../src/app.module';
import { SentMessage } from '../src/notifications/sent-message.schema';

export const PUBLIC_URL = 'https://shop.example';

export interface Notifications {
  service: TestService;
  /** A bus in the suite's namespace, to publish as orders and identity do. */
  bus: EventBus;
  sent: Model<SentMessage>;
  close(): Promise<void>;
}

const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined };

export async function startNotifications(smtpUrl: string, env: Record<string, string> = {}): Promise<Notifications> {
  const service = await startTestService('notifications', AppModule, {
    env: { SMTP_URL: smtpUrl, PUBLIC_URL, SMTP_TIMEOUT_MS: '3000', ...env },
  });
  const bus = new EventBus({
    url: service.config.RABBITMQ_URL,
    service: 'test',
    exchange: namespacedExchange(service.namespace),
    logger: quiet,
  });
  await bus.start();
  return {
    service,
    bus,
    sent: service.app.get<Model<SentMessage>>(getModelToken(SentMessage.name)),
    close: async () => {
      await bus.close();
      await service.close();
    },
  };
}

/** An address no other test uses: Mailpit is searched by recipient. */
export const uniqueAddress = (tag: string) => `${tag}.${randomUUID().slice(0, 8)}@example.com`;

export function orderSummary(email: string, overrides: Partial<OrderSummary> = {}): OrderSummary {
  return {
    customer: { name: 'Ada Buyer', email },
    lines: [
      { name: 'Chiefs Home Jersey', quantity: 2, price: 59.99, size: 'M', color: 'Red', sku: 'KC-JER-M-RED' },
      { name: 'Eagles Beanie', quantity: 1, price: 20, color: 'Green' },
    ],
    totalPrice: 139.98,
    shippingAddress: {
      firstName: 'Ada',
      lastName: 'Buyer',
      address: '1 Lambeau Way',
      city: 'Leeds',
      postalCode: 'LS1 4AP',
      country: 'United Kingdom',
      phone: '+44 113 496 0000',
    },
    placedAt: '2026-03-02T10:30:00.000Z',
    ...overrides,
  };
}

export function orderPlaced(email: string, summary: Partial<OrderSummary> | null = {}): OrderPlacedEvent {
  const orderId = randomUUID().replace(/-/g, '').slice(0, 24);
  return {
    orderId,
    checkoutId: randomUUID(),
    userId: 'u1',
    items: [{ productId: 'p1', quantity: 2, size: 'M', color: 'Red' }],
    ...(summary ? { summary: orderSummary(email, summary) } : {}),
  };
}

export function statusChanged(
  email: string,
  status: OrderStatusChangedEvent['status'],
  extra: Partial<OrderStatusChangedEvent> = {},
): OrderStatusChangedEvent {
  return {
    orderId: randomUUID().replace(/-/g, '').slice(0, 24),
    userId: 'u1',
    status,
    previousStatus: 'Processing',
    changedAt: '2026-03-05T09:00:00.000Z',
    customer: { name: 'Ada Buyer', email },
    ...extra,
  };
}
