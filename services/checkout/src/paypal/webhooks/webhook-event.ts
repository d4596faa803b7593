// A PayPal webhook event, read from its JSON into what the shop acts on. Pure: the body crossed the internet, so
// every field is checked here, and an event the shop does not act on is named with the reason.
import { type PaymentReversalKind } from '@shop/contracts';

/** A capture completed or denied: which PayPal order, which checkout (the purchase unit's custom_id), how much. */
export interface CaptureFacts {
  captureId: string;
  status: string;
  /** supplementary_data.related_ids.order_id: the PayPal order the capture belongs to. */
  paypalOrderId?: string;
  /** The checkout id the SPA put in the purchase unit's custom_id. */
  checkoutId?: string;
}

/** A refund or reversal of a capture: PayPal's refund id, how much, and the capture (the `up` link). */
export interface RefundFacts {
  refundId: string;
  kind: PaymentReversalKind;
  captureId: string;
  amountPence: number;
  currency: string;
  at: string;
}

export type WebhookFacts =
  | { id: string; type: 'PAYMENT.CAPTURE.COMPLETED' | 'PAYMENT.CAPTURE.DENIED'; capture: CaptureFacts }
  | { id: string; type: 'PAYMENT.CAPTURE.REFUNDED' | 'PAYMENT.CAPTURE.REVERSED'; refund: RefundFacts }
  | { id: string; type: 'ignored'; eventType: string; reason: string };

/** PayPal's event ids (WH-…), bounded: the id is the key of the record of handled events. */
const EVENT_ID = /^[A-Za-z0-9-]{1,100}$/;
const PAYPAL_ID = /^[A-Za-z0-9-]{1,64}$/;
const CHECKOUT_ID = /^[a-f0-9]{24}$/i;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const text = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() ? v.trim() : undefined);

/** "12.34" → 1234 (two decimals at most, as PayPal writes GBP); anything else undefined. */
export function pence(value: unknown): number | undefined {
  if (typeof value !== 'string' || !/^\d{1,9}(\.\d{1,2})?$/.test(value)) return undefined;
  const [pounds, fraction = ''] = value.split('.');
  return Number(pounds) * 100 + Number(fraction.padEnd(2, '0'));
}

/** The capture id at the end of a refund's `up` link (…/v2/payments/captures/<id>). */
function captureOfRefund(links: unknown): string | undefined {
  if (!Array.isArray(links)) return undefined;
  for (const link of links) {
    if (!isObject(link) || link.rel !== 'up' || typeof link.href !== 'string') continue;
    const match = /\/v2\/payments\/captures\/([^/?#]+)\/?$/.exec(link.href);
    if (match && PAYPAL_ID.test(match[1])) return match[1];
  }
  return undefined;
}

/**
 * The event's id and what it says, or `undefined` when the body is not a webhook event at all (no id or type: 400).
 * Event types the shop does not act on, and events of those types lacking what it needs, are `ignored` with why.
 */
export function readWebhookEvent(body: unknown): WebhookFacts | undefined {
  if (!isObject(body)) return undefined;
  const id = text(body.id);
  const eventType = text(body.event_type);
  if (!id || !EVENT_ID.test(id) || !eventType || eventType.length > 100) return undefined;
  const ignore = (reason: string): WebhookFacts => ({ id, type: 'ignored', eventType, reason });
  const resource = body.resource;
  switch (eventType) {
    case 'PAYMENT.CAPTURE.COMPLETED':
    case 'PAYMENT.CAPTURE.DENIED': {
      if (!isObject(resource)) return ignore('no resource');
      const captureId = text(resource.id);
      if (!captureId || !PAYPAL_ID.test(captureId)) return ignore('no capture id');
      const related = isObject(resource.supplementary_data) ? resource.supplementary_data.related_ids : undefined;
      const paypalOrderId = isObject(related) ? text(related.order_id) : undefined;
      const customId = text(resource.custom_id);
      return {
        id,
        type: eventType,
        capture: {
          captureId,
          status: text(resource.status) ?? '',
          ...(paypalOrderId && PAYPAL_ID.test(paypalOrderId) ? { paypalOrderId } : {}),
          ...(customId && CHECKOUT_ID.test(customId) ? { checkoutId: customId.toLowerCase() } : {}),
        },
      };
    }
    case 'PAYMENT.CAPTURE.REFUNDED':
    case 'PAYMENT.CAPTURE.REVERSED': {
      if (!isObject(resource)) return ignore('no resource');
      const refundId = text(resource.id);
      if (!refundId || !PAYPAL_ID.test(refundId)) return ignore('no refund id');
      const captureId = captureOfRefund(resource.links);
      if (!captureId) return ignore('the refund names no capture');
      const amount = isObject(resource.amount) ? resource.amount : undefined;
      const amountPence = pence(amount?.value);
      const currency = text(amount?.currency_code);
      if (amountPence === undefined || !currency || !/^[A-Z]{3}$/.test(currency)) return ignore('no amount');
      const at = text(resource.create_time) ?? text(body.create_time);
      return {
        id,
        type: eventType,
        refund: {
          refundId,
          kind: eventType === 'PAYMENT.CAPTURE.REFUNDED' ? 'refund' : 'reversal',
          captureId,
          amountPence,
          currency,
          at: at && !Number.isNaN(Date.parse(at)) ? new Date(at).toISOString() : new Date().toISOString(),
        },
      };
    }
    default:
      return ignore(`the shop does not act on ${eventType}`);
  }
}

/** The transmission headers PayPal signs a delivery with, or undefined when one is missing. */
export function transmissionOf(headers: Record<string, string | string[] | undefined>):
  | {
      auth_algo: string;
      cert_url: string;
      transmission_id: string;
      transmission_sig: string;
      transmission_time: string;
    }
  | undefined {
  const one = (name: string): string | undefined => {
    const v = headers[name];
    const s = Array.isArray(v) ? v[0] : v;
    return s && s.length <= 2000 ? s : undefined;
  };
  const fields = {
    auth_algo: one('paypal-auth-algo'),
    cert_url: one('paypal-cert-url'),
    transmission_id: one('paypal-transmission-id'),
    transmission_sig: one('paypal-transmission-sig'),
    transmission_time: one('paypal-transmission-time'),
  };
  if (Object.values(fields).some((v) => v === undefined)) return undefined;
  return fields as { [K in keyof typeof fields]: string };
}
