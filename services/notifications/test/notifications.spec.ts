import { randomBytes, randomUUID } from 'node:crypto';
import { EVENTS } from '@shop/contracts';
import { namespacedExchange } from '@shop/nest-common';
import amqp from 'amqplib';
import { scrapeMetrics, waitFor } from '@shop/nest-common/testing';
import { sharedMailpit, messagesTo, waitForMail, type Mailpit } from './mailpit';
import {
  PUBLIC_URL,
  orderPlaced,
  startNotifications,
  statusChanged,
  uniqueAddress,
  type Notifications,
} from './notifications.fixtures';

jest.setTimeout(60_000);

/** HTML with the entities Handlebars writes in attribute values decoded (`=` is escaped as `&#x3D;`). */
const attributeText = (html: string) => html.replace(/&#x3D;/g, '=').replace(/&amp;/g, '&');

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('notifications: one email per event, read back from a real Mailpit', () => {
  let mailpit: Mailpit;
  let shop: Notifications;

  beforeAll(async () => {
    mailpit = await sharedMailpit();
    shop = await startNotifications(mailpit.smtpUrl);
  });
  afterAll(async () => {
    await shop?.close();
    await mailpit?.stop();
  });

  /** Publishes, waits until the service has handled it (processed), and gives SMTP a moment. */
  const publish = (type: string, data: unknown, eventId: string = randomUUID()) =>
    shop.bus.publish(type, data, { eventId });

  it('confirms an order: lines with size and colour, quantities, prices and total in £, address, delivery, link', async () => {
    const to = uniqueAddress('order');
    const order = orderPlaced(to);
    await publish(EVENTS.orders.orderPlaced, order);
    const mail = await waitForMail(mailpit, to);
    expect(mail.To).toEqual([{ Name: 'Ada Buyer', Address: to }]);
    expect(mail.From.Address).toBe('no-reply@gridiron.example');
    expect(mail.Subject).toBe(`Your order ${order.orderId} is confirmed`);
    for (const body of [mail.Text, mail.HTML]) {
      expect(body).toContain('Chiefs Home Jersey');
      expect(body).toMatch(/Size M · Colour Red/);
      expect(body).toContain('£59.99');
      expect(body).toContain('£119.98'); // 2 × £59.99
      expect(body).toContain('Eagles Beanie');
      expect(body).toContain('£139.98');
      expect(body).toContain('1 Lambeau Way');
      expect(body).toContain('Leeds LS1 4AP');
      expect(body).toContain('2 March 2026'); // placed
      expect(body).toContain('12 March 2026'); // + ESTIMATED_DELIVERY_DAYS (10)
      expect(body).toContain(`${PUBLIC_URL}/order/${order.orderId}`);
    }
    expect(mail.Text).toContain('2 × £59.99 = £119.98');
  });

  it.each([
    ['Shipped', 'is on its way', 'was shipped on 5 March 2026'],
    ['Delivered', 'has been delivered', 'was delivered on 5 March 2026'],
  ] as const)('tells the customer their order is %s', async (status, subject, text) => {
    const to = uniqueAddress(status.toLowerCase());
    const event = statusChanged(to, status);
    await publish(EVENTS.orders.orderStatusChanged, event);
    const mail = await waitForMail(mailpit, to);
    expect(mail.Subject).toBe(`Your order ${event.orderId} ${subject}`);
    expect(mail.Text).toContain(text);
    expect(mail.HTML).toContain(`${PUBLIC_URL}/order/${event.orderId}`);
  });

  it.each([
    ['Royal Mail', 'AB123456785GB', 'https://www.royalmail.com/track-your-item#/tracking-results/AB123456785GB'],
    ['DPD', '15501234567890', 'https://track.dpd.co.uk/parcels/15501234567890'],
    ['Evri', 'H00A1A0001234567', 'https://www.evri.com/track/parcel/H00A1A0001234567/details'],
    [
      'DHL',
      '1234567890',
      'https://www.dhl.com/gb-en/home/tracking/tracking-express.html?submit=1&tracking-id=1234567890',
    ],
    ['UPS', '1Z999AA10123456784', 'https://www.ups.com/track?loc=en_GB&tracknum=1Z999AA10123456784'],
  ] as const)('the shipping email links to %s’s tracking page for the parcel', async (carrier, number, url) => {
    const to = uniqueAddress(`shipped-${carrier.replace(' ', '').toLowerCase()}`);
    // The URL is built from the carrier and number: one sent in the event is not trusted.
    const tracking = { carrier, number, url: 'https://evil.example/phish' };
    await publish(EVENTS.orders.orderStatusChanged, statusChanged(to, 'Shipped', { tracking }));
    const mail = await waitForMail(mailpit, to);
    expect(mail.Text).toContain(`It is travelling with ${carrier}, tracking number ${number}.`);
    expect(mail.Text).toContain(`Track your parcel: ${url}`);
    expect(attributeText(mail.HTML)).toContain(`href="${url}"`);
    expect(mail.HTML).toContain(`Track your parcel with ${carrier}`);
    expect(mail.HTML).not.toContain('evil.example');
  });

  it('a shipping email without a parcel (or with a number not of its carrier) has no tracking link', async () => {
    const plain = uniqueAddress('shipped-plain');
    await publish(EVENTS.orders.orderStatusChanged, statusChanged(plain, 'Shipped'));
    const bad = uniqueAddress('shipped-bad');
    await publish(
      EVENTS.orders.orderStatusChanged,
      statusChanged(bad, 'Shipped', { tracking: { carrier: 'DHL', number: 'nope', url: 'https://evil.example' } }),
    );
    for (const to of [plain, bad]) {
      const mail = await waitForMail(mailpit, to);
      expect(mail.Text).not.toContain('Track your parcel');
      expect(mail.HTML).not.toContain('evil.example');
    }
  });

  it('tells of a cancellation with its refund, and of one without', async () => {
    const refunded = uniqueAddress('cancelled');
    await publish(
      EVENTS.orders.orderStatusChanged,
      statusChanged(refunded, 'Cancelled', { refund: { amount: 139.98, currency: 'GBP' } }),
    );
    const mail = await waitForMail(mailpit, refunded);
    expect(mail.Subject).toMatch(/has been cancelled$/);
    expect(mail.Text).toContain('We have refunded £139.98');
    expect(mail.HTML).toContain('£139.98');

    const unpaid = uniqueAddress('cancelled-unpaid');
    await publish(EVENTS.orders.orderStatusChanged, statusChanged(unpaid, 'Cancelled'));
    const plain = await waitForMail(mailpit, unpaid);
    expect(plain.Text).not.toContain('refunded');
  });

  it('tells of each step of a return: requested, approved with the note, rejected, refunded with the amount; nothing for received', async () => {
    const returnEvent = (to: string, status: string, extra: object = {}) => ({
      orderId: '65f000000000000000000042',
      returnId: '65f000000000000000000043',
      checkoutId: '65f000000000000000000044',
      userId: '65f000000000000000000045',
      status,
      changedAt: '2026-03-05T10:00:00.000Z',
      customer: { name: 'Ada Buyer', email: to },
      lines: [
        { productId: '65f000000000000000000046', name: 'Chiefs Home Jersey', quantity: 1, size: 'M', color: 'Red' },
      ],
      amount: 53.99,
      ...extra,
    });
    const cases = [
      [
        'Requested',
        {},
        'We have your return request for order 65f000000000000000000042',
        'Refund once received: £53.99',
      ],
      [
        'Approved',
        { note: 'Post it within 14 days' },
        'Your return for order 65f000000000000000000042 is approved',
        'Note from our team: Post it within 14 days',
      ],
      [
        'Rejected',
        { note: 'Worn items cannot be returned' },
        'Your return for order 65f000000000000000000042 was not accepted',
        'Worn items cannot be returned',
      ],
      [
        'Refunded',
        { refund: { amount: 53.99, currency: 'GBP' } },
        'Your refund for order 65f000000000000000000042 is on its way',
        'Refunded: £53.99',
      ],
    ] as const;
    for (const [status, extra, subject, text] of cases) {
      const to = uniqueAddress(`return-${status.toLowerCase()}`);
      await publish(EVENTS.orders.returnStatusChanged, returnEvent(to, status, extra));
      const mail = await waitForMail(mailpit, to);
      expect(mail.Subject).toBe(subject);
      expect(mail.Text).toContain(text);
      expect(mail.Text).toContain('Chiefs Home Jersey (Size M · Colour Red) × 1');
      expect(mail.HTML).toContain(`${PUBLIC_URL}/order/65f000000000000000000042`);
    }
    const received = uniqueAddress('return-received');
    const event = await publish(EVENTS.orders.returnStatusChanged, returnEvent(received, 'Received'));
    await waitFor('the event handled', () =>
      shop.service.logs.some((l) => l.eventId === event.eventId && l.msg === 'event handled'),
    );
    await sleep(300);
    expect(await messagesTo(mailpit, received)).toEqual([]);
  });

  it('sends nothing for a change back to Processing', async () => {
    const to = uniqueAddress('processing');
    const event = await publish(
      EVENTS.orders.orderStatusChanged,
      statusChanged(to, 'Processing', { previousStatus: 'Shipped' }),
    );
    await waitFor('the event handled', () =>
      shop.service.logs.some((l) => l.eventId === event.eventId && l.msg === 'event handled'),
    );
    await sleep(300);
    expect(await messagesTo(mailpit, to)).toEqual([]);
  });

  it('welcomes a new user', async () => {
    const to = uniqueAddress('welcome');
    await publish(EVENTS.identity.userRegistered, { userId: 'u9', name: 'Jalen Hurts', email: to });
    const mail = await waitForMail(mailpit, to);
    expect(mail.Subject).toBe('Welcome to Gridiron Store, Jalen Hurts');
    expect(mail.Text).toContain(`account for ${to} is ready`);
  });

  it('sends the password reset link, valid 30 minutes, and never stores or logs the token', async () => {
    const to = uniqueAddress('reset');
    const token = randomBytes(32).toString('base64url');
    const occurredAt = new Date();
    const expiresAt = new Date(occurredAt.getTime() + 30 * 60_000).toISOString();
    const event = await shop.bus.publish(
      EVENTS.identity.passwordResetRequested,
      { userId: 'u7', name: 'Patrick', email: to, token, expiresAt },
      { occurredAt },
    );
    const mail = await waitForMail(mailpit, to);
    expect(mail.Subject).toBe('Reset your Gridiron Store password');
    expect(mail.Text).toContain(`${PUBLIC_URL}/reset-password?token=${token}`);
    expect(mail.Text).toContain('for 30 minutes');
    expect(attributeText(mail.HTML)).toContain(`href="${PUBLIC_URL}/reset-password?token=${token}"`);
    const stored = await shop.sent.find({ eventId: event.eventId }).lean();
    expect(stored).toHaveLength(1);
    expect(JSON.stringify(stored)).not.toContain(token);
    expect(JSON.stringify(shop.service.logs)).not.toContain(token);
  });

  it('sends no reset link that expired before it could be sent', async () => {
    const to = uniqueAddress('reset-expired');
    const event = await publish(EVENTS.identity.passwordResetRequested, {
      ...{ userId: 'u7', name: 'Patrick', email: to, token: randomBytes(32).toString('base64url') },
      expiresAt: new Date(Date.now() - 1000).toISOString(),
    });
    await waitFor('the event handled', () =>
      shop.service.logs.some((l) => l.eventId === event.eventId && l.msg === 'event handled'),
    );
    expect(await messagesTo(mailpit, to)).toEqual([]);
  });

  it('confirms a newsletter subscription with the welcome code checkout issued, once per issue', async () => {
    const to = uniqueAddress('newsletter');
    const issued = { email: to, code: 'WELCOME-7KQ2M9', percentOff: 10, usable: true };
    await publish(EVENTS.checkout.welcomeCodeIssued, issued, `checkout.welcome-code.issued:s1-${to}`);
    const mail = await waitForMail(mailpit, to);
    expect(mail.Subject).toBe('You are on the Gridiron Store newsletter');
    expect(mail.Text).toContain('10% off your first order with this code at checkout: WELCOME-7KQ2M9');
    expect(mail.HTML).toContain('WELCOME-7KQ2M9');
    // Subscribing again: checkout sends the same code again, and so does the email.
    await publish(EVENTS.checkout.welcomeCodeIssued, issued, `checkout.welcome-code.issued:s2-${to}`);
    await waitFor('the second email', async () => (await messagesTo(mailpit, to)).length === 2);

    const used = uniqueAddress('newsletter-used');
    await publish(EVENTS.checkout.welcomeCodeIssued, { ...issued, email: used, usable: false });
    const plain = await waitForMail(mailpit, used);
    expect(plain.Text).not.toMatch(/WELCOME-|% off/i);
  });

  it('sends nothing for identity.subscriber.subscribed itself: one subscription, one email (checkout’s)', async () => {
    const to = uniqueAddress('subscribed');
    const event = await publish(EVENTS.identity.subscriberSubscribed, { email: to });
    await sleep(500);
    expect(shop.service.logs.some((l) => l.eventId === event.eventId)).toBe(false);
    expect(await messagesTo(mailpit, to)).toEqual([]);
  });

  it('shows the discount line on the confirmation of an order placed with a code', async () => {
    const to = uniqueAddress('order-discount');
    const order = orderPlaced(to);
    order.summary = {
      ...order.summary!,
      subtotal: order.summary!.totalPrice,
      discount: { code: 'KICKOFF10', amount: 14 },
    };
    order.summary.totalPrice -= 14;
    await publish(EVENTS.orders.orderPlaced, order);
    const mail = await waitForMail(mailpit, to);
    expect(mail.Text).toContain('Discount (KICKOFF10): −£14.00');
    expect(mail.HTML).toContain('KICKOFF10');
  });

  it('sends one email for an event delivered twice, and for one replayed after its processed-event record was lost', async () => {
    const to = uniqueAddress('twice');
    const order = orderPlaced(to);
    const eventId = `orders.order.placed:${order.checkoutId}`;
    await Promise.all([
      publish(EVENTS.orders.orderPlaced, order, eventId),
      publish(EVENTS.orders.orderPlaced, order, eventId),
    ]);
    const first = await waitForMail(mailpit, to);
    expect(first.MessageID).toMatch(/^order-confirmation\.[0-9a-f]{32}@gridiron\.example$/);
    // Both deliveries reach the handler (no inbox): the sent-message record sends once.
    const done = ['event handled', 'event already processed: acked without running the handler'];
    await waitFor(
      'both deliveries handled',
      () => shop.service.logs.filter((l) => l.eventId === eventId && done.includes(String(l.msg))).length === 2,
    );
    // The record says `sent` just after SMTP accepted the mail, so possibly after Mailpit shows it.
    await waitFor('the send recorded', async () => (await shop.sent.countDocuments({ eventId, state: 'sent' })) === 1);
    await publish(EVENTS.orders.orderPlaced, order, eventId); // replayed later (the outbox again, a redelivery)
    await waitFor('the replay handled', () =>
      shop.service.logs.some(
        (l) => l.eventId === eventId && l.msg === 'email already sent for this event: not sent again',
      ),
    );
    await sleep(300);
    expect(await messagesTo(mailpit, to)).toHaveLength(1);
  });

  it('takes over a send its consumer abandoned mid-way (a stale claim), with the same Message-ID', async () => {
    const to = uniqueAddress('abandoned');
    const order = orderPlaced(to);
    const eventId = randomUUID();
    await shop.sent.create({
      ...{ eventId, kind: 'order-confirmation', eventType: EVENTS.orders.orderPlaced, to, subject: 's' },
      ...{ messageId: '<x@y>', state: 'sending', claimedAt: new Date(Date.now() - 10 * 60_000) },
    });
    await publish(EVENTS.orders.orderPlaced, order, eventId);
    const mail = await waitForMail(mailpit, to);
    expect(mail.MessageID).toMatch(/^order-confirmation\./);
    // The record says `sent` just after SMTP accepted the mail, so possibly after Mailpit shows it.
    await waitFor('the send recorded', async () => (await shop.sent.countDocuments({ eventId, state: 'sent' })) === 1);
  });

  // An order whose summary has no email asks identity for it first: buyer-email.spec.ts.
  it('acknowledges an order without summary, and a malformed event, with a log: no email, no retry', async () => {
    const to = uniqueAddress('nosummary');
    const events = [
      await publish(EVENTS.orders.orderPlaced, orderPlaced(to, null)),
      await publish(EVENTS.identity.userRegistered, { userId: 'u1', email: 42 }),
      await publish(EVENTS.orders.orderStatusChanged, 'not an object'),
    ];
    for (const e of events)
      await waitFor(`${e.type} skipped`, () =>
        shop.service.logs.some((l) => l.eventId === e.eventId && l.msg === 'event acknowledged without an email'),
      );
    expect(await messagesTo(mailpit, to)).toEqual([]);
    const retried = shop.service.logs.filter(
      (l) => events.some((e) => e.eventId === l.eventId) && typeof l.attempt === 'number' && l.attempt > 1,
    );
    expect(retried).toEqual([]);
  });

  it('dead-letters a message that is not an event, and goes on sending', async () => {
    const dlq = `${shop.service.namespace}notifications.events.dlq`;
    const connection = await amqp.connect(shop.service.config.RABBITMQ_URL);
    try {
      const channel = await connection.createConfirmChannel();
      channel.publish(namespacedExchange(shop.service.namespace), EVENTS.orders.orderPlaced, Buffer.from('{not json'));
      await channel.waitForConfirms();
      await waitFor('the DLQ holds it', async () => (await channel.checkQueue(dlq)).messageCount === 1);
      await channel.close();
    } finally {
      await connection.close();
    }
    const to = uniqueAddress('after-dlq');
    await publish(EVENTS.identity.userRegistered, { userId: 'u2', name: 'Still Here', email: to });
    expect((await waitForMail(mailpit, to)).Subject).toContain('Still Here');
  });

  it('counts emails by kind and outcome', async () => {
    const metrics = await scrapeMetrics(`${shop.service.url}/metrics`);
    expect(
      metrics.sum('shop_notifications_emails_total', { kind: 'order-confirmation', outcome: 'sent' }),
    ).toBeGreaterThanOrEqual(2);
    expect(
      metrics.sum('shop_notifications_emails_total', { kind: 'order-confirmation', outcome: 'duplicate' }),
    ).toBeGreaterThanOrEqual(1);
    expect(metrics.sum('shop_notifications_events_skipped_total')).toBeGreaterThanOrEqual(4);
  });

  it('serves /health and /ready, and no /api route', async () => {
    expect((await fetch(`${shop.service.url}/health`)).status).toBe(200);
    expect((await fetch(`${shop.service.url}/ready`)).status).toBe(200);
    expect((await fetch(`${shop.service.url}/api/notifications`)).status).toBe(404);
  });
});
