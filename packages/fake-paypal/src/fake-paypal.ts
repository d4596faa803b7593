// A small in-memory fake of PayPal's REST APIs the shop uses: OAuth client-credentials tokens, Orders v2 (create,
// capture, get) and Payments v2 refunds of captures, with PayPal's paths, shapes and error bodies, plus failure modes
// tests can force.
// node:http and node:crypto only. See README.md.
import { createHash, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { assertNotProduction } from './config';
import {
  decimalsOf,
  fromMinor,
  toMinor,
  validateCreateOrder,
  validateRefundRequest,
  type ValidatedCreateOrder,
  type ValidatedRefund,
} from './order-request';
import { invalidRequest, PayPalError, unprocessable } from './paypal-error';
import {
  captureResource,
  createWebhookSender,
  DEFAULT_WEBHOOK_ID,
  DEFAULT_WEBHOOK_RETRY_DELAYS_MS,
  rawMember,
  type VerifyRequest,
} from './webhooks';
import {
  FAKE_PAYPAL_MODES,
  isFakePayPalMode,
  type CallAuth,
  type CreateCompletedOrderInput,
  type FakePayPal,
  type FakePayPalCall,
  type FakePayPalMode,
  type FakePayPalOptions,
  type Money,
  type PayPalCapture,
  type PayPalOrder,
  type PayPalPayer,
  type PayPalRefund,
  type PurchaseUnit,
} from './types';

export const DEFAULT_CLIENT_ID = 'fake-client-id';
export const DEFAULT_CLIENT_SECRET = 'fake-client-secret';

const DEFAULTS = {
  host: '127.0.0.1',
  port: 0,
  latencyMs: 2000,
  maxOrders: 10_000,
  maxBodyBytes: 100 * 1024,
  tokenTtlSeconds: 32_400,
};
const MAX_TOKENS = 10_000;
const MAX_CALLS = 1000;
/** PayPal's limit on PayPal-Request-Id. */
const MAX_REQUEST_ID_LENGTH = 108;
/** Bodies up to this many times the limit are read and thrown away (so the client reads a clean 413). */
const DRAIN_FACTOR = 10;
const ALNUM = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const APP_ID = 'APP-80W284485P519543T';
const SCOPE = [
  'https://uri.paypal.com/services/payments/payment/authcapture',
  'https://uri.paypal.com/services/payments/refund',
  'https://uri.paypal.com/services/payments/orders/read',
  'openid',
].join(' ');
const PAYEE = { email_address: 'sb-merchant@business.example.com', merchant_id: 'FAKEMERCHANT1' };
const BUYER = { given_name: 'Test', surname: 'Buyer', email_address: 'sb-buyer@personal.example.com' };

/** A PayPal-like id: uppercase letters and digits (orders and captures: 17, payers: 13). */
export function paypalId(length = 17): string {
  let id = '';
  for (let i = 0; i < length; i++) id += ALNUM[randomInt(ALNUM.length)];
  return id;
}

/** PayPal's timestamps: ISO 8601 in UTC, whole seconds. */
function paypalTime(): string {
  return new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** Sets key to value as the newest entry and evicts the oldest entries beyond max. */
function remember<K, V>(map: Map<K, V>, key: K, value: V, max: number): void {
  map.delete(key);
  map.set(key, value);
  while (map.size > max) {
    const oldest = map.keys().next();
    if (oldest.done) break;
    map.delete(oldest.value);
  }
}

function sameSecret(a: string, b: string): boolean {
  const ha = createHash('sha256').update(a).digest();
  const hb = createHash('sha256').update(b).digest();
  return timingSafeEqual(ha, hb);
}

/** An answer with a body that is not PayPal's Orders error shape (OAuth errors, admin answers). */
class Answer extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
  ) {
    super(`HTTP ${status}`);
  }
}

interface StoredOrder {
  order: PayPalOrder;
  /** Per-order mode; when unset the global mode applies. */
  mode?: FakePayPalMode;
}

interface Ctx {
  req: IncomingMessage;
  res: ServerResponse;
  method: string;
  path: string;
  debugId: string;
  base: string;
  auth: CallAuth;
  record: boolean;
  requestId?: string;
  orderId?: string;
  captureId?: string;
}

type Body = { kind: 'ok'; bytes: Buffer } | { kind: 'too-large'; drained: boolean } | { kind: 'aborted' };

function readBody(req: IncomingMessage, limit: number): Promise<Body> {
  return new Promise((resolve) => {
    const declared = Number(req.headers['content-length'] ?? 0);
    if (declared > limit * DRAIN_FACTOR) {
      resolve({ kind: 'too-large', drained: false });
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    const finish = (body: Body): void => {
      if (done) return;
      done = true;
      resolve(body);
    };
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= limit) chunks.push(chunk);
      else if (size > limit * DRAIN_FACTOR) finish({ kind: 'too-large', drained: false });
      else chunks.length = 0;
    });
    req.on('end', () =>
      finish(size > limit ? { kind: 'too-large', drained: true } : { kind: 'ok', bytes: Buffer.concat(chunks) }),
    );
    req.on('error', () => finish({ kind: 'aborted' }));
    req.on('close', () => finish({ kind: 'aborted' }));
  });
}

function parseJsonBody(ctx: Ctx, bytes: Buffer): unknown {
  if (bytes.length === 0) return undefined;
  const type = ctx.req.headers['content-type'];
  if (!type || !/^application\/(?:[\w.+-]+\+)?json\b/i.test(type))
    throw new PayPalError(415, [
      {
        issue: 'UNSUPPORTED_MEDIA_TYPE',
        description: 'The request payload must be JSON (Content-Type: application/json).',
      },
    ]);
  try {
    return JSON.parse(bytes.toString('utf8')) as unknown;
  } catch {
    throw invalidRequest('MALFORMED_REQUEST_JSON', 'The request JSON is not well formed.');
  }
}

function notFound(field: 'order_id' | 'capture_id', id: string | undefined): PayPalError {
  return new PayPalError(404, [
    {
      field,
      value: id?.slice(0, 64),
      location: 'path',
      issue: 'INVALID_RESOURCE_ID',
      description: 'Specified resource ID does not exist. Please check the resource ID and try again.',
    },
  ]);
}

function methodNotAllowed(ctx: Ctx, allow: string): PayPalError {
  ctx.res.setHeader('Allow', allow);
  return new PayPalError(405, [{ issue: 'METHOD_NOT_SUPPORTED', description: `Use ${allow} on this resource.` }]);
}

/** Starts a fake PayPal on host:port (port 0 = a free one). Refuses to run when NODE_ENV is production. */
export async function startFakePayPal(options: FakePayPalOptions = {}): Promise<FakePayPal> {
  assertNotProduction(process.env);
  const host = options.host ?? DEFAULTS.host;
  const clientId = options.clientId ?? DEFAULT_CLIENT_ID;
  const clientSecret = options.clientSecret ?? DEFAULT_CLIENT_SECRET;
  const allowAnonymous = options.allowAnonymous ?? options.allowAnonymousCreate ?? true;
  const maxOrders = positiveInt(options.maxOrders ?? DEFAULTS.maxOrders, 'maxOrders');
  const maxBodyBytes = positiveInt(options.maxBodyBytes ?? DEFAULTS.maxBodyBytes, 'maxBodyBytes');
  const tokenTtlMs = positiveInt(options.tokenTtlSeconds ?? DEFAULTS.tokenTtlSeconds, 'tokenTtlSeconds') * 1000;
  const startLatency = latency(options.latencyMs ?? DEFAULTS.latencyMs);
  const startMode = options.mode ?? 'normal';
  if (!isFakePayPalMode(startMode)) throw new TypeError(`unknown fake PayPal mode: ${String(startMode)}`);

  let mode: FakePayPalMode = startMode;
  let latencyMs = startLatency;
  const orders = new Map<string, StoredOrder>();
  const tokens = new Map<string, number>();
  const replays = new Map<string, { status: number; body: unknown }>();
  /** capture id → the id of the order it belongs to (refunds name the capture). */
  const captureOrders = new Map<string, string>();
  const callLog: FakePayPalCall[] = [];
  const sleeping = new Set<{ timer: NodeJS.Timeout; wake: () => void }>();
  let closed = false;
  let url = '';
  const webhooks = createWebhookSender({
    webhookId: options.webhookId ?? DEFAULT_WEBHOOK_ID,
    url: options.webhookUrl,
    retryDelaysMs: options.webhookRetryDelaysMs ?? DEFAULT_WEBHOOK_RETRY_DELAYS_MS,
    base: () => url,
  });

  // ---- state helpers -------------------------------------------------------------------------------------------

  function sleep(ms: number): Promise<void> {
    if (closed || ms <= 0) return Promise.resolve();
    return new Promise((resolve) => {
      const entry = {
        timer: setTimeout(() => {
          sleeping.delete(entry);
          resolve();
        }, ms),
        wake: resolve,
      };
      sleeping.add(entry);
    });
  }

  function issueAccessToken(): string {
    const token = `A21AA${randomBytes(60).toString('base64url')}`;
    remember(tokens, token, Date.now() + tokenTtlMs, MAX_TOKENS);
    return token;
  }

  function tokenValid(token: string): boolean {
    const expires = tokens.get(token);
    if (expires === undefined) return false;
    if (expires <= Date.now()) {
      tokens.delete(token);
      return false;
    }
    return true;
  }

  function basicValid(encoded: string): boolean {
    const decoded = Buffer.from(encoded, 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon < 0) return false;
    // evaluate both so the time taken does not say which half was wrong
    const idOk = sameSecret(decoded.slice(0, colon), clientId);
    const secretOk = sameSecret(decoded.slice(colon + 1), clientSecret);
    return idOk && secretOk;
  }

  function newOrderId(): string {
    let id = paypalId();
    while (orders.has(id)) id = paypalId();
    return id;
  }

  function createOrder(input: ValidatedCreateOrder, base: string): StoredOrder {
    const id = newOrderId();
    const self = `${base}/v2/checkout/orders/${id}`;
    const order: PayPalOrder = {
      id,
      intent: input.intent,
      status: 'CREATED',
      purchase_units: [{ ...input.unit, payee: { ...PAYEE } }],
      create_time: paypalTime(),
      links: [
        { href: self, rel: 'self', method: 'GET' },
        { href: `${base}/checkoutnow?token=${id}`, rel: 'approve', method: 'GET' },
        { href: self, rel: 'update', method: 'PATCH' },
        { href: `${self}/capture`, rel: 'capture', method: 'POST' },
      ],
    };
    const stored: StoredOrder = { order, ...(input.mode ? { mode: input.mode } : {}) };
    remember(orders, id, stored, maxOrders);
    return stored;
  }

  /** The buyer approves (the fake has no buyer: capture approves on the spot). */
  function approve(order: PayPalOrder): void {
    if (order.payer) return;
    const payer: PayPalPayer = {
      name: { given_name: BUYER.given_name, surname: BUYER.surname },
      email_address: BUYER.email_address,
      payer_id: paypalId(13),
      address: { country_code: 'GB' },
    };
    order.payer = payer;
    order.payment_source = {
      paypal: {
        email_address: payer.email_address,
        account_id: payer.payer_id,
        account_status: 'VERIFIED',
        name: { ...payer.name },
        address: { ...payer.address },
      },
    };
    order.status = 'APPROVED';
    order.update_time = paypalTime();
  }

  /** Captures an order in the given effective mode; throws the PayPalError a refused capture answers. */
  function captureOrder(stored: StoredOrder, effective: FakePayPalMode, base: string): PayPalCapture {
    const { order } = stored;
    if (order.status === 'COMPLETED')
      throw unprocessable(
        'ORDER_ALREADY_CAPTURED',
        "Order already captured. If 'intent=CAPTURE' only one capture per order is allowed.",
      );
    approve(order);
    if (effective === 'uncaptured')
      throw new PayPalError(
        422,
        [
          {
            issue: 'INSTRUMENT_DECLINED',
            description:
              "The instrument presented was either declined by the processor or bank, or it can't be used for this payment.",
          },
        ],
        [{ href: `${base}/checkoutnow?token=${order.id}`, rel: 'redirect', method: 'GET' }],
      );
    const unit = order.purchase_units[0];
    const created = unit.amount.currency_code;
    let amount: Money = { currency_code: created, value: unit.amount.value };
    if (effective === 'amount-mismatch')
      amount = { currency_code: created, value: fromMinor(toMinor(amount.value, created) + 1n, created) };
    if (effective === 'currency-mismatch')
      amount = {
        currency_code: created === 'GBP' ? 'USD' : 'GBP',
        value: decimalsOf(created) === 0 ? `${amount.value}.00` : amount.value,
      };
    const gross = toMinor(amount.value, amount.currency_code);
    let fee = (gross * 29n + 500n) / 1000n + (decimalsOf(amount.currency_code) === 0 ? 0n : 30n);
    if (fee > gross) fee = gross;
    const now = paypalTime();
    const captureId = paypalId();
    const captureUrl = `${base}/v2/payments/captures/${captureId}`;
    const capture: PayPalCapture = {
      id: captureId,
      status: effective === 'declined' ? 'DECLINED' : 'COMPLETED',
      amount,
      final_capture: true,
      seller_protection: { status: 'ELIGIBLE', dispute_categories: ['ITEM_NOT_RECEIVED', 'UNAUTHORIZED_TRANSACTION'] },
      seller_receivable_breakdown: {
        gross_amount: { ...amount },
        paypal_fee: { currency_code: amount.currency_code, value: fromMinor(fee, amount.currency_code) },
        net_amount: { currency_code: amount.currency_code, value: fromMinor(gross - fee, amount.currency_code) },
      },
      ...(unit.custom_id !== undefined ? { custom_id: unit.custom_id } : {}),
      ...(unit.invoice_id !== undefined ? { invoice_id: unit.invoice_id } : {}),
      links: [
        { href: captureUrl, rel: 'self', method: 'GET' },
        { href: `${captureUrl}/refund`, rel: 'refund', method: 'POST' },
        { href: `${base}/v2/checkout/orders/${order.id}`, rel: 'up', method: 'GET' },
      ],
      create_time: now,
      update_time: now,
    };
    unit.payments = { captures: [capture] };
    remember(captureOrders, captureId, order.id, maxOrders);
    order.status = 'COMPLETED';
    order.update_time = now;
    order.links = order.links.filter((l) => l.rel === 'self');
    // PayPal tells the merchant's listener too: the browser may never report the capture.
    if (capture.status === 'COMPLETED')
      webhooks.emit(
        'PAYMENT.CAPTURE.COMPLETED',
        captureResource(capture, order.id),
        `Payment completed for ${amount.currency_code} ${amount.value}`,
      );
    else
      webhooks.emit(
        'PAYMENT.CAPTURE.DENIED',
        captureResource(capture, order.id),
        `A ${amount.currency_code} ${amount.value} capture payment was denied`,
      );
    return capture;
  }

  /** What a capture answers by default (like PayPal's `Prefer: return=minimal`): no purchase_units[].amount. */
  function captureAnswer(order: PayPalOrder): unknown {
    return {
      id: order.id,
      status: order.status,
      payment_source: order.payment_source,
      purchase_units: order.purchase_units.map((u) => ({ reference_id: u.reference_id, payments: u.payments })),
      payer: order.payer,
      links: order.links,
    };
  }

  /**
   * Refunds `request.amount` of a capture, or all that remains of it; throws the PayPalError PayPal answers for a
   * refund it refuses. The capture reads PARTIALLY_REFUNDED, then REFUNDED once nothing remains.
   */
  function refundCapture(
    stored: StoredOrder,
    payments: NonNullable<PurchaseUnit['payments']>,
    capture: PayPalCapture,
    request: ValidatedRefund,
    base: string,
  ): PayPalRefund {
    if (capture.status !== 'COMPLETED' && capture.status !== 'PARTIALLY_REFUNDED' && capture.status !== 'REFUNDED')
      throw unprocessable('REFUND_NOT_ALLOWED', 'Capture cannot be refunded.');
    const currency = capture.amount.currency_code;
    const captured = toMinor(capture.amount.value, currency);
    // The fake makes one capture per order, so every refund of the order is a refund of this capture.
    const earlier = payments.refunds ?? [];
    const refunded = earlier.reduce((sum, r) => sum + toMinor(r.amount.value, r.amount.currency_code), 0n);
    const remaining = captured - refunded;
    if (remaining <= 0n) throw unprocessable('CAPTURE_FULLY_REFUNDED', 'The capture has already been fully refunded.');
    const asked = request.amount;
    if (asked && asked.money.currency_code !== currency)
      throw unprocessable(
        'REFUND_CAPTURE_CURRENCY_MISMATCH',
        'Refund must be in the same currency as the capture.',
        '/amount/currency_code',
        asked.money.currency_code,
      );
    if (asked && asked.minor > remaining)
      throw unprocessable(
        'REFUND_AMOUNT_EXCEEDED',
        'The refund amount must be less than or equal to the capture amount that has not yet been refunded.',
        '/amount/value',
        asked.money.value,
      );
    const minor = asked?.minor ?? remaining;
    const amount: Money = { currency_code: currency, value: fromMinor(minor, currency) };
    const now = paypalTime();
    const id = paypalId();
    const refund: PayPalRefund = {
      id,
      status: 'COMPLETED',
      amount,
      ...(request.note_to_payer !== undefined ? { note_to_payer: request.note_to_payer } : {}),
      seller_payable_breakdown: {
        gross_amount: { ...amount },
        // PayPal keeps its fee on a refund: the seller pays back the whole amount.
        paypal_fee: { currency_code: currency, value: fromMinor(0n, currency) },
        net_amount: { ...amount },
        total_refunded_amount: { currency_code: currency, value: fromMinor(refunded + minor, currency) },
      },
      ...(request.invoice_id !== undefined ? { invoice_id: request.invoice_id } : {}),
      ...(request.custom_id !== undefined ? { custom_id: request.custom_id } : {}),
      create_time: now,
      update_time: now,
      links: [
        { href: `${base}/v2/payments/refunds/${id}`, rel: 'self', method: 'GET' },
        { href: `${base}/v2/payments/captures/${capture.id}`, rel: 'up', method: 'GET' },
      ],
    };
    payments.refunds = [...earlier, refund];
    capture.status = refunded + minor === captured ? 'REFUNDED' : 'PARTIALLY_REFUNDED';
    capture.update_time = now;
    stored.order.update_time = now;
    return refund;
  }

  // ---- HTTP ----------------------------------------------------------------------------------------------------

  function reply(ctx: Ctx, status: number, body: unknown): void {
    const { res } = ctx;
    if (ctx.record) {
      callLog.push({
        method: ctx.method,
        path: ctx.path,
        status,
        auth: ctx.auth,
        ...(ctx.requestId !== undefined ? { requestId: ctx.requestId } : {}),
        ...(ctx.orderId !== undefined ? { orderId: ctx.orderId } : {}),
        ...(ctx.captureId !== undefined ? { captureId: ctx.captureId } : {}),
        at: new Date().toISOString(),
      });
      if (callLog.length > MAX_CALLS) callLog.splice(0, callLog.length - MAX_CALLS);
    }
    if (res.headersSent || res.destroyed || res.writableEnded) return;
    const payload = body === undefined ? '' : JSON.stringify(body);
    res.statusCode = status;
    if (payload) {
      res.setHeader('Content-Type', 'application/json');
      res.setHeader('Content-Length', Buffer.byteLength(payload));
    }
    res.end(payload);
  }

  function authenticate(ctx: Ctx): void {
    const header = ctx.req.headers.authorization?.trim();
    if (!header) {
      if (allowAnonymous) {
        ctx.auth = 'anonymous';
        return;
      }
      ctx.auth = 'rejected';
      throw new PayPalError(401);
    }
    const [scheme = '', credentials = ''] = header.split(/\s+/, 2);
    if (/^bearer$/i.test(scheme)) {
      if (tokenValid(credentials)) {
        ctx.auth = 'bearer';
        return;
      }
      ctx.auth = 'rejected';
      throw new Answer(401, { error: 'invalid_token', error_description: 'Token signature verification failed' });
    }
    if (/^basic$/i.test(scheme) && basicValid(credentials)) {
      ctx.auth = 'basic';
      return;
    }
    ctx.auth = 'rejected';
    throw new PayPalError(401);
  }

  function readRequestId(ctx: Ctx): string | undefined {
    const raw = ctx.req.headers['paypal-request-id'];
    const value = Array.isArray(raw) ? raw[0] : raw;
    if (value === undefined || value === '') return undefined;
    if (value.length > MAX_REQUEST_ID_LENGTH)
      throw invalidRequest(
        'INVALID_STRING_LENGTH',
        `PayPal-Request-Id must be at most ${MAX_REQUEST_ID_LENGTH} characters.`,
        'PayPal-Request-Id',
      );
    ctx.requestId = value;
    return value;
  }

  function prefer(ctx: Ctx): 'minimal' | 'representation' | undefined {
    const header = String(ctx.req.headers.prefer ?? '').toLowerCase();
    if (header.includes('return=representation')) return 'representation';
    if (header.includes('return=minimal')) return 'minimal';
    return undefined;
  }

  /** Replays the stored answer of an earlier call with the same PayPal-Request-Id, if any. */
  function replayed(ctx: Ctx, key: string): boolean {
    const hit = replays.get(key);
    if (!hit) return false;
    reply(ctx, hit.status, structuredClone(hit.body));
    return true;
  }

  function answerOnce(ctx: Ctx, key: string | undefined, status: number, body: unknown): void {
    if (key !== undefined) remember(replays, key, { status, body: structuredClone(body) }, maxOrders * 2);
    reply(ctx, status, body);
  }

  /** error-500 and slow set on one order apply to every call about that order. */
  async function orderHttpMode(stored: StoredOrder): Promise<void> {
    if (stored.mode === 'error-500') throw new PayPalError(500);
    if (stored.mode === 'slow' && mode !== 'slow') await sleep(latencyMs);
  }

  function lookup(ctx: Ctx): StoredOrder {
    const stored = ctx.orderId === undefined ? undefined : orders.get(ctx.orderId);
    if (!stored) throw notFound('order_id', ctx.orderId);
    return stored;
  }

  /** The order and capture a refund names (ctx.captureId), or PayPal's 404 for an unknown capture. */
  function lookupCapture(ctx: Ctx): {
    stored: StoredOrder;
    payments: NonNullable<PurchaseUnit['payments']>;
    capture: PayPalCapture;
  } {
    const orderId = ctx.captureId === undefined ? undefined : captureOrders.get(ctx.captureId);
    const stored = orderId === undefined ? undefined : orders.get(orderId);
    const payments = stored?.order.purchase_units[0].payments;
    const capture = payments?.captures.find((c) => c.id === ctx.captureId);
    if (!stored || !payments || !capture) throw notFound('capture_id', ctx.captureId);
    ctx.orderId = stored.order.id;
    return { stored, payments, capture };
  }

  function token(ctx: Ctx, bytes: Buffer): void {
    const match = /^basic\s+(\S+)$/i.exec(ctx.req.headers.authorization?.trim() ?? '');
    if (!match || !basicValid(match[1])) {
      ctx.auth = 'rejected';
      throw new Answer(401, { error: 'invalid_client', error_description: 'Client Authentication failed' });
    }
    ctx.auth = 'basic';
    const grant = new URLSearchParams(bytes.toString('utf8')).get('grant_type');
    if (grant !== 'client_credentials')
      throw new Answer(400, {
        error: 'unsupported_grant_type',
        error_description: grant ? 'unsupported grant_type' : 'Grant Type is NULL',
      });
    reply(ctx, 200, {
      scope: SCOPE,
      access_token: issueAccessToken(),
      token_type: 'Bearer',
      app_id: APP_ID,
      expires_in: tokenTtlMs / 1000,
      nonce: `${paypalTime()}${randomBytes(24).toString('base64url')}`,
    });
  }

  function create(ctx: Ctx, bytes: Buffer): void {
    authenticate(ctx);
    const requestId = readRequestId(ctx);
    const key = requestId === undefined ? undefined : `create|${requestId}`;
    if (key !== undefined && replayed(ctx, key)) return;
    const body = parseJsonBody(ctx, bytes);
    if (body === undefined) throw invalidRequest('MALFORMED_REQUEST_JSON', 'The request JSON is not well formed.');
    const stored = createOrder(validateCreateOrder(body), ctx.base);
    ctx.orderId = stored.order.id;
    const { order } = stored;
    answerOnce(
      ctx,
      key,
      201,
      prefer(ctx) === 'minimal' ? { id: order.id, status: order.status, links: order.links } : structuredClone(order),
    );
  }

  async function capture(ctx: Ctx, bytes: Buffer): Promise<void> {
    authenticate(ctx);
    const requestId = readRequestId(ctx);
    const stored = lookup(ctx);
    await orderHttpMode(stored);
    const key = requestId === undefined ? undefined : `capture|${stored.order.id}|${requestId}`;
    if (key !== undefined && replayed(ctx, key)) return;
    const body = parseJsonBody(ctx, bytes);
    if (body !== undefined && (typeof body !== 'object' || body === null || Array.isArray(body)))
      throw invalidRequest('MALFORMED_REQUEST_JSON', 'The request JSON is not well formed.');
    captureOrder(stored, stored.mode ?? mode, ctx.base);
    const { order } = stored;
    answerOnce(
      ctx,
      key,
      201,
      prefer(ctx) === 'representation' ? structuredClone(order) : structuredClone(captureAnswer(order)),
    );
  }

  /** POST /v2/payments/captures/:id/refund (Payments v2). */
  async function refund(ctx: Ctx, bytes: Buffer): Promise<void> {
    try {
      authenticate(ctx);
      const requestId = readRequestId(ctx);
      const { stored, payments, capture } = lookupCapture(ctx);
      await orderHttpMode(stored);
      const key = requestId === undefined ? undefined : `refund|${capture.id}|${requestId}`;
      if (key !== undefined && replayed(ctx, key)) return;
      const request = validateRefundRequest(parseJsonBody(ctx, bytes));
      if ((stored.mode ?? mode) === 'refund-refused')
        throw unprocessable(
          'REFUND_FAILED_INSUFFICIENT_FUNDS',
          'Capture could not be refunded due to insufficient funds.',
        );
      const made = refundCapture(stored, payments, capture, request, ctx.base);
      announceRefund('PAYMENT.CAPTURE.REFUNDED', made);
      answerOnce(
        ctx,
        key,
        201,
        prefer(ctx) === 'representation'
          ? structuredClone(made)
          : { id: made.id, status: made.status, links: structuredClone(made.links) },
      );
    } catch (err) {
      // Same bodies as Orders errors; the information_link points into the Payments reference.
      if (err instanceof PayPalError) throw new PayPalError(err.status, err.details, err.links, 'payments');
      throw err;
    }
  }

  /** PAYMENT.CAPTURE.REFUNDED (or REVERSED): the refund as the event's resource, its capture in the `up` link. */
  function announceRefund(type: 'PAYMENT.CAPTURE.REFUNDED' | 'PAYMENT.CAPTURE.REVERSED', made: PayPalRefund): void {
    const summary =
      type === 'PAYMENT.CAPTURE.REFUNDED'
        ? `A ${made.amount.currency_code} ${made.amount.value} capture payment was refunded`
        : `A ${made.amount.currency_code} ${made.amount.value} capture payment was reversed`;
    webhooks.emit(type, structuredClone(made) as unknown as Record<string, unknown>, summary);
  }

  /** A refund made outside the API (PayPal's dashboard, a chargeback): validated as the API's, then announced. */
  function refundOutsideApi(
    captureId: string,
    value: string | undefined,
    type: 'PAYMENT.CAPTURE.REFUNDED' | 'PAYMENT.CAPTURE.REVERSED',
  ): PayPalRefund {
    const orderId = captureOrders.get(captureId);
    const stored = orderId === undefined ? undefined : orders.get(orderId);
    const payments = stored?.order.purchase_units[0].payments;
    const capture = payments?.captures.find((c) => c.id === captureId);
    if (!stored || !payments || !capture) throw notFound('capture_id', captureId);
    const request = validateRefundRequest(
      value === undefined ? undefined : { amount: { currency_code: capture.amount.currency_code, value } },
    );
    const made = refundCapture(stored, payments, capture, request, url);
    announceRefund(type, made);
    return made;
  }

  /** POST /v1/notifications/verify-webhook-signature (Webhooks v1): SUCCESS or FAILURE, over the event's raw text. */
  function verifySignature(ctx: Ctx, bytes: Buffer): void {
    authenticate(ctx);
    const body = parseJsonBody(ctx, bytes);
    if (typeof body !== 'object' || body === null || Array.isArray(body))
      throw invalidRequest('MALFORMED_REQUEST_JSON', 'The request JSON is not well formed.');
    const fields = body as Record<string, unknown>;
    for (const name of [
      'auth_algo',
      'cert_url',
      'transmission_id',
      'transmission_sig',
      'transmission_time',
      'webhook_id',
    ] as const) {
      if (typeof fields[name] !== 'string' || fields[name] === '')
        throw new PayPalError(400, [
          {
            field: name,
            location: 'body',
            issue: 'MISSING_REQUIRED_PARAMETER',
            description: 'A required field / parameter is missing.',
          },
        ]);
    }
    const raw = rawMember(bytes.toString('utf8'), 'webhook_event');
    if (raw === undefined || typeof fields.webhook_event !== 'object' || fields.webhook_event === null)
      throw new PayPalError(400, [
        {
          field: 'webhook_event',
          location: 'body',
          issue: 'MISSING_REQUIRED_PARAMETER',
          description: 'A required field / parameter is missing.',
        },
      ]);
    reply(ctx, 200, { verification_status: webhooks.verify(fields as unknown as VerifyRequest, raw) });
  }

  async function getOrder(ctx: Ctx): Promise<void> {
    authenticate(ctx);
    const stored = lookup(ctx);
    await orderHttpMode(stored);
    reply(ctx, 200, structuredClone(stored.order));
  }

  function setModeChecked(next: unknown, nextLatency?: unknown): void {
    if (!isFakePayPalMode(next))
      throw new TypeError(
        `unknown fake PayPal mode ${JSON.stringify(next)}; use one of ${FAKE_PAYPAL_MODES.join(', ')}`,
      );
    if (nextLatency !== undefined) latencyMs = latency(nextLatency);
    mode = next;
  }

  function reset(): void {
    orders.clear();
    captureOrders.clear();
    tokens.clear();
    replays.clear();
    callLog.length = 0;
    mode = startMode;
    latencyMs = startLatency;
    webhooks.reset();
  }

  function createCompletedOrder(input: CreateCompletedOrderInput, base = url): StoredOrder {
    if (input.mode !== undefined && !isFakePayPalMode(input.mode))
      throw new TypeError(`unknown fake PayPal mode ${JSON.stringify(input.mode)}`);
    const validated = validateCreateOrder({
      intent: 'CAPTURE',
      purchase_units: [
        {
          amount: { currency_code: input.currency ?? 'GBP', value: input.value },
          reference_id: input.reference_id,
          custom_id: input.custom_id,
          invoice_id: input.invoice_id,
        },
      ],
    });
    if (input.mode !== undefined) validated.mode = input.mode;
    const stored = createOrder(validated, base);
    try {
      captureOrder(stored, stored.mode ?? 'normal', base);
    } catch (err) {
      // 'uncaptured': the order stays APPROVED, which is the point
      if (!(err instanceof PayPalError && stored.mode === 'uncaptured')) throw err;
    }
    return stored;
  }

  /** /__fake/...: driving the fake from another process. Not subject to the failure modes, no CORS. */
  async function admin(ctx: Ctx, bytes: Buffer): Promise<void> {
    const { method, path } = ctx;
    const body = parseJsonBody(ctx, bytes);
    const fields = (body ?? {}) as Record<string, unknown>;
    if (body !== undefined && (typeof body !== 'object' || body === null || Array.isArray(body)))
      throw new Answer(400, { error: 'body must be a JSON object' });
    if (path === '/__fake/health') {
      if (method !== 'GET') throw methodNotAllowed(ctx, 'GET');
      return reply(ctx, 200, { status: 'ok', mode, orders: orders.size });
    }
    if (path === '/__fake/mode') {
      if (method === 'GET') return reply(ctx, 200, { mode, latencyMs });
      if (method !== 'POST') throw methodNotAllowed(ctx, 'GET, POST');
      if (!isFakePayPalMode(fields.mode))
        throw new Answer(400, { error: `mode must be one of ${FAKE_PAYPAL_MODES.join(', ')}` });
      if (fields.orderId !== undefined) {
        const stored = typeof fields.orderId === 'string' ? orders.get(fields.orderId) : undefined;
        if (!stored) throw new Answer(404, { error: 'unknown order' });
        stored.mode = fields.mode;
        return reply(ctx, 200, { orderId: stored.order.id, mode: stored.mode });
      }
      try {
        setModeChecked(fields.mode, fields.latencyMs);
      } catch (err) {
        throw new Answer(400, { error: (err as Error).message });
      }
      return reply(ctx, 200, { mode, latencyMs });
    }
    if (path === '/__fake/reset') {
      if (method !== 'POST') throw methodNotAllowed(ctx, 'POST');
      reset();
      return reply(ctx, 200, { status: 'reset' });
    }
    if (path === '/__fake/calls') {
      if (method !== 'GET') throw methodNotAllowed(ctx, 'GET');
      return reply(ctx, 200, callLog);
    }
    if (path === '/__fake/orders') {
      if (method !== 'POST') throw methodNotAllowed(ctx, 'POST');
      if (typeof fields.value !== 'string') throw new Answer(400, { error: 'value must be a string like "12.34"' });
      if (fields.mode !== undefined && !isFakePayPalMode(fields.mode))
        throw new Answer(400, { error: `mode must be one of ${FAKE_PAYPAL_MODES.join(', ')}` });
      const stored = createCompletedOrder(
        {
          value: fields.value,
          currency: typeof fields.currency === 'string' ? fields.currency : undefined,
          mode: fields.mode,
          reference_id: typeof fields.reference_id === 'string' ? fields.reference_id : undefined,
          custom_id: typeof fields.custom_id === 'string' ? fields.custom_id : undefined,
          invoice_id: typeof fields.invoice_id === 'string' ? fields.invoice_id : undefined,
        },
        ctx.base,
      );
      return reply(ctx, 201, structuredClone(stored.order));
    }
    if (path === '/__fake/webhooks') {
      if (method === 'GET')
        return reply(ctx, 200, {
          webhookId: webhooks.webhookId,
          url: webhooks.url ?? null,
          events: webhooks.events(),
          deliveries: webhooks.deliveries(),
        });
      if (method !== 'POST') throw methodNotAllowed(ctx, 'GET, POST');
      if (
        fields.url !== undefined &&
        fields.url !== null &&
        (typeof fields.url !== 'string' || !/^https?:\/\//.test(fields.url))
      )
        throw new Answer(400, { error: 'url must be an http(s) URL or null' });
      const delays = fields.retryDelaysMs;
      if (
        delays !== undefined &&
        (!Array.isArray(delays) ||
          delays.length > 30 ||
          !delays.every((d) => Number.isInteger(d) && d >= 0 && d <= 600_000))
      )
        throw new Answer(400, { error: 'retryDelaysMs must be at most 30 whole numbers of ms from 0 to 600000' });
      if (fields.url !== undefined) webhooks.setUrl((fields.url as string | null) ?? undefined);
      if (delays !== undefined) webhooks.setRetryDelays(delays as number[]);
      return reply(ctx, 200, { webhookId: webhooks.webhookId, url: webhooks.url ?? null });
    }
    const dashboardMatch = /^\/__fake\/captures\/([^/]+)\/(refund|reverse)$/.exec(path);
    if (dashboardMatch) {
      if (method !== 'POST') throw methodNotAllowed(ctx, 'POST');
      if (fields.value !== undefined && typeof fields.value !== 'string')
        throw new Answer(400, { error: 'value must be a string like "12.34"' });
      const captureId = safeDecode(dashboardMatch[1]);
      const made =
        dashboardMatch[2] === 'refund'
          ? refundOutsideApi(captureId, fields.value as string | undefined, 'PAYMENT.CAPTURE.REFUNDED')
          : refundOutsideApi(captureId, undefined, 'PAYMENT.CAPTURE.REVERSED');
      return reply(ctx, 201, structuredClone(made));
    }
    const orderMatch = /^\/__fake\/orders\/([^/]+)$/.exec(path);
    if (orderMatch) {
      if (method !== 'GET') throw methodNotAllowed(ctx, 'GET');
      const stored = orders.get(safeDecode(orderMatch[1]));
      if (!stored) throw new Answer(404, { error: 'unknown order' });
      return reply(ctx, 200, { order: structuredClone(stored.order), mode: stored.mode ?? null });
    }
    throw new Answer(404, { error: 'no such admin path' });
  }

  async function route(ctx: Ctx): Promise<void> {
    const { req, res, method, path } = ctx;
    const isAdmin = path.startsWith('/__fake/');
    ctx.record = !isAdmin && method !== 'OPTIONS';
    if (!isAdmin) {
      res.setHeader('Access-Control-Allow-Origin', '*');
      res.setHeader('Access-Control-Expose-Headers', 'Paypal-Debug-Id');
    }
    res.setHeader('Paypal-Debug-Id', ctx.debugId);

    const body = await readBody(req, maxBodyBytes);
    if (body.kind === 'aborted') return;
    if (body.kind === 'too-large') {
      if (!body.drained) res.setHeader('Connection', 'close');
      throw new PayPalError(413, [
        { issue: 'REQUEST_ENTITY_TOO_LARGE', description: `Request bodies are limited to ${maxBodyBytes} bytes.` },
      ]);
    }
    if (isAdmin) return admin(ctx, body.bytes);

    if (method === 'OPTIONS') {
      res.setHeader('Access-Control-Allow-Methods', 'GET, POST, OPTIONS');
      res.setHeader('Access-Control-Allow-Headers', 'Authorization, Content-Type, PayPal-Request-Id, Prefer');
      res.setHeader('Access-Control-Max-Age', '600');
      return reply(ctx, 204, undefined);
    }

    if (mode === 'error-500') throw new PayPalError(500);
    if (mode === 'slow') await sleep(latencyMs);

    if (path === '/v1/oauth2/token') {
      if (method !== 'POST') throw methodNotAllowed(ctx, 'POST');
      return token(ctx, body.bytes);
    }
    if (path === '/v2/checkout/orders') {
      if (method !== 'POST') throw methodNotAllowed(ctx, 'POST');
      return create(ctx, body.bytes);
    }
    const match = /^\/v2\/checkout\/orders\/([^/]+)(\/capture)?$/.exec(path);
    if (match) {
      ctx.orderId = safeDecode(match[1]);
      if (match[2]) {
        if (method !== 'POST') throw methodNotAllowed(ctx, 'POST');
        return capture(ctx, body.bytes);
      }
      if (method !== 'GET') throw methodNotAllowed(ctx, 'GET');
      return getOrder(ctx);
    }
    if (path === '/v1/notifications/verify-webhook-signature') {
      if (method !== 'POST') throw methodNotAllowed(ctx, 'POST');
      return verifySignature(ctx, body.bytes);
    }
    if (path === webhooks.certPath) {
      if (method !== 'GET') throw methodNotAllowed(ctx, 'GET');
      ctx.res.setHeader('Content-Type', 'application/x-pem-file');
      ctx.res.end(webhooks.certPem);
      return;
    }
    const resendMatch = /^\/v1\/notifications\/webhooks-events\/([^/]+)\/resend$/.exec(path);
    if (resendMatch) {
      if (method !== 'POST') throw methodNotAllowed(ctx, 'POST');
      authenticate(ctx);
      const id = safeDecode(resendMatch[1]);
      if (!webhooks.resend(id))
        throw new PayPalError(404, [
          {
            field: 'event_id',
            value: id.slice(0, 64),
            location: 'path',
            issue: 'INVALID_RESOURCE_ID',
            description: 'Specified resource ID does not exist.',
          },
        ]);
      return reply(ctx, 202, { id, status: 'PENDING' });
    }
    const refundMatch = /^\/v2\/payments\/captures\/([^/]+)\/refund$/.exec(path);
    if (refundMatch) {
      ctx.captureId = safeDecode(refundMatch[1]);
      if (method !== 'POST') throw methodNotAllowed(ctx, 'POST');
      return refund(ctx, body.bytes);
    }
    throw new PayPalError(404, [
      { issue: 'INVALID_URI', description: `No resource at ${method} ${path.slice(0, 200)}.` },
    ]);
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const ctx: Ctx = {
      req,
      res,
      method: (req.method ?? 'GET').toUpperCase(),
      path: (req.url ?? '/').split('?')[0] || '/',
      debugId: randomBytes(7).toString('hex').slice(0, 13),
      base: linkBase(req.headers.host, url),
      auth: req.headers.authorization ? 'unchecked' : 'anonymous',
      record: false,
    };
    try {
      await route(ctx);
    } catch (err) {
      if (err instanceof PayPalError) reply(ctx, err.status, err.toBody(ctx.debugId));
      else if (err instanceof Answer) reply(ctx, err.status, err.body);
      else reply(ctx, 500, new PayPalError(500).toBody(ctx.debugId));
    }
  }

  // ---- server --------------------------------------------------------------------------------------------------

  const server = createServer((req, res) => {
    void handle(req, res);
  });
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Socket) => {
    if (err.code === 'ECONNRESET' || !socket.writable) {
      socket.destroy();
      return;
    }
    const body = JSON.stringify({ name: 'INVALID_REQUEST', message: 'Malformed HTTP request.' });
    socket.end(
      `HTTP/1.1 400 Bad Request\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
    );
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? DEFAULTS.port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : (options.port ?? DEFAULTS.port);
  url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;

  let closing: Promise<void> | undefined;
  const fake: FakePayPal = {
    url,
    port,
    host,
    clientId,
    clientSecret,
    get mode() {
      return mode;
    },
    get latencyMs() {
      return latencyMs;
    },
    orders: {
      get: (id) => {
        const stored = orders.get(id);
        return stored ? structuredClone(stored.order) : undefined;
      },
      list: () => [...orders.values()].map((s) => structuredClone(s.order)),
      modeOf: (id) => orders.get(id)?.mode,
      get size() {
        return orders.size;
      },
    },
    setMode: (next, opts) => setModeChecked(next, opts?.latencyMs),
    setOrderMode: (orderId, next) => {
      if (!isFakePayPalMode(next)) throw new TypeError(`unknown fake PayPal mode ${JSON.stringify(next)}`);
      const stored = orders.get(orderId);
      if (!stored) return false;
      stored.mode = next;
      return true;
    },
    reset,
    createCompletedOrder: (input) => createCompletedOrder(input).order.id,
    issueAccessToken,
    calls: () => callLog.map((c) => ({ ...c })),
    webhooks: {
      get webhookId() {
        return webhooks.webhookId;
      },
      get url() {
        return webhooks.url;
      },
      setUrl: (next) => webhooks.setUrl(next),
      setRetryDelays: (delays) => webhooks.setRetryDelays(delays),
      events: () => webhooks.events(),
      deliveries: () => webhooks.deliveries(),
      resend: (id) => webhooks.resend(id),
      sign: (body, time) => webhooks.sign(body, time),
      idle: () => webhooks.idle(),
    },
    dashboardRefund: (captureId, value) => refundOutsideApi(captureId, value, 'PAYMENT.CAPTURE.REFUNDED'),
    reverseCapture: (captureId) => refundOutsideApi(captureId, undefined, 'PAYMENT.CAPTURE.REVERSED'),
    close: () => {
      closing ??= new Promise<void>((resolve) => {
        closed = true;
        webhooks.close();
        for (const entry of sleeping) {
          clearTimeout(entry.timer);
          entry.wake();
        }
        sleeping.clear();
        server.close(() => resolve());
        server.closeAllConnections();
      });
      return closing;
    },
  };
  return fake;
}

function positiveInt(value: number, name: string): number {
  if (!Number.isInteger(value) || value < 1) throw new RangeError(`${name} must be a positive whole number`);
  return value;
}

function latency(value: unknown): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > 600_000)
    throw new RangeError('latencyMs must be a whole number of milliseconds from 0 to 600000');
  return value;
}

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** Links point where the caller reached us (the Host header), when that header looks like a host[:port]. */
function linkBase(hostHeader: string | undefined, fallback: string): string {
  if (hostHeader && /^(?:[A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/.test(hostHeader))
    return `http://${hostHeader}`;
  return fallback;
}
