import { Injectable, Logger, ServiceUnavailableException } from '@nestjs/common';
import { CHECKOUT_MESSAGES } from '@shop/contracts';
import { CheckoutConfig } from '../config/checkout.config';
import { formatAmount } from './paypal-verification';

/** PayPal order ids are short upper-case alphanumerics; anything else never reaches PayPal's URL. */
export const PAYPAL_ORDER_ID = /^[A-Za-z0-9-]{1,64}$/;

/** PayPal's answer to a refund: made (or made before, for the same request id), or refused with PayPal's reason. */
export type RefundAnswer =
  { ok: true; id: string; status: string } | { ok: false; status: number; issue: string; reason: string };

const text = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() ? v.trim() : undefined);

interface Token {
  value: string;
  expiresAt: number;
}

/**
 * PayPal's REST API (Orders v2, Payments v2) with the server's own credentials, over plain fetch so the base
 * URL can point at PayPal's sandbox, live, or our fake. Every call is bounded by PAYPAL_TIMEOUT_MS; a timeout,
 * a network error or a PayPal 5xx is a 503 the shopper may retry.
 */
@Injectable()
export class PayPalClient {
  private readonly logger = new Logger(PayPalClient.name);
  private token?: Token;
  private tokenRequest?: Promise<Token>;

  constructor(private readonly config: CheckoutConfig) {}

  /** GET /v2/checkout/orders/{id}: the order as PayPal knows it, or null when PayPal knows no such order. */
  async getOrder(id: string): Promise<unknown> {
    if (!PAYPAL_ORDER_ID.test(id)) return null;
    const res = await this.call('GET', `/v2/checkout/orders/${encodeURIComponent(id)}`);
    if (res.status === 404) return null;
    if (!res.ok) throw this.unavailable(`get order answered ${res.status}`);
    return res.body;
  }

  /**
   * POST /v2/payments/captures/{id}/refund, the whole capture or `amount` of it; idempotent per `requestId` (PayPal answers a repeat
   * with the refund it made, and refunds nothing more). PayPal refusing the refund (a 4xx about the refund: funds,
   * an already refunded capture, an unknown one) is an answer, with PayPal's reason; a 5xx, a timeout, or PayPal
   * refusing our credentials or rate-limiting us is a 503 to retry.
   */
  async refundCapture(
    captureId: string,
    requestId: string,
    amount?: { pence: number; currency: string },
  ): Promise<RefundAnswer> {
    const res = await this.call('POST', `/v2/payments/captures/${encodeURIComponent(captureId)}/refund`, {
      // A partial refund names its amount (PayPal's two-decimal string); none refunds all that remains.
      body: amount ? { amount: { currency_code: amount.currency, value: formatAmount(amount.pence) } } : {},
      headers: { 'PayPal-Request-Id': requestId },
    });
    if (!res.ok) {
      if ([401, 403, 429].includes(res.status)) throw this.unavailable(`refund answered ${res.status}`);
      const body = (res.body ?? {}) as {
        name?: unknown;
        message?: unknown;
        details?: Array<{ issue?: unknown; description?: unknown }>;
      };
      const detail = Array.isArray(body.details) ? body.details[0] : undefined;
      const issue = text(detail?.issue) ?? text(body.name) ?? `HTTP_${res.status}`;
      const reason = text(detail?.description) ?? text(body.message) ?? `PayPal answered ${res.status}`;
      this.logger.warn(`PayPal refused the refund of capture ${captureId} (${res.status} ${issue}): ${reason}`);
      return { ok: false, status: res.status, issue, reason };
    }
    const body = (res.body ?? {}) as { id?: unknown; status?: unknown };
    return { ok: true, id: String(body.id), status: String(body.status) };
  }

  /**
   * POST /v1/notifications/verify-webhook-signature: whether PayPal signed this webhook delivery for our webhook id.
   * The event goes to PayPal as the exact text that arrived (`rawEvent`), spliced into the request rather than parsed
   * and serialised again: the signature covers those bytes. A 4xx (a field PayPal refuses) is a failed verification;
   * PayPal away or slow is a 503, so the sender retries.
   */
  async verifyWebhookSignature(
    transmission: {
      auth_algo: string;
      cert_url: string;
      transmission_id: string;
      transmission_sig: string;
      transmission_time: string;
    },
    webhookId: string,
    rawEvent: string,
  ): Promise<boolean> {
    const fields = JSON.stringify({ ...transmission, webhook_id: webhookId });
    const res = await this.call('POST', '/v1/notifications/verify-webhook-signature', {
      rawBody: `${fields.slice(0, -1)},"webhook_event":${rawEvent}}`,
    });
    if (res.status === 401 || res.status === 403 || res.status === 429)
      throw this.unavailable(`verify-webhook-signature answered ${res.status}`);
    if (!res.ok) {
      this.logger.warn(`PayPal refused to verify a webhook signature (${res.status})`);
      return false;
    }
    return (res.body as { verification_status?: unknown } | undefined)?.verification_status === 'SUCCESS';
  }

  private async call(
    method: string,
    path: string,
    init: { body?: unknown; rawBody?: string; headers?: Record<string, string> } = {},
    retried = false,
  ): Promise<{ status: number; ok: boolean; body: unknown }> {
    const token = await this.accessToken();
    const payload = init.rawBody ?? (init.body !== undefined ? JSON.stringify(init.body) : undefined);
    const res = await this.fetch(path, {
      method,
      headers: {
        authorization: `Bearer ${token.value}`,
        ...(payload !== undefined ? { 'content-type': 'application/json' } : {}),
        ...init.headers,
      },
      body: payload,
    });
    if (res.status === 401 && !retried) {
      // The token expired or was revoked early: get a new one, once.
      await res.body?.cancel();
      this.token = undefined;
      return this.call(method, path, init, true);
    }
    if (res.status >= 500) {
      await res.body?.cancel();
      throw this.unavailable(`${method} ${path} answered ${res.status}`);
    }
    const text = await res.text();
    let body: unknown;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      throw this.unavailable(`${method} ${path} answered ${res.status} with a body that is not JSON`);
    }
    return { status: res.status, ok: res.ok, body };
  }

  /** An OAuth token for the server's credentials, kept until a minute before it expires; one request at a time. */
  private accessToken(): Promise<Token> {
    if (this.token && this.token.expiresAt > Date.now()) return Promise.resolve(this.token);
    this.tokenRequest ??= this.requestToken().finally(() => (this.tokenRequest = undefined));
    return this.tokenRequest;
  }

  private async requestToken(): Promise<Token> {
    const { PAYPAL_CLIENT_ID: id, PAYPAL_CLIENT_SECRET: secret } = this.config;
    const res = await this.fetch('/v1/oauth2/token', {
      method: 'POST',
      headers: {
        authorization: `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: 'grant_type=client_credentials',
    });
    const body = (await res.json().catch(() => ({}))) as { access_token?: unknown; expires_in?: unknown };
    if (!res.ok || typeof body.access_token !== 'string') {
      // Wrong credentials are an operator's problem, not the shopper's: log loudly, answer 503.
      this.logger.error(`PayPal refused the server's credentials (${res.status}): check PAYPAL_CLIENT_ID/SECRET`);
      throw this.unavailable(`oauth token answered ${res.status}`);
    }
    const ttlSeconds = typeof body.expires_in === 'number' ? body.expires_in : 300;
    this.token = { value: body.access_token, expiresAt: Date.now() + Math.max(0, ttlSeconds - 60) * 1000 };
    return this.token;
  }

  private async fetch(path: string, init: RequestInit): Promise<Response> {
    try {
      return await fetch(`${this.config.PAYPAL_API_BASE.replace(/\/+$/, '')}${path}`, {
        ...init,
        signal: AbortSignal.timeout(this.config.PAYPAL_TIMEOUT_MS),
      });
    } catch (err) {
      throw this.unavailable(`${init.method ?? 'GET'} ${path} failed: ${(err as Error).message}`);
    }
  }

  private unavailable(why: string): ServiceUnavailableException {
    this.logger.warn(`PayPal unavailable: ${why}`);
    return new ServiceUnavailableException(CHECKOUT_MESSAGES.paypalUnavailable);
  }
}
