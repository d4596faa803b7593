// Back-in-stock emails end to end on the real servers: catalog (which keeps the requests and sees its stock come
// back) and notifications (which sends them) in one RabbitMQ namespace, with a real Mailpit read by recipient. Three
// requests for one size and colour and one for another: restocking only the first sends exactly one email to each of
// the three and none to the fourth; replayed events send nothing more; the email links to the product with that size
// and colour chosen; its unsubscribe link stops the address's other requests without signing in.
import { randomUUID } from 'node:crypto';
import { getModelToken } from '@nestjs/mongoose';
import {
  EVENTS,
  STOCK_ALERT_MESSAGES,
  STOCK_ALERT_TTL_DAYS,
  type ProductJson,
  type StockAlertTriggeredEvent,
} from '@shop/contracts';
import { EventBus, namespacedExchange } from '@shop/nest-common';
import { request, startTestService, type TestService } from '@shop/nest-common/testing';
import type { Model } from 'mongoose';
// notifications is another service: its AppModule is started here as a real process would run it
import { AppModule as NotificationsAppModule } from '../../notifications/src/app.module';
import { messagesTo, readMessage, sharedMailpit, type Mailpit } from '../../notifications/test/mailpit';
import { stockAlertEventId, StockAlertsService } from '../src/stock-alerts/stock-alerts.service';
import { adminToken, eventually, newProductBody, quietLogger, sleep, startCatalog } from './catalog.fixtures';

jest.setTimeout(90_000);

const PUBLIC_URL = 'https://shop.example';

interface StoredAlert {
  _id: unknown;
  email: string;
  size: string;
  color: string;
  state: string;
  key: string;
  expiresAt: Date;
  publishedAt?: Date;
  triggeredAt?: Date;
}

describe('back-in-stock emails', () => {
  let catalog: TestService;
  let notifications: TestService;
  let mailpit: Mailpit;
  let bus: EventBus;
  let admin: string;
  let alerts: Model<StoredAlert>;
  let product: ProductJson;

  beforeAll(async () => {
    mailpit = await sharedMailpit();
    catalog = await startCatalog({ STOCK_ALERTS_PER_HOUR: '4', STOCK_ALERT_SWEEP_MS: '3600000' });
    notifications = await startTestService('notifications', NotificationsAppModule, {
      namespace: catalog.namespace,
      env: { SMTP_URL: mailpit.smtpUrl, PUBLIC_URL, SMTP_TIMEOUT_MS: '3000' },
    });
    bus = new EventBus({
      url: catalog.config.RABBITMQ_URL,
      service: 'test',
      exchange: namespacedExchange(catalog.namespace),
      logger: quietLogger,
    });
    await bus.start();
    admin = adminToken(catalog);
    alerts = catalog.app.get<Model<StoredAlert>>(getModelToken('StockAlert'));
    const created = await request<ProductJson>(`${catalog.url}/api/admin/products`, {
      token: admin,
      body: newProductBody({
        name: 'Ravens Away Hoodie',
        sku: `RAV-${randomUUID().slice(0, 6)}`,
        sizes: ['S', 'M', 'L'],
        colors: ['Purple', 'Black'],
        variants: [{ size: 'S', color: 'Purple', countInStock: 3 }],
      }),
    });
    expect(created.status).toBe(201);
    product = created.body;
  });
  afterAll(async () => {
    await bus?.close();
    await notifications?.close();
    await catalog?.close();
    await mailpit?.stop();
  });

  const ask = (body: Record<string, unknown>, token?: string) =>
    request<{ message: string }>(`${catalog.url}/api/stock-alerts`, {
      body: { productId: product._id, ...body },
      token,
    });
  const restock = async (cells: Record<string, number>) => {
    const current = (await request<ProductJson>(`${catalog.url}/api/admin/products/${product._id}`, { token: admin }))
      .body;
    const variants = current.variants.map((v) => ({
      size: v.size,
      color: v.color,
      sku: v.sku,
      countInStock: cells[`${v.size}/${v.color}`] ?? v.countInStock,
    }));
    const res = await request(`${catalog.url}/api/admin/products/${product._id}`, {
      method: 'PUT',
      token: admin,
      body: { variants },
    });
    expect(res.status).toBe(200);
  };
  const address = (tag: string) => `${tag}.${randomUUID().slice(0, 8)}@example.com`;
  const mailsTo = (email: string) => messagesTo(mailpit, email);

  const a = address('ann');
  const b = address('bob');
  const c = address('cat');
  const d = address('dan');

  it('takes a request for a sold-out size and colour, with the same answer whether or not it exists already', async () => {
    for (const email of [a, b, c]) {
      const res = await ask({ size: 'M', color: 'Purple', email });
      expect(res).toMatchObject({ status: 202, body: { message: STOCK_ALERT_MESSAGES.accepted } });
    }
    const again = await ask({ size: 'M', color: 'Purple', email: a.toUpperCase() });
    expect(again).toMatchObject({ status: 202, body: { message: STOCK_ALERT_MESSAGES.accepted } });
    expect((await ask({ size: 'L', color: 'Black', email: d })).status).toBe(202);
    expect((await ask({ size: 'S', color: 'Black', email: a })).status).toBe(202); // for the unsubscribe below
    const stored = await alerts
      .find({ email: { $in: [a, b, c, d] } })
      .lean()
      .exec();
    expect(stored.map((s) => `${s.email}:${s.size}/${s.color}:${s.state}`).sort()).toEqual(
      [
        `${a}:M/Purple:waiting`,
        `${a}:S/Black:waiting`,
        `${b}:M/Purple:waiting`,
        `${c}:M/Purple:waiting`,
        `${d}:L/Black:waiting`,
      ].sort(),
    );
    // they lapse after 90 days
    const days = (stored[0].expiresAt.getTime() - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(STOCK_ALERT_TTL_DAYS - 0.01);
    expect(days).toBeLessThanOrEqual(STOCK_ALERT_TTL_DAYS);
  });

  it('refuses what it cannot take, each with a message: 4xx, never 5xx', async () => {
    const cases: Array<[Record<string, unknown>, number, string]> = [
      [{ size: 'S', color: 'Purple', email: address('x') }, 409, STOCK_ALERT_MESSAGES.inStock],
      [{ size: 'XXL', color: 'Purple', email: address('x') }, 400, 'Size XXL is not offered for Ravens Away Hoodie'],
      [{ size: 'M', color: 'Purple' }, 400, STOCK_ALERT_MESSAGES.emailRequired],
      [{ size: 'M', color: 'Purple', email: 'not-an-email' }, 400, STOCK_ALERT_MESSAGES.invalidEmail],
      [{ size: 'M', color: 'Purple', email: { $ne: null } }, 400, STOCK_ALERT_MESSAGES.invalidEmail],
      [{ productId: 'nope', size: 'M', email: address('x') }, 400, 'Invalid product id'],
      [
        { productId: '64b7f9f9f9f9f9f9f9f9f9f0', size: 'M', color: 'Purple', email: address('x') },
        404,
        'Product not found',
      ],
    ];
    for (const [body, status, message] of cases) {
      const res = await ask(body);
      expect({ status: res.status, message: res.body.message }).toEqual({ status, message });
    }
    const unsubscribe = await request(`${catalog.url}/api/stock-alerts/unsubscribe`, { body: { token: 'abc.def' } });
    expect(unsubscribe).toMatchObject({ status: 400, body: { message: STOCK_ALERT_MESSAGES.invalidToken } });
  });

  it('limits the requests of one address per hour', async () => {
    const email = address('eve');
    const answers = [];
    for (let i = 0; i < 5; i++) answers.push((await ask({ size: 'L', color: 'Purple', email })).status);
    expect(answers).toEqual([202, 202, 202, 202, 429]);
    expect((await ask({ size: 'L', color: 'Purple', email })).body.message).toBe(STOCK_ALERT_MESSAGES.tooMany);
  });

  it('restocking one size and colour sends exactly one email per request for it, and none for another', async () => {
    await restock({ 'M/Purple': 5 });
    await eventually(async () => {
      const counts = await Promise.all([a, b, c].map(async (e) => (await mailsTo(e)).length));
      return counts.every((n) => n === 1);
    }, 20_000);
    await sleep(2000); // anything more would have come by now
    for (const email of [a, b, c]) expect(await mailsTo(email)).toHaveLength(1);
    expect(await mailsTo(d)).toHaveLength(0);
    const mail = await readMessage(mailpit, (await mailsTo(b))[0].ID);
    expect(mail.Subject).toBe('Back in stock: Ravens Away Hoodie');
    // the link opens the product with that size and colour chosen
    expect(mail.Text).toContain(`${PUBLIC_URL}/product/${product._id}?size=M&color=Purple`);
    expect(mail.Text).toMatch(/£89\.99/);
    const states = await alerts
      .find({ email: { $in: [a, b, c] }, size: 'M' })
      .lean()
      .exec();
    expect(states.map((s) => s.state)).toEqual(['triggered', 'triggered', 'triggered']);
    expect(states.every((s) => s.publishedAt)).toBe(true);
  });

  it('replayed events, a sweep that publishes them again and another stock change send nothing twice', async () => {
    const triggered = await alerts
      .find({ email: { $in: [a, b, c] }, size: 'M' })
      .lean()
      .exec();
    // the broker's confirm "lost": the sweep publishes each again under the same id
    await alerts
      .updateMany(
        { _id: { $in: triggered.map((t) => t._id) } },
        { $unset: { publishedAt: '' }, $set: { triggeredAt: new Date(0) } },
      )
      .exec();
    await catalog.app.get(StockAlertsService).sweep();
    // and a replay of each event as it was published
    for (const t of triggered) {
      const data: Partial<StockAlertTriggeredEvent> = {
        requestId: String(t._id),
        email: t.email,
        productId: product._id,
        name: 'Ravens Away Hoodie',
        image: '',
        pricePence: 8999,
        size: 'M',
        color: 'Purple',
        countInStock: 5,
        requestedAt: new Date().toISOString(),
        unsubscribeToken: 'x'.repeat(20),
      };
      await bus.publish(EVENTS.catalog.stockAlertTriggered, data, { eventId: stockAlertEventId(String(t._id)) });
    }
    await restock({ 'M/Purple': 7 });
    expect(await catalog.app.get(StockAlertsService).checkProduct(product._id)).toBe(0);
    await sleep(3000);
    for (const email of [a, b, c]) expect(await mailsTo(email)).toHaveLength(1);
    expect(await mailsTo(d)).toHaveLength(0);
  });

  it('the unsubscribe link stops the address’s other requests without signing in', async () => {
    const mail = await readMessage(mailpit, (await mailsTo(a))[0].ID);
    const link = mail.Text.match(/https:\/\/shop\.example\/back-in-stock\/unsubscribe\?token=(\S+)/);
    expect(link).not.toBeNull();
    const token = decodeURIComponent(link![1]);
    const tampered = `${token.slice(0, -2)}xx`;
    expect((await request(`${catalog.url}/api/stock-alerts/unsubscribe`, { body: { token: tampered } })).status).toBe(
      400,
    );
    const res = await request(`${catalog.url}/api/stock-alerts/unsubscribe`, { body: { token } });
    expect(res).toMatchObject({ status: 200, body: { message: STOCK_ALERT_MESSAGES.unsubscribed } });
    // S/Black (a's other request) and L/Black (d's) come back: d is told, a is not
    await restock({ 'S/Black': 2, 'L/Black': 2 });
    await eventually(async () => (await mailsTo(d)).length === 1, 20_000);
    await sleep(2000);
    expect(await mailsTo(a)).toHaveLength(1);
    const dMail = await readMessage(mailpit, (await mailsTo(d))[0].ID);
    expect(dMail.Text).toContain(`/product/${product._id}?size=L&color=Black`);
    expect((await alerts.findOne({ email: a, size: 'S' }).lean().exec())!.state).toBe('unsubscribed');
  });

  it('a lapsed request is never sent, and the sweep deletes it', async () => {
    const email = address('old');
    expect((await ask({ size: 'L', color: 'Purple', email })).status).toBe(202);
    await alerts.updateOne({ email }, { $set: { expiresAt: new Date(Date.now() - 1000) } }).exec();
    await restock({ 'L/Purple': 1 });
    await sleep(2000);
    expect(await mailsTo(email)).toHaveLength(0);
    await catalog.app.get(StockAlertsService).sweep();
    expect(await alerts.countDocuments({ email }).exec()).toBe(0);
  });
});
