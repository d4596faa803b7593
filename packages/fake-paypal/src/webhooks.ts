// Webhook events as PayPal sends them (Webhooks v1): each event signed the way PayPal signs it, delivered to the
// configured listener with retries, backing off while the listener answers anything but a 2xx, and the
// verify-webhook-signature call that checks such a signature. node:crypto only.
import { createSign, createVerify, generateKeyPairSync, randomBytes, randomUUID, type KeyObject } from 'node:crypto';
import type { PayPalLink } from './types';

/** The event types the fake sends (PayPal's names). */
export const WEBHOOK_EVENT_TYPES = [
  'PAYMENT.CAPTURE.COMPLETED',
  'PAYMENT.CAPTURE.DENIED',
  'PAYMENT.CAPTURE.REFUNDED',
  'PAYMENT.CAPTURE.REVERSED',
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/** PayPal's only signing algorithm for webhooks (the PAYPAL-AUTH-ALGO header). */
export const WEBHOOK_AUTH_ALGO = 'SHA256withRSA';

/** The webhook id the fake signs for when none is configured (PayPal's ids are letters and digits). */
export const DEFAULT_WEBHOOK_ID = 'FAKEWEBHOOKID';

/** How long the fake waits before each retry of a delivery its listener did not take (PayPal: 25 tries over 3 days). */
export const DEFAULT_WEBHOOK_RETRY_DELAYS_MS = [1000, 2000, 4000, 8000, 16000, 32000, 60000, 120000];

/** Each delivery attempt gives up after this long without an answer (counted as a failed attempt). */
const DELIVERY_TIMEOUT_MS = 10_000;
/** Events kept for resend and inspection (oldest dropped). */
const MAX_EVENTS = 2000;

export interface WebhookEvent {
  id: string;
  event_version: '1.0';
  create_time: string;
  resource_type: 'capture' | 'refund';
  resource_version: '2.0';
  event_type: WebhookEventType;
  summary: string;
  resource: Record<string, unknown>;
  links: PayPalLink[];
}

/** One attempt to deliver an event: what the listener answered (status 0: no answer). */
export interface WebhookDelivery {
  eventId: string;
  eventType: WebhookEventType;
  transmissionId: string;
  attempt: number;
  status: number;
  at: string;
}

/** The transmission headers of one delivery, as PayPal names them. */
export interface TransmissionHeaders {
  'paypal-transmission-id': string;
  'paypal-transmission-time': string;
  'paypal-transmission-sig': string;
  'paypal-cert-url': string;
  'paypal-auth-algo': string;
  'paypal-auth-version': 'v2';
}

/** The fields of a verify-webhook-signature request body. */
export interface VerifyRequest {
  auth_algo: string;
  cert_url: string;
  transmission_id: string;
  transmission_sig: string;
  transmission_time: string;
  webhook_id: string;
}

// ---- CRC-32 (IEEE, as zlib): what PayPal's signed string names the body by ------------------------------------

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

/** CRC-32 of the bytes, as an unsigned decimal number (the form PayPal's signed string carries). */
export function crc32(bytes: Buffer | string): number {
  const buf = typeof bytes === 'string' ? Buffer.from(bytes, 'utf8') : bytes;
  let crc = 0xffffffff;
  for (const byte of buf) crc = CRC_TABLE[(crc ^ byte) & 0xff] ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

/** What PayPal signs: `<transmission id>|<transmission time>|<webhook id>|<crc32 of the body>`. */
export function signedString(transmissionId: string, time: string, webhookId: string, body: Buffer | string): string {
  return `${transmissionId}|${time}|${webhookId}|${crc32(body)}`;
}

/**
 * The exact text of a top-level member's value in a JSON object text (`{"a":1,"webhook_event":{…}}` → `{…}`), or
 * undefined when the text is not an object or has no such member. The verify call checks the signature over the
 * event's bytes as the listener received them, so a listener that parsed and re-serialised the event (changing a
 * byte) fails, as it can with PayPal.
 */
export function rawMember(json: string, name: string): string | undefined {
  let i = 0;
  const ws = () => {
    while (i < json.length && ' \t\r\n'.includes(json[i])) i++;
  };
  const string = (): string | undefined => {
    if (json[i] !== '"') return undefined;
    const start = i++;
    while (i < json.length && json[i] !== '"') i += json[i] === '\\' ? 2 : 1;
    if (i >= json.length) return undefined;
    i++;
    try {
      return JSON.parse(json.slice(start, i)) as string;
    } catch {
      return undefined;
    }
  };
  /** Skips one value, returning false when the text ends first. */
  const skipValue = (): boolean => {
    ws();
    if (json[i] === '"') return string() !== undefined;
    if (json[i] === '{' || json[i] === '[') {
      let depth = 0;
      while (i < json.length) {
        const c = json[i];
        if (c === '"') {
          if (string() === undefined) return false;
          continue;
        }
        if (c === '{' || c === '[') depth++;
        if (c === '}' || c === ']') depth--;
        i++;
        if (depth === 0) return true;
      }
      return false;
    }
    const start = i;
    while (i < json.length && !',}] \t\r\n'.includes(json[i])) i++;
    return i > start;
  };
  ws();
  if (json[i] !== '{') return undefined;
  i++;
  for (;;) {
    ws();
    if (json[i] === '}') return undefined;
    const key = string();
    if (key === undefined) return undefined;
    ws();
    if (json[i] !== ':') return undefined;
    i++;
    ws();
    const start = i;
    if (!skipValue()) return undefined;
    if (key === name) return json.slice(start, i);
    ws();
    if (json[i] === ',') i++;
    else return undefined;
  }
}

// ---- the sender -----------------------------------------------------------------------------------------------

export interface WebhookSenderOptions {
  webhookId: string;
  /** Where events are delivered; none: events are kept (for resend) but not sent. */
  url?: string;
  retryDelaysMs: number[];
  /** The fake's own base URL (the cert URL is under it). */
  base: () => string;
}

export interface WebhookSender {
  readonly webhookId: string;
  readonly url: string | undefined;
  setUrl(url: string | undefined): void;
  setRetryDelays(delays: number[]): void;
  /** The path the signing certificate is served at. */
  readonly certPath: string;
  /** The public key, PEM (what the cert URL answers). */
  readonly certPem: string;
  /** Makes the event, keeps it and delivers it (in the background); returns the event. */
  emit(type: WebhookEventType, resource: Record<string, unknown>, summary: string): WebhookEvent;
  /** Sends a kept event again, as PayPal's "resend event" does (new transmission, same event id); false if unknown. */
  resend(eventId: string): boolean;
  /** The signed headers for this body (tests use them to tamper with one part at a time). */
  sign(body: string, time?: string): TransmissionHeaders;
  /** PayPal's verify-webhook-signature: SUCCESS only when every part checks out. */
  verify(request: VerifyRequest, rawEvent: string): 'SUCCESS' | 'FAILURE';
  events(): WebhookEvent[];
  deliveries(): WebhookDelivery[];
  /** Resolves once no delivery is in flight or waiting for a retry. */
  idle(): Promise<void>;
  reset(): void;
  close(): void;
}

const paypalTime = (): string => new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');
const eventId = (): string =>
  `WH-${randomBytes(9).toString('hex').slice(0, 17).toUpperCase()}-${randomBytes(9).toString('hex').slice(0, 17).toUpperCase()}`;

export function createWebhookSender(options: WebhookSenderOptions): WebhookSender {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const certPath = `/v1/notifications/certs/CERT-360caa42-fca2a594-${randomBytes(4).toString('hex')}`;
  const certPem = publicKey.export({ type: 'spki', format: 'pem' }).toString();
  let url = options.url;
  let retryDelays = [...options.retryDelaysMs];
  const kept = new Map<string, { event: WebhookEvent; body: string }>();
  const log: WebhookDelivery[] = [];
  const timers = new Set<NodeJS.Timeout>();
  const controllers = new Set<AbortController>();
  let inFlight = 0;
  let waiters: Array<() => void> = [];
  let closed = false;

  const settle = () => {
    if (inFlight === 0 && timers.size === 0) {
      const w = waiters;
      waiters = [];
      w.forEach((f) => f());
    }
  };

  function sign(body: string, time = paypalTime(), transmissionId = randomUUID()): TransmissionHeaders {
    const signer = createSign('RSA-SHA256');
    signer.update(signedString(transmissionId, time, options.webhookId, body));
    return {
      'paypal-transmission-id': transmissionId,
      'paypal-transmission-time': time,
      'paypal-transmission-sig': signer.sign(privateKey as KeyObject, 'base64'),
      'paypal-cert-url': `${options.base()}${certPath}`,
      'paypal-auth-algo': WEBHOOK_AUTH_ALGO,
      'paypal-auth-version': 'v2',
    };
  }

  function deliver(event: WebhookEvent, body: string, attempt: number, transmissionId = randomUUID()): void {
    if (closed || !url) return;
    const target = url;
    inFlight++;
    const controller = new AbortController();
    controllers.add(controller);
    const timeout = setTimeout(() => controller.abort(), DELIVERY_TIMEOUT_MS);
    // PayPal keeps one transmission id across the retries of a delivery, and signs each attempt at its own time.
    const headers = sign(body, paypalTime(), transmissionId);
    fetch(target, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'user-agent': 'PayPal/AUHD-214.0-58845845', ...headers },
      body,
      signal: controller.signal,
    })
      .then(async (res) => {
        await res.arrayBuffer().catch(() => undefined);
        return res.status;
      })
      .catch(() => 0)
      .then((status) => {
        clearTimeout(timeout);
        controllers.delete(controller);
        log.push({
          eventId: event.id,
          eventType: event.event_type,
          transmissionId,
          attempt,
          status,
          at: new Date().toISOString(),
        });
        if (log.length > MAX_EVENTS * 4) log.splice(0, log.length - MAX_EVENTS * 4);
        const delay = retryDelays[attempt - 1];
        if ((status < 200 || status > 299) && delay !== undefined && !closed) {
          const timer = setTimeout(() => {
            timers.delete(timer);
            deliver(event, body, attempt + 1, transmissionId);
            settle();
          }, delay);
          timers.add(timer);
        }
        inFlight--;
        settle();
      });
  }

  return {
    webhookId: options.webhookId,
    get url() {
      return url;
    },
    setUrl: (next) => {
      url = next;
    },
    setRetryDelays: (delays) => {
      retryDelays = [...delays];
    },
    certPath,
    certPem,
    emit(type, resource, summary) {
      const base = options.base();
      const id = eventId();
      const event: WebhookEvent = {
        id,
        event_version: '1.0',
        create_time: new Date().toISOString(),
        resource_type:
          type === 'PAYMENT.CAPTURE.REFUNDED' || type === 'PAYMENT.CAPTURE.REVERSED' ? 'refund' : 'capture',
        resource_version: '2.0',
        event_type: type,
        summary,
        resource,
        links: [
          { href: `${base}/v1/notifications/webhooks-events/${id}`, rel: 'self', method: 'GET' },
          { href: `${base}/v1/notifications/webhooks-events/${id}/resend`, rel: 'resend', method: 'POST' },
        ],
      };
      const body = JSON.stringify(event);
      kept.set(id, { event, body });
      while (kept.size > MAX_EVENTS) kept.delete(kept.keys().next().value as string);
      deliver(event, body, 1);
      return structuredClone(event);
    },
    resend(id) {
      const found = kept.get(id);
      if (!found) return false;
      deliver(found.event, found.body, 1);
      return true;
    },
    sign: (body, time) => sign(body, time),
    verify(request, rawEvent) {
      if (request.auth_algo !== WEBHOOK_AUTH_ALGO) return 'FAILURE';
      if (request.webhook_id !== options.webhookId) return 'FAILURE';
      let certUrl: URL;
      try {
        certUrl = new URL(request.cert_url);
      } catch {
        return 'FAILURE';
      }
      if (certUrl.pathname !== certPath) return 'FAILURE';
      const verifier = createVerify('RSA-SHA256');
      verifier.update(signedString(request.transmission_id, request.transmission_time, request.webhook_id, rawEvent));
      try {
        return verifier.verify(publicKey, request.transmission_sig, 'base64') ? 'SUCCESS' : 'FAILURE';
      } catch {
        return 'FAILURE';
      }
    },
    events: () => [...kept.values()].map((k) => structuredClone(k.event)),
    deliveries: () => log.map((d) => ({ ...d })),
    idle: () =>
      new Promise<void>((resolve) => {
        waiters.push(resolve);
        settle();
      }),
    reset() {
      for (const t of timers) clearTimeout(t);
      timers.clear();
      kept.clear();
      log.length = 0;
      retryDelays = [...options.retryDelaysMs];
      settle();
    },
    close() {
      closed = true;
      for (const t of timers) clearTimeout(t);
      timers.clear();
      for (const c of controllers) c.abort();
      settle();
    },
  };
}

/** The capture as a PAYMENT.CAPTURE.* event's resource shows it: the capture, with the order it belongs to. */
export function captureResource(capture: object, orderId: string): Record<string, unknown> {
  return { ...structuredClone(capture), supplementary_data: { related_ids: { order_id: orderId } } };
}
