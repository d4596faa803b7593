// Real HTTP against a started fake (port 0), the way the shop's server and the SPA's test-payment button call it.
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

function orderBody(value = '12.34', currency = 'GBP', unit: Record<string, unknown> = {}): unknown {
  return { intent: 'CAPTURE', purchase_units: [{ amount: { currency_code: currency, value }, ...unit }] };
}

async function create(
  body: unknown = orderBody(),
  headers: Record<string, string> = {},
  target: FakePayPal = fake,
): Promise<Res> {
  return call('POST', '/v2/checkout/orders', { body, headers }, target);
}

async function createdId(body?: unknown): Promise<string> {
  const res = await create(body);
  expect(res.status).toBe(201);
  return res.body.id;
}

const capture = (id: string, headers: Record<string, string> = {}): Promise<Res> =>
  call('POST', `/v2/checkout/orders/${id}/capture`, { headers });
const getOrder = (id: string, headers: Record<string, string> = {}): Promise<Res> =>
  call('GET', `/v2/checkout/orders/${id}`, { headers });

function expectPayPalError(res: Res, status: number, name: string, issue?: string): void {
  expect(res.status).toBe(status);
  expect(res.body.name).toBe(name);
  expect(typeof res.body.message).toBe('string');
  expect(res.body.debug_id).toBe(res.headers.get('paypal-debug-id'));
  if (issue) expect(res.body.details[0].issue).toBe(issue);
}

describe('POST /v1/oauth2/token', () => {
  it('issues a Bearer token for the right client credentials', async () => {
    const res = await call('POST', '/v1/oauth2/token', {
      raw: 'grant_type=client_credentials',
      headers: {
        Authorization: basic('fake-client-id', 'fake-client-secret'),
        'Content-Type': 'application/x-www-form-urlencoded',
      },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      scope: expect.stringContaining('https://uri.paypal.com/services/payments/payment/authcapture'),
      access_token: expect.stringMatching(/^A21AA[\w-]{40,}$/),
      token_type: 'Bearer',
      app_id: expect.stringMatching(/^APP-/),
      expires_in: 32400,
      nonce: expect.any(String),
    });
    const again = await token();
    expect(again).not.toBe(res.body.access_token);
  });

  it.each([
    ['a wrong secret', basic('fake-client-id', 'wrong')],
    ['a wrong client id', basic('someone-else', 'fake-client-secret')],
    ['no colon', `Basic ${Buffer.from('fake-client-id').toString('base64')}`],
    ['a Bearer header', 'Bearer abc'],
  ])('refuses %s with 401 invalid_client', async (_what, authorization) => {
    const res = await call('POST', '/v1/oauth2/token', {
      raw: 'grant_type=client_credentials',
      headers: { Authorization: authorization, 'Content-Type': 'application/x-www-form-urlencoded' },
    });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ error: 'invalid_client', error_description: 'Client Authentication failed' });
  });

  it('refuses a missing Authorization header and a missing grant_type', async () => {
    const none = await call('POST', '/v1/oauth2/token', { raw: 'grant_type=client_credentials' });
    expect(none.status).toBe(401);
    expect(none.body.error).toBe('invalid_client');
    const noGrant = await call('POST', '/v1/oauth2/token', {
      raw: '',
      headers: { Authorization: basic(fake.clientId, fake.clientSecret) },
    });
    expect(noGrant.status).toBe(400);
    expect(noGrant.body).toEqual({ error: 'unsupported_grant_type', error_description: 'Grant Type is NULL' });
  });

  it('accepts the credentials it was started with', async () => {
    const custom = await another({ clientId: 'shop-id', clientSecret: 's3cret' });
    expect(await token(custom)).toMatch(/^A21AA/);
    const wrong = await call(
      'POST',
      '/v1/oauth2/token',
      {
        raw: 'grant_type=client_credentials',
        headers: { Authorization: basic('fake-client-id', 'fake-client-secret') },
      },
      custom,
    );
    expect(wrong.status).toBe(401);
  });
});

describe('authentication of the Orders calls', () => {
  it('accepts a token it issued, Basic credentials, and (by default) no Authorization header', async () => {
    const bearer = await create(orderBody(), { Authorization: `Bearer ${await token()}` });
    const viaBasic = await create(orderBody(), { Authorization: basic(fake.clientId, fake.clientSecret) });
    const anonymous = await create(orderBody());
    expect([bearer.status, viaBasic.status, anonymous.status]).toEqual([201, 201, 201]);
    expect(fake.calls().map((c) => c.auth)).toEqual(['basic', 'bearer', 'basic', 'anonymous']);
  });

  it('refuses a token it did not issue even when anonymous calls are allowed', async () => {
    const res = await create(orderBody(), { Authorization: 'Bearer A21AAnot-one-of-ours' });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ error: 'invalid_token', error_description: 'Token signature verification failed' });
    const basicWrong = await create(orderBody(), { Authorization: basic(fake.clientId, 'nope') });
    expectPayPalError(basicWrong, 401, 'AUTHENTICATION_FAILURE');
    expect(fake.orders.size).toBe(0);
  });

  it('requires authentication on create, capture and get when started with allowAnonymous: false', async () => {
    const strict = await another({ allowAnonymous: false });
    const denied = await create(orderBody(), {}, strict);
    expectPayPalError(denied, 401, 'AUTHENTICATION_FAILURE');
    const auth = { Authorization: `Bearer ${await token(strict)}` };
    const created = await create(orderBody(), auth, strict);
    expect(created.status).toBe(201);
    const path = `/v2/checkout/orders/${created.body.id}`;
    expect((await call('POST', `${path}/capture`, {}, strict)).status).toBe(401);
    expect((await call('GET', path, {}, strict)).status).toBe(401);
    expect((await call('POST', `${path}/capture`, { headers: auth }, strict)).status).toBe(201);
    expect((await call('GET', path, { headers: auth }, strict)).body.status).toBe('COMPLETED');
  });
});

describe('POST /v2/checkout/orders', () => {
  it('creates an order as PayPal does: 201, 17-char id, CREATED, the purchase unit, links', async () => {
    const res = await create(orderBody('12.34', 'GBP', { reference_id: 'chk_1', custom_id: 'checkout-1' }));
    expect(res.status).toBe(201);
    expect(res.headers.get('paypal-debug-id')).toMatch(/^[0-9a-f]{13}$/);
    expect(res.body).toEqual({
      id: expect.stringMatching(ID),
      status: 'CREATED',
      intent: 'CAPTURE',
      purchase_units: [
        {
          reference_id: 'chk_1',
          custom_id: 'checkout-1',
          amount: { currency_code: 'GBP', value: '12.34' },
          payee: { email_address: expect.any(String), merchant_id: expect.any(String) },
        },
      ],
      create_time: expect.stringMatching(TIME),
      links: expect.arrayContaining([
        { href: `${fake.url}/v2/checkout/orders/${res.body.id}`, rel: 'self', method: 'GET' },
        { href: expect.stringContaining(res.body.id), rel: 'approve', method: 'GET' },
        { href: `${fake.url}/v2/checkout/orders/${res.body.id}/capture`, rel: 'capture', method: 'POST' },
      ]),
    });
    expect(fake.orders.get(res.body.id)?.status).toBe('CREATED');
  });

  it("defaults reference_id to 'default' and answers minimally on Prefer: return=minimal", async () => {
    const full = await create();
    expect(full.body.purchase_units[0].reference_id).toBe('default');
    const minimal = await create(orderBody(), { Prefer: 'return=minimal' });
    expect(minimal.status).toBe(201);
    expect(Object.keys(minimal.body).sort()).toEqual(['id', 'links', 'status']);
  });

  it('accepts a breakdown and items that add up', async () => {
    const res = await create(
      orderBody('25.00', 'GBP', {
        amount: {
          currency_code: 'GBP',
          value: '25.00',
          breakdown: {
            item_total: { currency_code: 'GBP', value: '20.00' },
            shipping: { currency_code: 'GBP', value: '7.00' },
            discount: { currency_code: 'GBP', value: '2.00' },
          },
        },
        items: [
          { name: 'Chiefs cap', quantity: '2', unit_amount: { currency_code: 'GBP', value: '7.50' } },
          { name: 'Jersey patch', quantity: '1', unit_amount: { currency_code: 'GBP', value: '5.00' } },
        ],
      }),
    );
    expect(res.status).toBe(201);
    expect(res.body.purchase_units[0].items).toHaveLength(2);
    expect(res.body.purchase_units[0].amount.breakdown.item_total.value).toBe('20.00');
  });

  it.each([
    ['three decimals', orderBody('12.345'), 422, 'DECIMAL_PRECISION'],
    ['one decimal', orderBody('12.3'), 422, 'DECIMAL_PRECISION'],
    ['no decimals', orderBody('12'), 422, 'DECIMAL_PRECISION'],
    ['zero', orderBody('0.00'), 422, 'CANNOT_BE_ZERO_OR_NEGATIVE'],
    ['a negative value', orderBody('-5.00'), 422, 'CANNOT_BE_ZERO_OR_NEGATIVE'],
    ['an unsupported currency', orderBody('12.34', 'XYZ'), 422, 'CURRENCY_NOT_SUPPORTED'],
    ['decimals in a zero-decimal currency', orderBody('100.00', 'JPY'), 422, 'DECIMALS_NOT_SUPPORTED'],
    ['a numeric value', orderBody(12.34 as unknown as string), 400, 'INVALID_PARAMETER_SYNTAX'],
    ['a non-numeric value', orderBody('12,34'), 400, 'INVALID_PARAMETER_SYNTAX'],
    ['a lower-case currency', orderBody('12.34', 'gbp'), 400, 'INVALID_PARAMETER_SYNTAX'],
    ['a two-letter currency', orderBody('12.34', 'GB'), 400, 'INVALID_PARAMETER_SYNTAX'],
    ['no purchase_units', { intent: 'CAPTURE' }, 400, 'MISSING_REQUIRED_PARAMETER'],
    ['empty purchase_units', { intent: 'CAPTURE', purchase_units: [] }, 400, 'INVALID_ARRAY_MIN_ITEMS'],
    ['no amount', { intent: 'CAPTURE', purchase_units: [{}] }, 400, 'MISSING_REQUIRED_PARAMETER'],
    [
      'no intent',
      { purchase_units: [{ amount: { currency_code: 'GBP', value: '1.00' } }] },
      400,
      'MISSING_REQUIRED_PARAMETER',
    ],
    ['intent AUTHORIZE', { ...(orderBody() as object), intent: 'AUTHORIZE' }, 400, 'INVALID_PARAMETER_VALUE'],
    ['a JSON array', [1, 2], 400, 'MALFORMED_REQUEST_JSON'],
    ['an unknown fake mode', orderBody('1.00', 'GBP', { custom_id: 'fake:bogus' }), 400, 'INVALID_PARAMETER_VALUE'],
    [
      'a breakdown that does not add up',
      orderBody('10.00', 'GBP', {
        amount: {
          currency_code: 'GBP',
          value: '10.00',
          breakdown: { item_total: { currency_code: 'GBP', value: '9.00' } },
        },
      }),
      422,
      'AMOUNT_MISMATCH',
    ],
    [
      'items that do not add up to item_total',
      orderBody('10.00', 'GBP', {
        amount: {
          currency_code: 'GBP',
          value: '10.00',
          breakdown: { item_total: { currency_code: 'GBP', value: '10.00' } },
        },
        items: [{ name: 'Cap', quantity: '3', unit_amount: { currency_code: 'GBP', value: '3.00' } }],
      }),
      422,
      'ITEM_TOTAL_MISMATCH',
    ],
    [
      'items without item_total',
      orderBody('9.00', 'GBP', {
        items: [{ name: 'Cap', quantity: '3', unit_amount: { currency_code: 'GBP', value: '3.00' } }],
      }),
      422,
      'ITEM_TOTAL_REQUIRED',
    ],
  ])('refuses %s', async (_what, body, status, issue) => {
    const res = await create(body);
    expectPayPalError(res, status, status === 422 ? 'UNPROCESSABLE_ENTITY' : 'INVALID_REQUEST', issue);
    expect(fake.orders.size).toBe(0);
  });

  it('names the offending field and value', async () => {
    const res = await create(orderBody('12.345'));
    expect(res.body.details[0]).toMatchObject({
      field: '/purchase_units/0/amount/value',
      value: '12.345',
      location: 'body',
    });
    expect(res.body.links[0]).toMatchObject({ rel: 'information_link' });
  });
});

describe('POST /v2/checkout/orders/:id/capture', () => {
  it('captures: COMPLETED, payer, and a COMPLETED capture of the created amount', async () => {
    const id = await createdId(orderBody('49.99', 'GBP', { custom_id: 'checkout-7' }));
    const res = await capture(id);
    expect(res.status).toBe(201);
    expect(res.body.id).toBe(id);
    expect(res.body.status).toBe('COMPLETED');
    expect(res.body.payer).toEqual({
      name: { given_name: expect.any(String), surname: expect.any(String) },
      email_address: expect.stringContaining('@'),
      payer_id: expect.stringMatching(/^[0-9A-Z]{13}$/),
      address: { country_code: 'GB' },
    });
    expect(res.body.payment_source.paypal.account_id).toBe(res.body.payer.payer_id);
    const cap = res.body.purchase_units[0].payments.captures[0];
    expect(cap).toMatchObject({
      id: expect.stringMatching(ID),
      status: 'COMPLETED',
      amount: { currency_code: 'GBP', value: '49.99' },
      final_capture: true,
      custom_id: 'checkout-7',
      create_time: expect.stringMatching(TIME),
    });
    expect(cap.seller_receivable_breakdown.gross_amount).toEqual({ currency_code: 'GBP', value: '49.99' });
    // like PayPal's default capture answer: the purchase unit carries payments, not the order amount
    expect(res.body.purchase_units[0].amount).toBeUndefined();
  });

  it('answers the whole order on Prefer: return=representation', async () => {
    const id = await createdId();
    const res = await capture(id, { Prefer: 'return=representation' });
    expect(res.status).toBe(201);
    expect(res.body.purchase_units[0].amount).toEqual({ currency_code: 'GBP', value: '12.34' });
    expect(res.body.purchase_units[0].payments.captures[0].status).toBe('COMPLETED');
  });

  it('refuses a second capture with 422 ORDER_ALREADY_CAPTURED', async () => {
    const id = await createdId();
    expect((await capture(id)).status).toBe(201);
    expectPayPalError(await capture(id), 422, 'UNPROCESSABLE_ENTITY', 'ORDER_ALREADY_CAPTURED');
    expect(fake.orders.get(id)?.purchase_units[0].payments?.captures).toHaveLength(1);
  });

  it('answers 404 RESOURCE_NOT_FOUND for an unknown order', async () => {
    expectPayPalError(await capture('5O190127TN364715T'), 404, 'RESOURCE_NOT_FOUND', 'INVALID_RESOURCE_ID');
    expectPayPalError(await capture('%E0%A4%A'), 404, 'RESOURCE_NOT_FOUND');
  });

  it('refuses a malformed capture body but accepts an empty one or {}', async () => {
    const id = await createdId();
    const bad = await call('POST', `/v2/checkout/orders/${id}/capture`, {
      raw: '{oops',
      headers: { 'Content-Type': 'application/json' },
    });
    expectPayPalError(bad, 400, 'INVALID_REQUEST', 'MALFORMED_REQUEST_JSON');
    const ok = await call('POST', `/v2/checkout/orders/${id}/capture`, { body: {} });
    expect(ok.status).toBe(201);
  });
});

describe('GET /v2/checkout/orders/:id', () => {
  it('shows the order as it stands: CREATED, then COMPLETED with its capture', async () => {
    const id = await createdId(orderBody('5.00'));
    const before = await getOrder(id);
    expect(before.status).toBe(200);
    expect(before.body).toMatchObject({ id, status: 'CREATED', intent: 'CAPTURE' });
    expect(before.body.purchase_units[0].payments).toBeUndefined();
    const captured = await capture(id);
    const after = await getOrder(id);
    expect(after.body.status).toBe('COMPLETED');
    expect(after.body.purchase_units[0].amount).toEqual({ currency_code: 'GBP', value: '5.00' });
    expect(after.body.purchase_units[0].payments.captures[0]).toEqual(
      captured.body.purchase_units[0].payments.captures[0],
    );
    expect(after.body.payer).toEqual(captured.body.payer);
  });

  it('answers 404 for an unknown order', async () => {
    expectPayPalError(await getOrder('UNKNOWN0000000000'), 404, 'RESOURCE_NOT_FOUND', 'INVALID_RESOURCE_ID');
  });
});

describe('PayPal-Request-Id idempotency', () => {
  it('creates one order for one request id, however often it is sent', async () => {
    const first = await create(orderBody('10.00'), { 'PayPal-Request-Id': 'create-1' });
    const second = await create(orderBody('10.00'), { 'PayPal-Request-Id': 'create-1' });
    const other = await create(orderBody('10.00'), { 'PayPal-Request-Id': 'create-2' });
    expect(second.status).toBe(201);
    expect(second.body).toEqual(first.body);
    expect(other.body.id).not.toBe(first.body.id);
    expect(fake.orders.size).toBe(2);
  });

  it('answers a repeated capture with the same request id with the same answer', async () => {
    const id = await createdId();
    const first = await capture(id, { 'PayPal-Request-Id': `capture-${id}` });
    const again = await capture(id, { 'PayPal-Request-Id': `capture-${id}` });
    expect(again.status).toBe(201);
    expect(again.body).toEqual(first.body);
    expectPayPalError(await capture(id, { 'PayPal-Request-Id': 'another' }), 422, 'UNPROCESSABLE_ENTITY');
    expect(fake.calls().filter((c) => c.requestId === `capture-${id}`)).toHaveLength(2);
  });

  it('refuses a request id longer than 108 characters', async () => {
    expectPayPalError(
      await create(orderBody(), { 'PayPal-Request-Id': 'x'.repeat(109) }),
      400,
      'INVALID_REQUEST',
      'INVALID_STRING_LENGTH',
    );
  });
});

describe('failure modes', () => {
  const captured = async (): Promise<{ id: string; res: Res }> => {
    const id = await createdId(orderBody('20.00'));
    return { id, res: await capture(id) };
  };
  const firstCapture = (body: any): any => body.purchase_units[0].payments.captures[0];

  it('declined: the order is COMPLETED but its capture DECLINED', async () => {
    fake.setMode('declined');
    const { id, res } = await captured();
    expect(res.status).toBe(201);
    expect(res.body.status).toBe('COMPLETED');
    expect(firstCapture(res.body).status).toBe('DECLINED');
    expect(firstCapture((await getOrder(id)).body).status).toBe('DECLINED');
  });

  it('amount-mismatch: the capture is 0.01 more than the order', async () => {
    fake.setMode('amount-mismatch');
    const { id, res } = await captured();
    expect(firstCapture(res.body)).toMatchObject({
      status: 'COMPLETED',
      amount: { currency_code: 'GBP', value: '20.01' },
    });
    expect((await getOrder(id)).body.purchase_units[0].amount.value).toBe('20.00');
  });

  it('currency-mismatch: the capture is in another currency', async () => {
    fake.setMode('currency-mismatch');
    const { res } = await captured();
    expect(firstCapture(res.body).amount).toEqual({ currency_code: 'USD', value: '20.00' });
  });

  it('uncaptured: capture is refused and the order stays APPROVED without a capture', async () => {
    fake.setMode('uncaptured');
    const { id, res } = await captured();
    expectPayPalError(res, 422, 'UNPROCESSABLE_ENTITY', 'INSTRUMENT_DECLINED');
    const order = (await getOrder(id)).body;
    expect(order.status).toBe('APPROVED');
    expect(order.purchase_units[0].payments).toBeUndefined();
    fake.setMode('normal');
    expect((await capture(id)).body.status).toBe('COMPLETED');
  });

  it('error-500: every call answers 500 INTERNAL_SERVER_ERROR until the mode is lifted', async () => {
    const id = await createdId();
    fake.setMode('error-500');
    const tokenRes = await call('POST', '/v1/oauth2/token', {
      raw: 'grant_type=client_credentials',
      headers: { Authorization: basic(fake.clientId, fake.clientSecret) },
    });
    expectPayPalError(tokenRes, 500, 'INTERNAL_SERVER_ERROR');
    expectPayPalError(await create(), 500, 'INTERNAL_SERVER_ERROR');
    expectPayPalError(await capture(id), 500, 'INTERNAL_SERVER_ERROR');
    expectPayPalError(await getOrder(id), 500, 'INTERNAL_SERVER_ERROR');
    fake.setMode('normal');
    expect((await capture(id)).status).toBe(201);
  });

  it('slow: answers only after latencyMs', async () => {
    fake.setMode('slow', { latencyMs: 300 });
    const started = Date.now();
    const res = await create();
    expect(res.status).toBe(201);
    expect(Date.now() - started).toBeGreaterThanOrEqual(280);
    fake.setMode('normal');
    const quick = Date.now();
    await create();
    expect(Date.now() - quick).toBeLessThan(280);
  });

  it('per order by custom_id fake:<mode>, leaving other orders alone', async () => {
    const declined = await createdId(orderBody('3.00', 'GBP', { custom_id: 'fake:declined' }));
    const normal = await createdId(orderBody('3.00'));
    expect(fake.orders.modeOf(declined)).toBe('declined');
    expect(firstCapture((await capture(declined)).body).status).toBe('DECLINED');
    expect(firstCapture((await capture(normal)).body).status).toBe('COMPLETED');
  });

  it("per order overrides the global mode, and error-500 on one order fails only that order's calls", async () => {
    fake.setMode('declined');
    const fine = await createdId(orderBody('3.00', 'GBP', { custom_id: 'fake:normal' }));
    expect(firstCapture((await capture(fine)).body).status).toBe('COMPLETED');
    fake.setMode('normal');
    const broken = await createdId(orderBody('3.00', 'GBP', { custom_id: 'fake:error-500' }));
    expectPayPalError(await capture(broken), 500, 'INTERNAL_SERVER_ERROR');
    expectPayPalError(await getOrder(broken), 500, 'INTERNAL_SERVER_ERROR');
    expect((await create()).status).toBe(201);
    expect(fake.setOrderMode(broken, 'normal')).toBe(true);
    expect((await capture(broken)).status).toBe(201);
    expect(fake.setOrderMode('NOSUCHORDER000000', 'declined')).toBe(false);
  });

  it('refuses an unknown mode from code', () => {
    expect(() => fake.setMode('broken' as never)).toThrow(/unknown fake PayPal mode/);
    expect(fake.mode).toBe('normal');
  });
});

describe('admin endpoints (/__fake) for a separately running fake', () => {
  it('sets the global mode and latency, and reports it', async () => {
    const res = await call('POST', '/__fake/mode', { body: { mode: 'declined', latencyMs: 100 } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ mode: 'declined', latencyMs: 100 });
    expect(fake.mode).toBe('declined');
    expect((await call('GET', '/__fake/mode')).body).toEqual({ mode: 'declined', latencyMs: 100 });
    expect((await call('POST', '/__fake/mode', { body: { mode: 'nope' } })).status).toBe(400);
  });

  it('sets one order’s mode', async () => {
    const id = await createdId();
    const res = await call('POST', '/__fake/mode', { body: { mode: 'amount-mismatch', orderId: id } });
    expect(res.body).toEqual({ orderId: id, mode: 'amount-mismatch' });
    expect((await capture(id)).body.purchase_units[0].payments.captures[0].amount.value).toBe('12.35');
    expect((await call('POST', '/__fake/mode', { body: { mode: 'declined', orderId: 'NOPE' } })).status).toBe(404);
  });

  it('keeps working in error-500 mode, and reset forgets everything', async () => {
    await createdId();
    fake.setMode('error-500');
    const health = await call('GET', '/__fake/health');
    expect(health.body).toEqual({ status: 'ok', mode: 'error-500', orders: 1 });
    const reset = await call('POST', '/__fake/reset');
    expect(reset.body).toEqual({ status: 'reset' });
    expect(fake.mode).toBe('normal');
    expect(fake.orders.size).toBe(0);
    expect(fake.calls()).toEqual([]);
  });

  it('creates a completed order in one call and shows orders and calls', async () => {
    const res = await call('POST', '/__fake/orders', { body: { value: '99.95', mode: 'declined' } });
    expect(res.status).toBe(201);
    expect(res.body.status).toBe('COMPLETED');
    expect(res.body.purchase_units[0].payments.captures[0]).toMatchObject({
      status: 'DECLINED',
      amount: { currency_code: 'GBP', value: '99.95' },
    });
    const shown = await call('GET', `/__fake/orders/${res.body.id}`);
    expect(shown.body).toEqual({ order: res.body, mode: 'declined' });
    expectPayPalError(
      await call('POST', '/__fake/orders', { body: { value: '1.5' } }),
      422,
      'UNPROCESSABLE_ENTITY',
      'DECIMAL_PRECISION',
    );
    await getOrder(res.body.id);
    const calls = (await call('GET', '/__fake/calls')).body;
    expect(calls).toEqual([expect.objectContaining({ method: 'GET', status: 200, orderId: res.body.id })]);
  });
});

describe('createCompletedOrder', () => {
  it('returns the id of a COMPLETED order with a COMPLETED capture', async () => {
    const id = fake.createCompletedOrder({ value: '12.34' });
    expect(id).toMatch(ID);
    const order = fake.orders.get(id);
    expect(order?.status).toBe('COMPLETED');
    expect(order?.purchase_units[0].payments?.captures[0]).toMatchObject({
      status: 'COMPLETED',
      amount: { currency_code: 'GBP', value: '12.34' },
    });
    const viaHttp = await getOrder(id, { Authorization: `Bearer ${fake.issueAccessToken()}` });
    expect(viaHttp.body).toEqual(order);
  });

  it('honours a mode and a currency, and validates like create', () => {
    const uncaptured = fake.createCompletedOrder({ value: '5.00', mode: 'uncaptured' });
    expect(fake.orders.get(uncaptured)?.status).toBe('APPROVED');
    const usd = fake.createCompletedOrder({ value: '5.00', currency: 'USD', mode: 'currency-mismatch' });
    expect(fake.orders.get(usd)?.purchase_units[0].payments?.captures[0].amount.currency_code).toBe('GBP');
    expect(() => fake.createCompletedOrder({ value: '5' })).toThrow(/decimal/i);
  });
});

describe('CORS for the browser test-payment button', () => {
  it('answers the preflight with the allowed headers', async () => {
    const res = await fetch(`${fake.url}/v2/checkout/orders`, {
      method: 'OPTIONS',
      headers: {
        Origin: 'http://localhost:8080',
        'Access-Control-Request-Method': 'POST',
        'Access-Control-Request-Headers': 'content-type,paypal-request-id',
      },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('access-control-allow-methods')).toContain('POST');
    const allowed = (res.headers.get('access-control-allow-headers') ?? '').toLowerCase();
    for (const h of ['authorization', 'content-type', 'paypal-request-id']) expect(allowed).toContain(h);
    expect(fake.calls()).toEqual([]);
  });

  it('adds Access-Control-Allow-Origin to answers, errors included, but not to admin calls', async () => {
    const ok = await create(orderBody(), { Origin: 'http://localhost:8080' });
    expect(ok.headers.get('access-control-allow-origin')).toBe('*');
    const bad = await create(orderBody('1'), { Origin: 'http://localhost:8080' });
    expect(bad.headers.get('access-control-allow-origin')).toBe('*');
    const admin = await call('GET', '/__fake/health');
    expect(admin.headers.get('access-control-allow-origin')).toBeNull();
  });
});

describe('bad input never crashes the fake', () => {
  it('answers malformed JSON with 400 INVALID_REQUEST', async () => {
    const res = await call('POST', '/v2/checkout/orders', {
      raw: '{"intent": "CAPTURE", ',
      headers: { 'Content-Type': 'application/json' },
    });
    expectPayPalError(res, 400, 'INVALID_REQUEST', 'MALFORMED_REQUEST_JSON');
    const empty = await call('POST', '/v2/checkout/orders', { headers: { 'Content-Type': 'application/json' } });
    expectPayPalError(empty, 400, 'INVALID_REQUEST', 'MALFORMED_REQUEST_JSON');
  });

  it('answers a body that is not JSON with 415', async () => {
    const res = await call('POST', '/v2/checkout/orders', {
      raw: JSON.stringify(orderBody()),
      headers: { 'Content-Type': 'text/plain' },
    });
    expectPayPalError(res, 415, 'UNSUPPORTED_MEDIA_TYPE');
  });

  it('answers unknown paths with 404 JSON and wrong methods with 405', async () => {
    const unknown = await call('GET', '/v1/payments/payment');
    expectPayPalError(unknown, 404, 'RESOURCE_NOT_FOUND', 'INVALID_URI');
    expect(unknown.headers.get('content-type')).toBe('application/json');
    const wrong = await call('DELETE', '/v2/checkout/orders');
    expectPayPalError(wrong, 405, 'METHOD_NOT_SUPPORTED');
    expect(wrong.headers.get('allow')).toBe('POST');
  });

  it('refuses a body over 100 KB with 413, then carries on', async () => {
    const huge = JSON.stringify(orderBody('1.00', 'GBP', { description: 'x'.repeat(150 * 1024) }));
    const res = await call('POST', '/v2/checkout/orders', {
      raw: huge,
      headers: { 'Content-Type': 'application/json' },
    });
    expectPayPalError(res, 413, 'INVALID_REQUEST', 'REQUEST_ENTITY_TOO_LARGE');
    expect(fake.orders.size).toBe(0);
    expect((await create()).status).toBe(201);
  });

  it('cuts off a body far over the limit and stays up', async () => {
    const small = await another({ maxBodyBytes: 1024 });
    const outcome = await call('POST', '/v2/checkout/orders', { raw: 'x'.repeat(64 * 1024) }, small).then(
      (res) => res.status,
      () => 'connection closed',
    );
    expect([413, 'connection closed']).toContain(outcome);
    expect((await create(orderBody(), {}, small)).status).toBe(201);
  });

  it('answers a broken HTTP request with 400 and stays up', async () => {
    const net = await import('node:net');
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = net.connect(fake.port, '127.0.0.1', () => socket.write('NOT HTTP AT ALL\r\n\r\n'));
      let data = '';
      socket.on('data', (chunk) => (data += chunk.toString()));
      socket.on('end', () => resolve(data));
      socket.on('error', reject);
    });
    expect(answer).toMatch(/^HTTP\/1\.1 400/);
    expect((await create()).status).toBe(201);
  });
});

describe('bounded state', () => {
  it('keeps at most maxOrders orders, evicting the oldest', async () => {
    const bounded = await another({ maxOrders: 3 });
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push((await create(orderBody(), {}, bounded)).body.id);
    expect(bounded.orders.size).toBe(3);
    expect(bounded.orders.list().map((o) => o.id)).toEqual(ids.slice(2));
    expect((await call('GET', `/v2/checkout/orders/${ids[0]}`, {}, bounded)).status).toBe(404);
  });

  it('keeps at most the last 1000 calls', async () => {
    await Promise.all(Array.from({ length: 1005 }, () => call('GET', '/nowhere')));
    expect(fake.calls()).toHaveLength(1000);
  });
});

describe('lifecycle', () => {
  it('close() does not wait for slow answers', async () => {
    const slow = await startFakePayPal({ mode: 'slow', latencyMs: 60_000 });
    const pending = fetch(`${slow.url}/v2/checkout/orders`, { method: 'POST' }).catch(() => 'closed');
    await new Promise((r) => setTimeout(r, 50));
    const started = Date.now();
    await slow.close();
    expect(Date.now() - started).toBeLessThan(2000);
    expect(await pending).toBe('closed');
  });

  it('refuses to start with NODE_ENV=production', async () => {
    const saved = process.env.NODE_ENV;
    process.env.NODE_ENV = 'production';
    try {
      await expect(startFakePayPal()).rejects.toThrow(/NODE_ENV=production/);
    } finally {
      process.env.NODE_ENV = saved;
    }
  });

  it('reports a port already in use', async () => {
    await expect(startFakePayPal({ port: fake.port })).rejects.toMatchObject({ code: 'EADDRINUSE' });
  });
});
