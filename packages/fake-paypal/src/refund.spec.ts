// POST /v2/payments/captures/:id/refund (Payments v2), over real HTTP against a started fake, the way the checkout
// service refunds a payment whose stock is gone.
import { startFakePayPal } from './fake-paypal';
import type { FakePayPal, FakePayPalOptions } from './types';

const ID = /^[0-9A-Z]{17}$/;
const TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/;

let fake: FakePayPal;
const extra: FakePayPal[] = [];

beforeAll(async () => {
  fake = await startFakePayPal({ latencyMs: 250 });
});
afterEach(() => fake.reset());
afterAll(async () => {
  await Promise.all([fake, ...extra].map((f) => f.close()));
});

async function another(options: FakePayPalOptions): Promise<FakePayPal> {
  const f = await startFakePayPal(options);
  extra.push(f);
  return f;
}

interface Res {
  status: number;
  headers: Headers;
  body: any;
}

async function call(
  method: string,
  path: string,
  init: { body?: unknown; raw?: string; headers?: Record<string, string> } = {},
  target: FakePayPal = fake,
): Promise<Res> {
  const headers: Record<string, string> = { ...init.headers };
  let body: string | undefined = init.raw;
  if (init.body !== undefined) {
    body = JSON.stringify(init.body);
    headers['Content-Type'] ??= 'application/json';
  }
  const res = await fetch(target.url + path, { method, headers, body });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : undefined };
}

const basic = (id: string, secret: string): string => `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;

async function token(target: FakePayPal = fake): Promise<string> {
  const res = await call(
    'POST',
    '/v1/oauth2/token',
    {
      raw: 'grant_type=client_credentials',
      headers: {
        Authorization: basic(target.clientId, target.clientSecret),
        'Content-Type': 'application/x-www-form-urlencoded',
      },
    },
    target,
  );
  expect(res.status).toBe(200);
  return res.body.access_token;
}

/** Creates and captures an order over HTTP; gives the order id and the capture id. */
async function captured(
  value = '20.00',
  currency = 'GBP',
  unit: Record<string, unknown> = {},
  target: FakePayPal = fake,
  headers: Record<string, string> = {},
): Promise<{ orderId: string; captureId: string }> {
  const created = await call(
    'POST',
    '/v2/checkout/orders',
    { body: { intent: 'CAPTURE', purchase_units: [{ amount: { currency_code: currency, value }, ...unit }] }, headers },
    target,
  );
  expect(created.status).toBe(201);
  const capture = await call('POST', `/v2/checkout/orders/${created.body.id}/capture`, { headers }, target);
  expect(capture.status).toBe(201);
  return { orderId: created.body.id, captureId: capture.body.purchase_units[0].payments.captures[0].id };
}

const refund = (
  captureId: string,
  init: { body?: unknown; raw?: string; headers?: Record<string, string> } = {},
  target: FakePayPal = fake,
): Promise<Res> => call('POST', `/v2/payments/captures/${captureId}/refund`, init, target);

const money = (value: string, currency_code = 'GBP') => ({ currency_code, value });

/** The order's first capture and its refunds, as GET /v2/checkout/orders/:id shows them. */
async function payments(orderId: string): Promise<{ order: any; capture: any; refunds: any[] | undefined }> {
  const res = await call('GET', `/v2/checkout/orders/${orderId}`);
  expect(res.status).toBe(200);
  const p = res.body.purchase_units[0].payments;
  return { order: res.body, capture: p.captures[0], refunds: p.refunds };
}

function expectPayPalError(res: Res, status: number, name: string, issue?: string): void {
  expect(res.status).toBe(status);
  expect(res.body.name).toBe(name);
  expect(typeof res.body.message).toBe('string');
  expect(res.body.debug_id).toBe(res.headers.get('paypal-debug-id'));
  if (issue) expect(res.body.details[0].issue).toBe(issue);
}

describe('POST /v2/payments/captures/:id/refund', () => {
  it('refunds the whole capture for an empty body: 201 {id, status, links}; GET shows the capture REFUNDED', async () => {
    const { orderId, captureId } = await captured('20.00');
    const res = await refund(captureId);
    expect(res.status).toBe(201);
    // PayPal's default answer (Prefer: return=minimal)
    expect(res.body).toEqual({
      id: expect.stringMatching(ID),
      status: 'COMPLETED',
      links: [
        { href: `${fake.url}/v2/payments/refunds/${res.body.id}`, rel: 'self', method: 'GET' },
        { href: `${fake.url}/v2/payments/captures/${captureId}`, rel: 'up', method: 'GET' },
      ],
    });
    expect(res.body.id).not.toBe(captureId);

    const { order, capture, refunds } = await payments(orderId);
    expect(order.status).toBe('COMPLETED'); // the order stays COMPLETED; its capture is what changes
    expect(capture).toMatchObject({ id: captureId, status: 'REFUNDED', amount: money('20.00') });
    expect(capture.update_time).toMatch(TIME);
    expect(refunds).toEqual([
      expect.objectContaining({ id: res.body.id, status: 'COMPLETED', amount: money('20.00') }),
    ]);
    expect(fake.orders.get(orderId)?.purchase_units[0].payments?.captures[0].status).toBe('REFUNDED');
  });

  it('refunds in full for {} too, and answers the whole refund on Prefer: return=representation', async () => {
    const { orderId, captureId } = await captured('12.34');
    const res = await refund(captureId, {
      body: { note_to_payer: 'Sorry, that item sold out', invoice_id: 'chk_42-refund', custom_id: 'chk_42' },
      headers: { Prefer: 'return=representation' },
    });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.stringMatching(ID),
      status: 'COMPLETED',
      amount: money('12.34'),
      note_to_payer: 'Sorry, that item sold out',
      seller_payable_breakdown: {
        gross_amount: money('12.34'),
        paypal_fee: money('0.00'),
        net_amount: money('12.34'),
        total_refunded_amount: money('12.34'),
      },
      invoice_id: 'chk_42-refund',
      custom_id: 'chk_42',
      create_time: expect.stringMatching(TIME),
      update_time: expect.stringMatching(TIME),
      links: [
        { href: `${fake.url}/v2/payments/refunds/${res.body.id}`, rel: 'self', method: 'GET' },
        { href: `${fake.url}/v2/payments/captures/${captureId}`, rel: 'up', method: 'GET' },
      ],
    });
    expect((await payments(orderId)).refunds).toEqual([res.body]);

    const other = await captured('5.00');
    expect((await refund(other.captureId, { body: {} })).status).toBe(201);
    expect((await payments(other.orderId)).capture.status).toBe('REFUNDED');
  });

  it('refunds in parts: PARTIALLY_REFUNDED until nothing remains, then REFUNDED', async () => {
    const { orderId, captureId } = await captured('20.00');
    const rep = { Prefer: 'return=representation' };
    const first = await refund(captureId, { body: { amount: money('5.00') }, headers: rep });
    expect(first.status).toBe(201);
    expect(first.body.amount).toEqual(money('5.00'));
    expect(first.body.seller_payable_breakdown.total_refunded_amount).toEqual(money('5.00'));
    expect((await payments(orderId)).capture.status).toBe('PARTIALLY_REFUNDED');

    const second = await refund(captureId, { body: { amount: money('7.50') }, headers: rep });
    expect(second.body.seller_payable_breakdown.total_refunded_amount).toEqual(money('12.50'));
    expect((await payments(orderId)).capture.status).toBe('PARTIALLY_REFUNDED');

    // An empty body refunds what remains.
    const rest = await refund(captureId, { headers: rep });
    expect(rest.status).toBe(201);
    expect(rest.body.amount).toEqual(money('7.50'));
    expect(rest.body.seller_payable_breakdown.total_refunded_amount).toEqual(money('20.00'));
    const { capture, refunds } = await payments(orderId);
    expect(capture.status).toBe('REFUNDED');
    expect(refunds?.map((r) => r.amount.value)).toEqual(['5.00', '7.50', '7.50']);
  });

  it('refuses to refund more than remains: 422 REFUND_AMOUNT_EXCEEDED, changing nothing', async () => {
    const { orderId, captureId } = await captured('20.00');
    const tooMuch = await refund(captureId, { body: { amount: money('20.01') } });
    expectPayPalError(tooMuch, 422, 'UNPROCESSABLE_ENTITY', 'REFUND_AMOUNT_EXCEEDED');
    expect(tooMuch.body.details[0]).toMatchObject({ field: '/amount/value', value: '20.01', location: 'body' });
    expect((await payments(orderId)).capture.status).toBe('COMPLETED');

    expect((await refund(captureId, { body: { amount: money('15.00') } })).status).toBe(201);
    expectPayPalError(
      await refund(captureId, { body: { amount: money('5.01') } }),
      422,
      'UNPROCESSABLE_ENTITY',
      'REFUND_AMOUNT_EXCEEDED',
    );
    const { capture, refunds } = await payments(orderId);
    expect(capture.status).toBe('PARTIALLY_REFUNDED');
    expect(refunds).toHaveLength(1);
    expect((await refund(captureId, { body: { amount: money('5.00') } })).status).toBe(201); // exactly what remains
    expect((await payments(orderId)).capture.status).toBe('REFUNDED');
  });

  it('refuses a fully refunded capture: 422 CAPTURE_FULLY_REFUNDED, with or without an amount', async () => {
    const { orderId, captureId } = await captured('9.99');
    expect((await refund(captureId)).status).toBe(201);
    expectPayPalError(await refund(captureId), 422, 'UNPROCESSABLE_ENTITY', 'CAPTURE_FULLY_REFUNDED');
    expectPayPalError(
      await refund(captureId, { body: { amount: money('0.01') } }),
      422,
      'UNPROCESSABLE_ENTITY',
      'CAPTURE_FULLY_REFUNDED',
    );
    expect((await payments(orderId)).refunds).toHaveLength(1);
  });

  it('answers 404 RESOURCE_NOT_FOUND for an unknown capture (an order id is not a capture id)', async () => {
    const unknown = await refund('0UNKNOWNCAPTURE00');
    expectPayPalError(unknown, 404, 'RESOURCE_NOT_FOUND', 'INVALID_RESOURCE_ID');
    expect(unknown.body.details[0]).toMatchObject({
      field: 'capture_id',
      value: '0UNKNOWNCAPTURE00',
      location: 'path',
    });
    expect(unknown.body.links).toContainEqual({
      href: 'https://developer.paypal.com/docs/api/payments/v2/#error-INVALID_RESOURCE_ID',
      rel: 'information_link',
      method: 'GET',
    });
    const { orderId } = await captured();
    expectPayPalError(await refund(orderId), 404, 'RESOURCE_NOT_FOUND', 'INVALID_RESOURCE_ID');
    expectPayPalError(await refund('%E0%A4%A'), 404, 'RESOURCE_NOT_FOUND');
  });

  it('refuses a DECLINED capture: 422 REFUND_NOT_ALLOWED', async () => {
    const { orderId, captureId } = await captured('3.00', 'GBP', { custom_id: 'fake:declined' });
    expect((await payments(orderId)).capture.status).toBe('DECLINED');
    expectPayPalError(await refund(captureId), 422, 'UNPROCESSABLE_ENTITY', 'REFUND_NOT_ALLOWED');
    expect((await payments(orderId)).capture.status).toBe('DECLINED');
  });

  it('validates the body like PayPal, changing nothing', async () => {
    const { orderId, captureId } = await captured('20.00');
    const cases: Array<[unknown, number, string, string]> = [
      [{ amount: money('5.5') }, 422, 'UNPROCESSABLE_ENTITY', 'DECIMAL_PRECISION'],
      [{ amount: money('0.00') }, 422, 'UNPROCESSABLE_ENTITY', 'CANNOT_BE_ZERO_OR_NEGATIVE'],
      [{ amount: money('-1.00') }, 422, 'UNPROCESSABLE_ENTITY', 'CANNOT_BE_ZERO_OR_NEGATIVE'],
      [{ amount: money('5.00', 'USD') }, 422, 'UNPROCESSABLE_ENTITY', 'REFUND_CAPTURE_CURRENCY_MISMATCH'],
      [{ amount: money('5.00', 'XYZ') }, 422, 'UNPROCESSABLE_ENTITY', 'CURRENCY_NOT_SUPPORTED'],
      [{ amount: { value: '5.00' } }, 400, 'INVALID_REQUEST', 'MISSING_REQUIRED_PARAMETER'],
      [{ amount: { currency_code: 'GBP', value: 5 } }, 400, 'INVALID_REQUEST', 'INVALID_PARAMETER_SYNTAX'],
      [{ amount: '5.00' }, 400, 'INVALID_REQUEST', 'INVALID_PARAMETER_SYNTAX'],
      [{ note_to_payer: 'x'.repeat(256) }, 400, 'INVALID_REQUEST', 'INVALID_STRING_LENGTH'],
      [{ invoice_id: 42 }, 400, 'INVALID_REQUEST', 'INVALID_PARAMETER_SYNTAX'],
      [[{ amount: money('5.00') }], 400, 'INVALID_REQUEST', 'MALFORMED_REQUEST_JSON'],
    ];
    for (const [body, status, name, issue] of cases) {
      const res = await refund(captureId, { body });
      expectPayPalError(res, status, name, issue);
    }
    expectPayPalError(
      await refund(captureId, { raw: '{oops', headers: { 'Content-Type': 'application/json' } }),
      400,
      'INVALID_REQUEST',
      'MALFORMED_REQUEST_JSON',
    );
    expectPayPalError(
      await refund(captureId, { raw: 'amount=5', headers: { 'Content-Type': 'text/plain' } }),
      415,
      'UNSUPPORTED_MEDIA_TYPE',
    );
    const { capture, refunds } = await payments(orderId);
    expect(capture.status).toBe('COMPLETED');
    expect(refunds).toBeUndefined();
  });

  it('refunds in zero-decimal currencies and within what an amount-mismatch capture took', async () => {
    const yen = await captured('1000', 'JPY');
    const part = await refund(yen.captureId, {
      body: { amount: money('400', 'JPY') },
      headers: { Prefer: 'return=representation' },
    });
    expect(part.body.seller_payable_breakdown).toMatchObject({
      paypal_fee: money('0', 'JPY'),
      total_refunded_amount: money('400', 'JPY'),
    });
    expect((await refund(yen.captureId, { headers: { Prefer: 'return=representation' } })).body.amount).toEqual(
      money('600', 'JPY'),
    );

    // The refund is bounded by what was captured, not by what the order was created for.
    const over = await captured('20.00', 'GBP', { custom_id: 'fake:amount-mismatch' });
    const all = await refund(over.captureId, { headers: { Prefer: 'return=representation' } });
    expect(all.body.amount).toEqual(money('20.01'));
    expect((await payments(over.orderId)).capture.status).toBe('REFUNDED');
  });

  it('answers 405 to anything but POST', async () => {
    const { captureId } = await captured();
    const res = await call('GET', `/v2/payments/captures/${captureId}/refund`);
    expectPayPalError(res, 405, 'METHOD_NOT_SUPPORTED');
    expect(res.headers.get('allow')).toBe('POST');
  });

  it('refunds a capture made by createCompletedOrder (how the shop tests set up a paid checkout)', async () => {
    const orderId = fake.createCompletedOrder({ value: '49.99' });
    const captureId = fake.orders.get(orderId)?.purchase_units[0].payments?.captures[0].id as string;
    expect((await refund(captureId)).status).toBe(201);
    expect(fake.orders.get(orderId)?.purchase_units[0].payments?.captures[0].status).toBe('REFUNDED');
  });

  it('forgets captures on reset', async () => {
    const { captureId } = await captured();
    fake.reset();
    expectPayPalError(await refund(captureId), 404, 'RESOURCE_NOT_FOUND');
  });
});

describe('refund authentication', () => {
  it('takes a token it issued, Basic credentials or (by default) none, and records how and which capture', async () => {
    const { orderId, captureId } = await captured('30.00');
    const amount = { amount: money('1.00') };
    const viaBearer = await refund(captureId, { body: amount, headers: { Authorization: `Bearer ${await token()}` } });
    const viaBasic = await refund(captureId, {
      body: amount,
      headers: { Authorization: basic(fake.clientId, fake.clientSecret) },
    });
    const anonymous = await refund(captureId, { body: amount });
    expect([viaBearer.status, viaBasic.status, anonymous.status]).toEqual([201, 201, 201]);
    const refunds = fake.calls().filter((c) => c.path.endsWith('/refund'));
    expect(refunds.map((c) => c.auth)).toEqual(['bearer', 'basic', 'anonymous']);
    expect(refunds[0]).toMatchObject({ method: 'POST', status: 201, captureId, orderId });
  });

  it('refuses a token it did not issue and wrong Basic credentials, refunding nothing', async () => {
    const { orderId, captureId } = await captured();
    const foreign = await refund(captureId, { headers: { Authorization: 'Bearer A21AAnot-one-of-ours' } });
    expect(foreign.status).toBe(401);
    expect(foreign.body).toEqual({ error: 'invalid_token', error_description: 'Token signature verification failed' });
    expectPayPalError(
      await refund(captureId, { headers: { Authorization: basic(fake.clientId, 'nope') } }),
      401,
      'AUTHENTICATION_FAILURE',
    );
    expect((await payments(orderId)).refunds).toBeUndefined();
  });

  it('requires authentication when started with allowAnonymous: false', async () => {
    const strict = await another({ allowAnonymous: false });
    const auth = { Authorization: `Bearer ${await token(strict)}` };
    const { captureId } = await captured('10.00', 'GBP', {}, strict, auth);
    expectPayPalError(await refund(captureId, {}, strict), 401, 'AUTHENTICATION_FAILURE');
    expect((await refund(captureId, { headers: auth }, strict)).status).toBe(201);
  });
});

describe('refund idempotency (PayPal-Request-Id)', () => {
  it('answers the same refund again for the same request id and refunds nothing more', async () => {
    const { orderId, captureId } = await captured('20.00');
    const headers = { 'PayPal-Request-Id': `refund-${captureId}` };
    const first = await refund(captureId, { body: { amount: money('5.00') }, headers });
    const again = await refund(captureId, { body: { amount: money('5.00') }, headers });
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(again.body).toEqual(first.body);
    expect((await payments(orderId)).refunds).toHaveLength(1);

    const other = await refund(captureId, { body: { amount: money('5.00') }, headers: { 'PayPal-Request-Id': 'b' } });
    expect(other.body.id).not.toBe(first.body.id);
    expect((await payments(orderId)).refunds).toHaveLength(2);
    expect(fake.calls().filter((c) => c.requestId === `refund-${captureId}`)).toHaveLength(2);
  });

  it('a retried full refund answers 201 again, not CAPTURE_FULLY_REFUNDED', async () => {
    const { orderId, captureId } = await captured('20.00');
    const headers = { 'PayPal-Request-Id': 'refund-full-1' };
    const first = await refund(captureId, { headers });
    const retried = await refund(captureId, { headers });
    expect(retried.status).toBe(201);
    expect(retried.body).toEqual(first.body);
    expectPayPalError(
      await refund(captureId, { headers: { 'PayPal-Request-Id': 'refund-full-2' } }),
      422,
      'UNPROCESSABLE_ENTITY',
      'CAPTURE_FULLY_REFUNDED',
    );
    expect((await payments(orderId)).refunds).toHaveLength(1);
  });

  it('makes one refund of concurrent calls with one request id', async () => {
    const { orderId, captureId } = await captured('20.00');
    const headers = { 'PayPal-Request-Id': 'refund-concurrent' };
    const answers = await Promise.all(Array.from({ length: 10 }, () => refund(captureId, { headers })));
    expect(answers.map((a) => a.status)).toEqual(Array(10).fill(201));
    expect(new Set(answers.map((a) => a.body.id)).size).toBe(1);
    expect((await payments(orderId)).refunds).toHaveLength(1);
  });

  it('never refunds more than the capture under concurrent partial refunds', async () => {
    const { orderId, captureId } = await captured('10.00');
    const answers = await Promise.all(
      Array.from({ length: 15 }, () => refund(captureId, { body: { amount: money('1.00') } })),
    );
    expect(answers.filter((a) => a.status === 201)).toHaveLength(10);
    expect(answers.filter((a) => a.status === 422)).toHaveLength(5);
    const { capture, refunds } = await payments(orderId);
    expect(capture.status).toBe('REFUNDED');
    expect(refunds).toHaveLength(10);
  });

  it('refuses a request id longer than 108 characters', async () => {
    const { captureId } = await captured();
    expectPayPalError(
      await refund(captureId, { headers: { 'PayPal-Request-Id': 'x'.repeat(109) } }),
      400,
      'INVALID_REQUEST',
      'INVALID_STRING_LENGTH',
    );
  });
});

describe('refund failure modes', () => {
  it('error-500: the refund answers 500 and refunds nothing until the mode is lifted', async () => {
    const { orderId, captureId } = await captured('20.00');
    fake.setMode('error-500');
    expectPayPalError(await refund(captureId), 500, 'INTERNAL_SERVER_ERROR');
    fake.setMode('normal');
    expect((await payments(orderId)).refunds).toBeUndefined();
    expect((await refund(captureId)).status).toBe(201);
  });

  it("error-500 on one order fails that order's refunds only", async () => {
    const broken = await captured('20.00');
    const fine = await captured('20.00');
    expect(fake.setOrderMode(broken.orderId, 'error-500')).toBe(true);
    expectPayPalError(await refund(broken.captureId), 500, 'INTERNAL_SERVER_ERROR');
    expect((await refund(fine.captureId)).status).toBe(201);
    fake.setOrderMode(broken.orderId, 'normal');
    expect((await refund(broken.captureId)).status).toBe(201);
  });

  it('refund-refused on one order: 422 REFUND_FAILED_INSUFFICIENT_FUNDS, nothing refunded, its capture untouched', async () => {
    const refused = await captured('20.00');
    const fine = await captured('20.00');
    expect(fake.setOrderMode(refused.orderId, 'refund-refused')).toBe(true);
    const res = await refund(refused.captureId, { headers: { 'PayPal-Request-Id': 'refund-once' } });
    expectPayPalError(res, 422, 'UNPROCESSABLE_ENTITY', 'REFUND_FAILED_INSUFFICIENT_FUNDS');
    expect(res.body.details[0].description).toBe('Capture could not be refunded due to insufficient funds.');
    expect(await payments(refused.orderId)).toMatchObject({ capture: { status: 'COMPLETED' }, refunds: undefined });
    expect((await refund(fine.captureId)).status).toBe(201);
    // A refusal is not remembered: once PayPal would take it, the same request id refunds.
    fake.setOrderMode(refused.orderId, 'normal');
    expect((await refund(refused.captureId, { headers: { 'PayPal-Request-Id': 'refund-once' } })).status).toBe(201);
    expect((await payments(refused.orderId)).capture.status).toBe('REFUNDED');
  });

  it('slow: the refund answers only after latencyMs', async () => {
    const { captureId } = await captured('20.00');
    fake.setMode('slow', { latencyMs: 300 });
    const started = Date.now();
    const res = await refund(captureId, { body: { amount: money('1.00') } });
    expect(res.status).toBe(201);
    expect(Date.now() - started).toBeGreaterThanOrEqual(280);
    fake.setMode('normal');
    const quick = Date.now();
    expect((await refund(captureId, { body: { amount: money('1.00') } })).status).toBe(201);
    expect(Date.now() - quick).toBeLessThan(280);
  });
});
