// An order event that came without the buyer's email (checkout could not ask identity when the checkout was made:
// seen in the chaos run, scripts/bench/chaos.mjs) is still confirmed by email: notifications asks identity, here a
// responder on the suite's own request queue answering as identity does.
import { randomUUID } from 'node:crypto';
import { EVENTS, PATTERNS, RPC_QUEUE_OPTIONS } from '@shop/contracts';
import { namespacedQueue } from '@shop/nest-common';
import { waitFor } from '@shop/nest-common/testing';
import amqp from 'amqplib';
import { sharedMailpit, waitForMail, messagesTo, type Mailpit } from './mailpit';
import {
  orderPlaced,
  startNotifications,
  statusChanged,
  uniqueAddress,
  type Notifications,
} from './notifications.fixtures';

jest.setTimeout(60_000);

/** Answers identity.users.find from `users` (by id), as identity's request queue does. */
async function identityResponder(url: string, queue: string, users: Map<string, { name: string; email: string }>) {
  const connection = await amqp.connect(url);
  const channel = await connection.createChannel();
  await channel.assertQueue(queue, RPC_QUEUE_OPTIONS);
  const asked: string[] = [];
  await channel.consume(queue, (msg) => {
    if (!msg) return;
    const { pattern, data, id } = JSON.parse(msg.content.toString()) as {
      pattern: string;
      data: { userId: string };
      id: string;
    };
    asked.push(`${pattern} ${data.userId}`);
    const user = pattern === PATTERNS.identity.findUser ? users.get(data.userId) : undefined;
    const response = user ? { _id: data.userId, role: 'customer', ...user } : null;
    channel.sendToQueue(msg.properties.replyTo, Buffer.from(JSON.stringify({ response, isDisposed: true, id })), {
      correlationId: msg.properties.correlationId,
    });
    channel.ack(msg);
  });
  return { asked, close: () => connection.close() };
}

describe('notifications: an order event without the buyer’s email', () => {
  let mailpit: Mailpit;
  let shop: Notifications;
  let identity: Awaited<ReturnType<typeof identityResponder>>;
  const users = new Map<string, { name: string; email: string }>();

  beforeAll(async () => {
    mailpit = await sharedMailpit();
    shop = await startNotifications(mailpit.smtpUrl);
    identity = await identityResponder(
      shop.service.config.RABBITMQ_URL,
      namespacedQueue(shop.service.namespace, 'identity'),
      users,
    );
  });
  afterAll(async () => {
    await identity?.close();
    await shop?.close();
    await mailpit?.stop();
  });

  it('confirms the order to the address identity knows for its buyer', async () => {
    const to = uniqueAddress('no-email');
    const userId = randomUUID().replace(/-/g, '').slice(0, 24);
    users.set(userId, { name: 'Ada Buyer', email: to });
    const order = { ...orderPlaced(to), userId };
    delete (order.summary!.customer as { email?: string }).email; // as checkout sent it when identity was away
    await shop.bus.publish(EVENTS.orders.orderPlaced, order, { eventId: randomUUID() });
    const mail = await waitForMail(mailpit, to);
    expect(mail.Subject).toBe(`Your order ${order.orderId} is confirmed`);
    expect(identity.asked).toContain(`${PATTERNS.identity.findUser} ${userId}`);
  });

  it('tells of a cancellation to that address too, and sends nothing for a buyer identity does not know', async () => {
    const to = uniqueAddress('no-email-cancel');
    const userId = randomUUID().replace(/-/g, '').slice(0, 24);
    users.set(userId, { name: 'Ada Buyer', email: to });
    const event = { ...statusChanged(to, 'Cancelled'), userId, customer: { name: 'Ada Buyer' } };
    await shop.bus.publish(EVENTS.orders.orderStatusChanged, event, { eventId: randomUUID() });
    const mail = await waitForMail(mailpit, to);
    expect(mail.Subject).toBe(`Your order ${event.orderId} has been cancelled`);

    // a buyer identity does not know (deleted): acknowledged without an email, with a log, never retried
    const unknown = { ...orderPlaced(uniqueAddress('gone')), userId: 'nobody' };
    delete (unknown.summary!.customer as { email?: string }).email;
    const published = await shop.bus.publish(EVENTS.orders.orderPlaced, unknown, { eventId: randomUUID() });
    await waitFor('the order acknowledged without an email', () =>
      shop.service.logs.some((l) => l.eventId === published.eventId && l.msg === 'event acknowledged without an email'),
    );
    expect(identity.asked).toContain(`${PATTERNS.identity.findUser} nobody`);
    expect(shop.service.logs.filter((l) => l.eventId === published.eventId && Number(l.attempt) > 1)).toEqual([]);
    expect(await messagesTo(mailpit, to)).toHaveLength(1);
  });
});
