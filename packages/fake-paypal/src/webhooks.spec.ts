// Webhook events of the fake, over real HTTP: signed as PayPal signs them, delivered with retries to a listener,
// checked by verify-webhook-signature over the raw event text.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startFakePayPal } from './fake-paypal';
import type { FakePayPal } from './types';
import { crc32, rawMember, signedString } from './webhooks';

interface Received {
  headers: IncomingHttpHeaders;
  body: string;
}

let fake: FakePayPal;
let listener: Server;
let received: Received[] = [];
/** The statuses the listener answers, in turn; 200 once they run out. */
let answers: number[] = [];

beforeAll(async () => {
  listener = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      res.statusCode = answers.shift() ?? 200;
      res.end();
    });
  });
  await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
  const { port } = listener.address() as AddressInfo;
  fake = await startFakePayPal({ webhookUrl: `http://127.0.0.1:${port}/hook`, webhookRetryDelaysMs: [20, 40, 80] });
});
afterEach(() => {
  fake.reset();
  received = [];
  answers = [];
});
afterAll(async () => {
  await fake.close();
  await new Promise<void>((resolve) => listener.close(() => resolve()));
});

async function verify(body: string): Promise<{ status: number; json: any }> {
  const res = await fetch(`${fake.url}/v1/notifications/verify-webhook-signature`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body,
  });
  return { status: res.status, json: await res.json() };
}

/** The verify request a listener builds: the transmission headers, the webhook id, and the event's raw text. */
function verifyBody(r: Received, overrides: Record<string, string> = {}, rawEvent = r.body): string {
  const fields = {
    auth_algo: r.headers['paypal-auth-algo'],
    cert_url: r.headers['paypal-cert-url'],
    transmission_id: r.headers['paypal-transmission-id'],
    transmission_sig: r.headers['paypal-transmission-sig'],
    transmission_time: r.headers['paypal-transmission-time'],
    webhook_id: fake.webhooks.webhookId,
    ...overrides,
  };
  return `${JSON.stringify(fields).slice(0, -1)},"webhook_event":${rawEvent}}`;
}

describe('the signature parts', () => {
  it('crc32 is the IEEE CRC (zlib) in decimal', () => {
    expect(crc32('123456789')).toBe(0xcbf43926);
    expect(crc32('')).toBe(0);
    expect(signedString('t', '2026-01-01T00:00:00Z', 'WH1', 'a')).toBe(`t|2026-01-01T00:00:00Z|WH1|${crc32('a')}`);
  });

  it('rawMember finds a top-level member’s exact text', () => {
    expect(rawMember('{"a":1, "webhook_event" : {"x":"}\\"","y":[1,{}]} }', 'webhook_event')).toBe(
      '{"x":"}\\"","y":[1,{}]}',
    );
    expect(rawMember('{"b":{"webhook_event":1}}', 'webhook_event')).toBeUndefined();
    expect(rawMember('[1]', 'webhook_event')).toBeUndefined();
    expect(rawMember('{"webhook_event":', 'webhook_event')).toBeUndefined();
  });
});

describe('events', () => {
  it('a capture sends PAYMENT.CAPTURE.COMPLETED, signed, naming the order and the custom id', async () => {
    const id = fake.createCompletedOrder({ value: '12.34', custom_id: 'checkout-1' });
    await fake.webhooks.idle();
    expect(received).toHaveLength(1);
    const event = JSON.parse(received[0].body);
    expect(event).toMatchObject({
      event_type: 'PAYMENT.CAPTURE.COMPLETED',
      resource_type: 'capture',
      resource: {
        status: 'COMPLETED',
        custom_id: 'checkout-1',
        amount: { currency_code: 'GBP', value: '12.34' },
        supplementary_data: { related_ids: { order_id: id } },
      },
    });
    expect(event.id).toMatch(/^WH-/);
    expect(received[0].headers['paypal-auth-algo']).toBe('SHA256withRSA');
    expect(received[0].headers['paypal-cert-url']).toContain(`${fake.url}/v1/notifications/certs/`);
    const cert = await fetch(String(received[0].headers['paypal-cert-url']));
    expect(await cert.text()).toContain('BEGIN PUBLIC KEY');
    expect(await verify(verifyBody(received[0]))).toEqual({ status: 200, json: { verification_status: 'SUCCESS' } });
  });

  it('a declined capture sends PAYMENT.CAPTURE.DENIED', async () => {
    fake.createCompletedOrder({ value: '5.00', mode: 'declined' });
    await fake.webhooks.idle();
    expect(JSON.parse(received[0].body)).toMatchObject({
      event_type: 'PAYMENT.CAPTURE.DENIED',
      resource: { status: 'DECLINED' },
    });
  });

  it('a refund through the API, in the dashboard, or a reversal sends REFUNDED / REVERSED with the capture in `up`', async () => {
    const id = fake.createCompletedOrder({ value: '30.00' });
    const captureId = fake.orders.get(id)!.purchase_units[0].payments!.captures[0].id;
    await fetch(`${fake.url}/v2/payments/captures/${captureId}/refund`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ amount: { currency_code: 'GBP', value: '10.00' } }),
    });
    const dashboard = await fetch(`${fake.url}/__fake/captures/${captureId}/refund`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ value: '5.00' }),
    });
    expect(dashboard.status).toBe(201);
    fake.reverseCapture(captureId);
    await fake.webhooks.idle();
    // delivered concurrently: in the order they were made
    const events = fake.webhooks.events();
    expect(received).toHaveLength(4);
    expect(events.map((e) => [e.event_type, (e.resource as { amount: { value: string } }).amount.value])).toEqual([
      ['PAYMENT.CAPTURE.COMPLETED', '30.00'],
      ['PAYMENT.CAPTURE.REFUNDED', '10.00'],
      ['PAYMENT.CAPTURE.REFUNDED', '5.00'],
      ['PAYMENT.CAPTURE.REVERSED', '15.00'],
    ]);
    for (const e of events.slice(1))
      expect((e.resource as { links: unknown[] }).links).toContainEqual(
        expect.objectContaining({ rel: 'up', href: expect.stringContaining(captureId) }),
      );
    expect(fake.orders.get(id)!.purchase_units[0].payments!.captures[0].status).toBe('REFUNDED');
    // more than remains: refused as PayPal would, nothing sent
    expect(() => fake.dashboardRefund(captureId, '1.00')).toThrow();
  });

  it('retries while the listener fails, backing off, then stops at the first 2xx', async () => {
    answers = [500, 503];
    fake.createCompletedOrder({ value: '1.00' });
    await fake.webhooks.idle();
    const tries = fake.webhooks.deliveries();
    expect(tries.map((d) => [d.attempt, d.status])).toEqual([
      [1, 500],
      [2, 503],
      [3, 200],
    ]);
    expect(new Set(tries.map((d) => d.eventId)).size).toBe(1);
    expect(new Set(tries.map((d) => d.transmissionId)).size).toBe(1);
    // each attempt is signed afresh, and each verifies
    for (const r of received) expect((await verify(verifyBody(r))).json.verification_status).toBe('SUCCESS');
  });

  it('gives up after the configured retries', async () => {
    answers = [500, 500, 500, 500, 500];
    fake.createCompletedOrder({ value: '1.00' });
    await fake.webhooks.idle();
    expect(fake.webhooks.deliveries()).toHaveLength(4);
  });

  it('resends an event: a new delivery of the same event id', async () => {
    fake.createCompletedOrder({ value: '1.00' });
    await fake.webhooks.idle();
    const [event] = fake.webhooks.events();
    const res = await fetch(`${fake.url}/v1/notifications/webhooks-events/${event.id}/resend`, { method: 'POST' });
    expect(res.status).toBe(202);
    await fake.webhooks.idle();
    expect(received.map((r) => JSON.parse(r.body).id)).toEqual([event.id, event.id]);
    expect(
      (await fetch(`${fake.url}/v1/notifications/webhooks-events/WH-NOPE/resend`, { method: 'POST' })).status,
    ).toBe(404);
  });
});

describe('verify-webhook-signature', () => {
  let r: Received;
  beforeEach(async () => {
    fake.createCompletedOrder({ value: '9.99' });
    await fake.webhooks.idle();
    r = received[0];
  });

  it('FAILURE for a tampered event, a re-serialised one, another webhook id, signature, time or cert', async () => {
    const tampered = r.body.replace('"9.99"', '"0.01"');
    expect((await verify(verifyBody(r, {}, tampered))).json.verification_status).toBe('FAILURE');
    const reformatted = JSON.stringify(JSON.parse(r.body), null, 1);
    expect((await verify(verifyBody(r, {}, reformatted))).json.verification_status).toBe('FAILURE');
    const overrides: Array<Record<string, string>> = [
      { webhook_id: 'OTHERWEBHOOK' },
      { transmission_sig: Buffer.from('nope').toString('base64') },
      { transmission_time: '2020-01-01T00:00:00Z' },
      { transmission_id: '00000000-0000-0000-0000-000000000000' },
      { cert_url: 'https://evil.example/cert.pem' },
      { auth_algo: 'SHA1withRSA' },
    ];
    for (const override of overrides)
      expect((await verify(verifyBody(r, override))).json.verification_status).toBe('FAILURE');
  });

  it('400 for a missing field or event, malformed JSON', async () => {
    const missing = await verify(verifyBody(r, { transmission_sig: '' }));
    expect(missing.status).toBe(400);
    expect(missing.json.details[0]).toMatchObject({ field: 'transmission_sig', issue: 'MISSING_REQUIRED_PARAMETER' });
    expect((await verify(JSON.stringify({ auth_algo: 'x' }))).status).toBe(400);
    expect((await verify('{"auth_algo":')).status).toBe(400);
    const noEvent = verifyBody(r).replace(/,"webhook_event":.*$/s, '}');
    expect((await verify(noEvent)).status).toBe(400);
  });

  it('the headers from sign() verify for exactly that body', async () => {
    const body = '{"id":"WH-X","event_type":"PAYMENT.CAPTURE.COMPLETED"}';
    const headers = fake.webhooks.sign(body);
    const signed = { headers: headers as unknown as IncomingHttpHeaders, body };
    expect((await verify(verifyBody(signed))).json.verification_status).toBe('SUCCESS');
    expect((await verify(verifyBody(signed, {}, body.replace('WH-X', 'WH-Y')))).json.verification_status).toBe(
      'FAILURE',
    );
  });
});
