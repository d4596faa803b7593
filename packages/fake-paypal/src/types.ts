// PayPal REST shapes the fake speaks (field names exactly as PayPal's Orders v2 and OAuth docs spell them), and the
// fake's own vocabulary: failure modes, options, the handle tests get.
import type { TransmissionHeaders, WebhookDelivery, WebhookEvent } from './webhooks';

/** How the fake misbehaves. `normal` is PayPal on a good day. */
export const FAKE_PAYPAL_MODES = [
  'normal',
  /** Capture answers 201, order `status: 'COMPLETED'`, but `captures[0].status: 'DECLINED'` (PayPal can do this). */
  'declined',
  /** The capture's amount is 0.01 more than the order was created for (1 unit for zero-decimal currencies). */
  'amount-mismatch',
  /** The capture's currency differs from the order's (GBP becomes USD, anything else GBP). */
  'currency-mismatch',
  /** Every call answers 500 INTERNAL_SERVER_ERROR. */
  'error-500',
  /** Every call waits `latencyMs` before answering. */
  'slow',
  /** Capture is refused (422 INSTRUMENT_DECLINED); the order stays APPROVED with no capture. */
  'uncaptured',
  /**
   * Refunds of the capture are refused (422 REFUND_FAILED_INSUFFICIENT_FUNDS: the merchant's PayPal balance cannot
   * cover them); create, capture and get behave normally.
   */
  'refund-refused',
] as const;

export type FakePayPalMode = (typeof FAKE_PAYPAL_MODES)[number];

export function isFakePayPalMode(value: unknown): value is FakePayPalMode {
  return typeof value === 'string' && (FAKE_PAYPAL_MODES as readonly string[]).includes(value);
}

/** The prefix of a `custom_id` that sets one order's mode when the order is created, e.g. `fake:declined`. */
export const FAKE_MODE_CUSTOM_ID_PREFIX = 'fake:';

export interface Money {
  currency_code: string;
  value: string;
}

export interface AmountBreakdown {
  item_total?: Money;
  shipping?: Money;
  handling?: Money;
  tax_total?: Money;
  insurance?: Money;
  shipping_discount?: Money;
  discount?: Money;
}

export interface AmountWithBreakdown extends Money {
  breakdown?: AmountBreakdown;
}

export interface PurchaseUnitItem {
  name: string;
  quantity: string;
  unit_amount: Money;
  tax?: Money;
  description?: string;
  sku?: string;
  category?: string;
}

export interface PayPalLink {
  href: string;
  rel: string;
  method: string;
}

export type CaptureStatus = 'COMPLETED' | 'DECLINED' | 'PARTIALLY_REFUNDED' | 'PENDING' | 'REFUNDED' | 'FAILED';

export interface PayPalCapture {
  id: string;
  status: CaptureStatus;
  amount: Money;
  final_capture: boolean;
  seller_protection: { status: string; dispute_categories: string[] };
  seller_receivable_breakdown: { gross_amount: Money; paypal_fee: Money; net_amount: Money };
  custom_id?: string;
  invoice_id?: string;
  links: PayPalLink[];
  create_time: string;
  update_time: string;
}

export type RefundStatus = 'CANCELLED' | 'FAILED' | 'PENDING' | 'COMPLETED';

/** A refund of a capture, as `POST /v2/payments/captures/:id/refund` (Prefer: return=representation) shows it. */
export interface PayPalRefund {
  id: string;
  status: RefundStatus;
  amount: Money;
  note_to_payer?: string;
  seller_payable_breakdown: {
    gross_amount: Money;
    paypal_fee: Money;
    net_amount: Money;
    /** Everything refunded from the capture so far, this refund included. */
    total_refunded_amount: Money;
  };
  invoice_id?: string;
  custom_id?: string;
  create_time: string;
  update_time: string;
  links: PayPalLink[];
}

export interface PurchaseUnit {
  reference_id: string;
  amount: AmountWithBreakdown;
  payee: { email_address: string; merchant_id: string };
  custom_id?: string;
  description?: string;
  invoice_id?: string;
  soft_descriptor?: string;
  items?: PurchaseUnitItem[];
  /** `refunds` appears once a capture was refunded (in full: capture status REFUNDED; in part: PARTIALLY_REFUNDED). */
  payments?: { captures: PayPalCapture[]; refunds?: PayPalRefund[] };
}

export interface PayPalName {
  given_name: string;
  surname: string;
}

export interface PayPalPayer {
  name: PayPalName;
  email_address: string;
  payer_id: string;
  address: { country_code: string };
}

export type OrderStatus = 'CREATED' | 'SAVED' | 'APPROVED' | 'VOIDED' | 'COMPLETED' | 'PAYER_ACTION_REQUIRED';

export interface PayPalOrder {
  id: string;
  intent: 'CAPTURE';
  status: OrderStatus;
  purchase_units: PurchaseUnit[];
  payer?: PayPalPayer;
  payment_source?: {
    paypal: {
      email_address: string;
      account_id: string;
      account_status: string;
      name: PayPalName;
      address: { country_code: string };
    };
  };
  create_time: string;
  update_time?: string;
  links: PayPalLink[];
}

/** The body of an Orders v2 error answer (4xx other than OAuth's, and 5xx). */
export interface PayPalErrorBody {
  name: string;
  message: string;
  debug_id: string;
  details?: { field?: string; value?: string; location?: string; issue: string; description: string }[];
  links?: PayPalLink[];
}

export interface FakePayPalOptions {
  /** Port to listen on; 0 (the default) picks a free one. */
  port?: number;
  /** Interface to listen on; default 127.0.0.1. */
  host?: string;
  /** OAuth client credentials the token endpoint accepts; default `fake-client-id` / `fake-client-secret`. */
  clientId?: string;
  clientSecret?: string;
  /** How long the `slow` mode waits before answering, in ms; default 2000. */
  latencyMs?: number;
  /**
   * Accept create, capture and get calls that carry no Authorization header at all; default true. The SPA's
   * test-payment button (fake mode) drives create + capture straight from the browser, as PayPal's JS SDK does with
   * its own client token; the browser never holds our client secret. A wrong token or wrong Basic credentials are
   * still refused. Tests that want to prove the shop's server authenticates start the fake with `false` (or read
   * `calls()`, which records how each call authenticated).
   */
  allowAnonymous?: boolean;
  /** Alias of `allowAnonymous`. */
  allowAnonymousCreate?: boolean;
  /** The mode the fake starts in; default `normal`. */
  mode?: FakePayPalMode;
  /** At most this many orders are kept (oldest evicted); default 10,000. */
  maxOrders?: number;
  /** Largest request body accepted, in bytes; default 100 KB. */
  maxBodyBytes?: number;
  /** Lifetime of issued access tokens, in seconds; default 32,400 (PayPal's nine hours). */
  tokenTtlSeconds?: number;
  /** Where webhook events are delivered (the shop's listener); none: events are kept but not sent. */
  webhookUrl?: string;
  /** The webhook id events are signed for (the shop's PAYPAL_WEBHOOK_ID); default `FAKEWEBHOOKID`. */
  webhookId?: string;
  /** The waits before each retry of a delivery the listener did not take with a 2xx; default 1 s doubling to 2 min. */
  webhookRetryDelaysMs?: number[];
}

/**
 * How a call authenticated: a token we issued, Basic client credentials, no Authorization header at all (accepted
 * only with allowAnonymous), refused credentials, or not looked at (the call failed before authentication, e.g. in
 * error-500 mode).
 */
export type CallAuth = 'bearer' | 'basic' | 'anonymous' | 'rejected' | 'unchecked';

/** One call the fake answered (admin calls under /__fake and CORS preflights are not recorded). */
export interface FakePayPalCall {
  method: string;
  path: string;
  status: number;
  auth: CallAuth;
  requestId?: string;
  orderId?: string;
  /** The capture a refund call named. */
  captureId?: string;
  at: string;
}

export interface CreateCompletedOrderInput {
  /** The amount as PayPal wants it: a string with two decimals, e.g. `'12.34'`. */
  value: string;
  /** Default GBP. */
  currency?: string;
  /** How the capture goes (and, for error-500/slow, how later calls on this order go); default `normal`. */
  mode?: FakePayPalMode;
  reference_id?: string;
  custom_id?: string;
  invoice_id?: string;
}

export interface FakePayPalOrders {
  /** The order as `GET /v2/checkout/orders/:id` would show it (a copy), or undefined. */
  get(id: string): PayPalOrder | undefined;
  /** Every order kept, oldest first (copies). */
  list(): PayPalOrder[];
  /** The per-order mode, if one was set (by `custom_id: 'fake:<mode>'`, `setOrderMode` or the admin endpoint). */
  modeOf(id: string): FakePayPalMode | undefined;
  readonly size: number;
}

export interface FakePayPal {
  /** Base URL, e.g. `http://127.0.0.1:8090` — what the shop's `PAYPAL_API_BASE` points at. */
  readonly url: string;
  readonly port: number;
  readonly host: string;
  readonly clientId: string;
  readonly clientSecret: string;
  /** The global mode (applies to every order without a mode of its own). */
  readonly mode: FakePayPalMode;
  readonly latencyMs: number;
  readonly orders: FakePayPalOrders;
  /** Sets the global mode; `latencyMs` also changes how long `slow` waits. */
  setMode(mode: FakePayPalMode, options?: { latencyMs?: number }): void;
  /** Sets one order's mode (overrides the global mode's capture outcome for it). False when the order is unknown. */
  setOrderMode(orderId: string, mode: FakePayPalMode): boolean;
  /** Forgets every order, token, idempotency key and call; back to the start mode and latency. */
  reset(): void;
  /** Creates and captures an order in one step, as the SPA's test-payment button would; returns the order id. */
  createCompletedOrder(input: CreateCompletedOrderInput): string;
  /** Issues an access token directly (what `POST /v1/oauth2/token` would answer with). */
  issueAccessToken(): string;
  /** The calls answered so far, oldest first (the last 1,000). */
  calls(): FakePayPalCall[];
  /** Webhook events: the listener, what was sent and how it was answered, resends and signatures. */
  readonly webhooks: FakePayPalWebhooks;
  /**
   * A refund made in PayPal's own dashboard (not through the API): `value` of the capture, or all that remains; the
   * capture reads PARTIALLY_REFUNDED or REFUNDED and PAYMENT.CAPTURE.REFUNDED is sent. Throws for an unknown capture
   * or an amount PayPal would refuse.
   */
  dashboardRefund(captureId: string, value?: string): PayPalRefund;
  /** A chargeback the buyer won: all that remains of the capture goes back; PAYMENT.CAPTURE.REVERSED is sent. */
  reverseCapture(captureId: string): PayPalRefund;
  close(): Promise<void>;
}

export interface FakePayPalWebhooks {
  readonly webhookId: string;
  readonly url: string | undefined;
  /** Delivers events there from now on (undefined: keep them, send nothing). */
  setUrl(url: string | undefined): void;
  /** The waits before each retry (their count is the number of retries). */
  setRetryDelays(delaysMs: number[]): void;
  /** Every event made so far (copies), oldest first. */
  events(): WebhookEvent[];
  /** Every delivery attempt and what the listener answered (status 0: no answer). */
  deliveries(): WebhookDelivery[];
  /** Sends the event again (a new transmission, the same event id), as PayPal's resend does; false if unknown. */
  resend(eventId: string): boolean;
  /** The transmission headers PayPal would send with this body (for tests that tamper with one part). */
  sign(body: string, time?: string): TransmissionHeaders;
  /** Resolves once no delivery is in flight or waiting for a retry. */
  idle(): Promise<void>;
}
