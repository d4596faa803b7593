import { EVENTS } from '@shop/contracts';
import { portOutsideEphemeralRange, scrapeMetrics, waitFor } from '@shop/nest-common/testing';
import { messagesTo, startMailpit, waitForMail, type Mailpit } from './mailpit';
import { startNotifications, uniqueAddress, type Notifications } from './notifications.fixtures';

jest.setTimeout(60_000);

describe('notifications while the SMTP server is down', () => {
  let shop: Notifications;
  let mailpit: Mailpit | undefined;
  let smtpPort: number;

  beforeAll(async () => {
    smtpPort = await portOutsideEphemeralRange(); // nothing listens there yet, nor can be given it meanwhile
    shop = await startNotifications(`smtp://127.0.0.1:${smtpPort}`);
  });
  afterAll(async () => {
    await shop?.close();
    await mailpit?.stop();
  });

  it('keeps the email (retried by the bus with backoff) and sends it once the server is back', async () => {
    const to = uniqueAddress('outage');
    const event = await shop.bus.publish(EVENTS.identity.userRegistered, {
      userId: 'u3',
      name: 'Down Time',
      email: to,
    });
    await waitFor(
      'a failed send, to be retried',
      () =>
        shop.service.logs.some(
          (l) => l.eventId === event.eventId && String(l.msg).startsWith('event handler failed: retry'),
        ),
      15_000,
    );
    // nothing half-done: the claim of the failed send was given back
    expect(await shop.sent.countDocuments({ eventId: event.eventId })).toBe(0);

    mailpit = await startMailpit(smtpPort);
    const mail = await waitForMail(mailpit, to, 30_000);
    expect(mail.Subject).toBe('Welcome to Gridiron Store, Down Time');
    await waitFor(
      'recorded as sent',
      async () => (await shop.sent.countDocuments({ eventId: event.eventId, state: 'sent' })) === 1,
    );
    expect(await messagesTo(mailpit, to)).toHaveLength(1);

    const metrics = await scrapeMetrics(`${shop.service.url}/metrics`);
    expect(
      metrics.sum('shop_notifications_emails_total', { kind: 'welcome', outcome: 'failed' }),
    ).toBeGreaterThanOrEqual(1);
    expect(metrics.sum('shop_notifications_emails_total', { kind: 'welcome', outcome: 'sent' })).toBe(1);
    expect(metrics.sum('shop_events_retried_total')).toBeGreaterThanOrEqual(1);
  });
});

describe('notifications while the SMTP server is away for longer than other consumers retry', () => {
  let shop: Notifications;
  let mailpit: Mailpit | undefined;
  let smtpPort: number;
  const RETRY_MS = 250; // the schedule shrunk 20 times: 5 s between runs in production

  beforeAll(async () => {
    smtpPort = await portOutsideEphemeralRange();
    shop = await startNotifications(`smtp://127.0.0.1:${smtpPort}`, { EVENT_RETRY_DELAY_MS: String(RETRY_MS) });
  });
  afterAll(async () => {
    await shop?.close();
    await mailpit?.stop();
  });

  it('keeps retrying an email through an outage of 8 retry periods (the chaos run’s 30 s restart), never dead-letters it', async () => {
    const to = uniqueAddress('long-outage');
    const event = await shop.bus.publish(EVENTS.identity.userRegistered, {
      userId: 'u4',
      name: 'Long Outage',
      email: to,
    });
    // 8 periods: past the 5 runs (4 retries) every other consumer gets before an event is dead-lettered
    await new Promise((resolve) => setTimeout(resolve, 8 * RETRY_MS));
    mailpit = await startMailpit(smtpPort);
    const back = Date.now();
    const mail = await waitForMail(mailpit, to, 15_000);
    expect(mail.Subject).toBe('Welcome to Gridiron Store, Long Outage');
    expect(Date.now() - back).toBeLessThan(10 * RETRY_MS); // sent by one of the next retries, not a later replay
    const metrics = await scrapeMetrics(`${shop.service.url}/metrics`);
    expect(metrics.sum('shop_events_dead_lettered_total')).toBe(0);
    expect(shop.service.logs.filter((l) => l.eventId === event.eventId && /dead-letter/i.test(String(l.msg)))).toEqual(
      [],
    );
  });
});

describe('notifications started while the mail server is still being built (npm start: EVENT_MAX_ATTEMPTS 360)', () => {
  let shop: Notifications;
  let mailpit: Mailpit | undefined;
  let smtpPort: number;
  const RETRY_MS = 50; // 5 s between runs in npm start: 360 runs are its 30 minutes

  beforeAll(async () => {
    smtpPort = await portOutsideEphemeralRange();
    shop = await startNotifications(`smtp://127.0.0.1:${smtpPort}`, {
      EVENT_RETRY_DELAY_MS: String(RETRY_MS),
      EVENT_MAX_ATTEMPTS: '360',
    });
  });
  afterAll(async () => {
    await shop?.close();
    await mailpit?.stop();
  });

  it('keeps the first email past the 36 runs of its default and sends it once the server is up', async () => {
    const to = uniqueAddress('first-of-the-day');
    const event = await shop.bus.publish(EVENTS.identity.userRegistered, {
      userId: 'u5',
      name: 'Early Bird',
      email: to,
    });
    const retries = () =>
      shop.service.logs.filter(
        (l) => l.eventId === event.eventId && String(l.msg).startsWith('event handler failed: retry'),
      );
    await waitFor(
      '40 runs, past the default 36',
      () => retries().some((l) => /retry 40\/360 /.test(String(l.msg))),
      30_000,
    );
    mailpit = await startMailpit(smtpPort);
    const mail = await waitForMail(mailpit, to, 15_000);
    expect(mail.Subject).toBe('Welcome to Gridiron Store, Early Bird');
    const metrics = await scrapeMetrics(`${shop.service.url}/metrics`);
    expect(metrics.sum('shop_events_dead_lettered_total')).toBe(0);
  });
});
