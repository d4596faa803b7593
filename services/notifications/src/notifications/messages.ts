import { isCarrier, trackingNumberProblem, trackingUrl } from '@shop/contracts';
import type {
  EventEnvelope,
  OrderPlacedEvent,
  OrderStatusChangedEvent,
  OrderSummaryLine,
  PasswordResetRequestedEvent,
  ReturnStatusChangedEvent,
  ShippingAddress,
  StockAlertTriggeredEvent,
  UserRegisteredEvent,
  WelcomeCodeIssuedEvent,
} from '@shop/contracts';
import { addDays, formatDate, formatDateTime, formatMoney, formatPounds } from '../mail/format';
import type { MailKind, TemplateValues } from '../mail/mail-templates';

/**
 * From an event to the one email it causes, or to the reason it causes none. Pure: the events' data is checked
 * here (it crossed a process boundary), so a malformed event is acknowledged with its reason logged instead of
 * failing again on every retry.
 */
export type Composed = { mail: MailRequest } | { skip: string };

export interface MailRequest {
  kind: MailKind;
  to: string;
  /** The recipient's name, for the To header ('' when unknown). */
  name: string;
  values: TemplateValues;
}

export interface ComposeSettings {
  /** The shop's public address, without a trailing slash. */
  publicUrl: string;
  estimatedDeliveryDays: number;
  /** Now, for a password reset that expired before it could be sent. */
  now?: Date;
}

const EMAIL = /^[^\s@<>",;]+@[^\s@<>",;]+\.[^\s@<>",;]+$/;
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;
const isText = (v: unknown): v is string => typeof v === 'string' && v.trim() !== '';
const isAmount = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v) && v >= 0;
const validDate = (v: unknown): Date | null => {
  const d = typeof v === 'string' ? new Date(v) : null;
  return d && !Number.isNaN(d.getTime()) ? d : null;
};
const email = (v: unknown): string | null => (typeof v === 'string' && EMAIL.test(v.trim()) ? v.trim() : null);
const nameOr = (v: unknown, fallback: string): string => (isText(v) ? v.trim() : fallback);

function base(s: ComposeSettings): TemplateValues {
  return { shopUrl: s.publicUrl };
}

const orderUrl = (s: ComposeSettings, orderId: string) => `${s.publicUrl}/order/${encodeURIComponent(orderId)}`;

/** "Size M · Colour Navy", or null when the product offers neither. */
function variantOf(line: OrderSummaryLine): string | null {
  const parts = [isText(line.size) ? `Size ${line.size}` : '', isText(line.color) ? `Colour ${line.color}` : ''];
  return parts.filter(Boolean).join(' · ') || null;
}

/** The address as the lines of a label: name, street, city and postcode, country, phone. */
function addressLines(a: ShippingAddress): string[] {
  const line = (...parts: Array<string | undefined>) => parts.filter(isText).join(' ');
  return [
    line(a.firstName, a.lastName),
    line(a.address),
    line(a.city, a.postalCode),
    line(a.country),
    a.phone ? `Phone: ${a.phone}` : '',
  ].filter(Boolean);
}

/** EVENTS.orders.orderPlaced → the order confirmation (an event without summary or email: none). */
export function orderConfirmation(event: EventEnvelope, s: ComposeSettings): Composed {
  const data = event.data as Partial<OrderPlacedEvent> | undefined;
  if (!isObject(data) || !isText(data.orderId)) return { skip: 'no orderId' };
  const summary = data.summary;
  if (!isObject(summary)) return { skip: 'the event has no summary (placed before orders sent one)' };
  const to = email(summary.customer?.email);
  if (!to) return { skip: 'the order summary has no customer email' };
  const placedAt = validDate(summary.placedAt);
  const lines = Array.isArray(summary.lines) ? summary.lines : [];
  const linesOk = lines.length > 0 && lines.every((l) => isObject(l) && isText(l.name) && isAmount(l.price));
  if (!placedAt || !linesOk || !isAmount(summary.totalPrice) || !isObject(summary.shippingAddress))
    return { skip: 'the order summary is incomplete (placedAt, lines, totalPrice or shippingAddress)' };
  const customerName = nameOr(summary.customer.name, 'there');
  return {
    mail: {
      kind: 'order-confirmation',
      to,
      name: nameOr(summary.customer.name, ''),
      values: {
        ...base(s),
        customerName,
        orderNumber: data.orderId,
        placedOn: formatDate(placedAt),
        lines: lines.map((l) => {
          const quantity = Number.isInteger(l.quantity) && l.quantity > 0 ? l.quantity : 1;
          return {
            name: l.name,
            variant: variantOf(l),
            quantity,
            unitPrice: formatPounds(l.price),
            lineTotal: formatPounds(l.price * quantity),
          };
        }),
        ...discountLines(summary),
        total: formatPounds(summary.totalPrice),
        shippingAddress: addressLines(summary.shippingAddress),
        estimatedDelivery: formatDate(addDays(placedAt, s.estimatedDeliveryDays)),
        orderUrl: orderUrl(s, data.orderId),
      },
    },
  };
}

/** The subtotal and the discount line when the order was placed with a code; nulls otherwise. */
function discountLines(summary: OrderPlacedEvent['summary'] & object): {
  subtotal: string | null;
  discount: object | null;
} {
  const d = summary.discount;
  if (!isObject(d) || !isText(d.code) || !isAmount(d.amount) || !isAmount(summary.subtotal))
    return { subtotal: null, discount: null };
  return { subtotal: formatPounds(summary.subtotal), discount: { code: d.code, amount: `−${formatPounds(d.amount)}` } };
}

const STATUS_MAIL: Partial<Record<string, MailKind>> = {
  Shipped: 'order-shipped',
  Delivered: 'order-delivered',
  Cancelled: 'order-cancelled',
};

/**
 * EVENTS.orders.orderStatusChanged → Shipped (with the carrier's tracking page when the event names the parcel),
 * Delivered or Cancelled (with its refund); back to Processing: none.
 */
export function orderStatusChanged(event: EventEnvelope, s: ComposeSettings): Composed {
  const data = event.data as Partial<OrderStatusChangedEvent> | undefined;
  if (!isObject(data) || !isText(data.orderId)) return { skip: 'no orderId' };
  const kind = STATUS_MAIL[String(data.status)];
  if (!kind) return { skip: `no email for the status ${String(data.status)}` };
  const to = email(data.customer?.email);
  if (!to) return { skip: 'the event has no customer email' };
  const changedAt = validDate(data.changedAt) ?? validDate(event.occurredAt) ?? new Date();
  // The parcel's page, built here from the carrier and number (never a URL taken from the event as it is).
  const t = data.tracking;
  const tracking =
    kind === 'order-shipped' &&
    isObject(t) &&
    isCarrier(t.carrier) &&
    isText(t.number) &&
    !trackingNumberProblem(t.carrier, t.number)
      ? { carrier: t.carrier, number: t.number, url: trackingUrl(t.carrier, t.number) }
      : null;
  const refund =
    kind === 'order-cancelled' && isObject(data.refund) && isAmount(data.refund.amount) && data.refund.amount > 0
      ? formatMoney(data.refund.amount, isText(data.refund.currency) ? data.refund.currency : 'GBP')
      : null;
  return {
    mail: {
      kind,
      to,
      name: nameOr(data.customer?.name, ''),
      values: {
        ...base(s),
        customerName: nameOr(data.customer?.name, 'there'),
        orderNumber: data.orderId,
        changedOn: formatDate(changedAt),
        refund,
        tracking,
        orderUrl: orderUrl(s, data.orderId),
      },
    },
  };
}

/** What each step of a return tells the customer: the subject, then the first sentence. */
const RETURN_MAIL: Partial<
  Record<string, { subject: (order: string) => string; headline: (order: string, on: string) => string }>
> = {
  Requested: {
    subject: (o) => `We have your return request for order ${o}`,
    headline: (o, on) =>
      `We received your request on ${on} to return these items from order ${o}. We will review it and email you shortly.`,
  },
  Approved: {
    subject: (o) => `Your return for order ${o} is approved`,
    headline: (o, on) =>
      `Your return for order ${o} was approved on ${on}. Please send the items back; we refund you once they arrive.`,
  },
  Rejected: {
    subject: (o) => `Your return for order ${o} was not accepted`,
    headline: (o, on) => `We are sorry: your return request for order ${o} was not accepted on ${on}.`,
  },
  Refunded: {
    subject: (o) => `Your refund for order ${o} is on its way`,
    headline: (o, on) =>
      `We received your returned items and refunded them on ${on} to your original payment method. It may take a few working days to appear on your statement.`,
  },
};

/** EVENTS.orders.returnStatusChanged → requested, approved, rejected, refunded (Received: none; the refund follows). */
export function returnStatusChanged(event: EventEnvelope, s: ComposeSettings): Composed {
  const data = event.data as Partial<ReturnStatusChangedEvent> | undefined;
  if (!isObject(data) || !isText(data.orderId) || !isText(data.returnId)) return { skip: 'no orderId or returnId' };
  const texts = RETURN_MAIL[String(data.status)];
  if (!texts) return { skip: `no email for a return ${String(data.status)}` };
  const to = email(data.customer?.email);
  if (!to) return { skip: 'the event has no customer email' };
  const lines = Array.isArray(data.lines) ? data.lines.filter((l) => isObject(l) && isText(l.name)) : [];
  if (!lines.length || !isAmount(data.amount)) return { skip: 'the return has no lines or amount' };
  const changedAt = validDate(data.changedAt) ?? validDate(event.occurredAt) ?? new Date();
  const refunded =
    data.status === 'Refunded' && isObject(data.refund) && isAmount(data.refund.amount)
      ? formatMoney(data.refund.amount, isText(data.refund.currency) ? data.refund.currency : 'GBP')
      : null;
  return {
    mail: {
      kind: 'return-update',
      to,
      name: nameOr(data.customer?.name, ''),
      values: {
        ...base(s),
        subject: texts.subject(data.orderId),
        headline: texts.headline(data.orderId, formatDate(changedAt)),
        customerName: nameOr(data.customer?.name, 'there'),
        orderNumber: data.orderId,
        note: isText(data.note) ? data.note.trim() : null,
        instructions:
          data.status === 'Approved'
            ? `Please pack the items with a note of your order number (${data.orderId}) and send them back to us.`
            : null,
        lines: lines.map((l) => ({
          name: l.name,
          variant: variantOf({ name: l.name, quantity: l.quantity, price: 0, size: l.size, color: l.color }),
          quantity: Number.isInteger(l.quantity) && l.quantity > 0 ? l.quantity : 1,
        })),
        amountLabel: refunded ? 'Refunded' : data.status === 'Rejected' ? 'Not refunded' : 'Refund once received',
        amount: refunded ?? formatPounds(data.amount),
        orderUrl: orderUrl(s, data.orderId),
      },
    },
  };
}

/** EVENTS.identity.userRegistered → welcome. */
export function welcome(event: EventEnvelope, s: ComposeSettings): Composed {
  const data = event.data as Partial<UserRegisteredEvent> | undefined;
  const to = email(data?.email);
  if (!to) return { skip: 'the event has no valid email' };
  return {
    mail: {
      kind: 'welcome',
      to,
      name: nameOr(data?.name, ''),
      values: { ...base(s), customerName: nameOr(data?.name, 'there'), email: to },
    },
  };
}

/**
 * EVENTS.identity.passwordResetRequested → the reset link. The token goes into the email and nowhere else (not in
 * a record, not in a log). A request whose link has expired before it could be sent (SMTP down for longer) sends
 * nothing: the customer asks again.
 */
export function passwordReset(event: EventEnvelope, s: ComposeSettings): Composed {
  const data = event.data as Partial<PasswordResetRequestedEvent> | undefined;
  const to = email(data?.email);
  if (!to) return { skip: 'the event has no valid email' };
  if (!isText(data?.token) || !/^[A-Za-z0-9_=-]{16,512}$/.test(data.token))
    return { skip: 'the event has no well-formed token' };
  const expiresAt = validDate(data.expiresAt);
  if (!expiresAt) return { skip: 'the event has no expiresAt' };
  const now = s.now ?? new Date();
  if (expiresAt.getTime() <= now.getTime()) return { skip: 'the reset link expired before it could be sent' };
  const requestedAt = validDate(event.occurredAt) ?? now;
  const validMinutes = Math.max(1, Math.round((expiresAt.getTime() - requestedAt.getTime()) / 60_000));
  return {
    mail: {
      kind: 'password-reset',
      to,
      name: nameOr(data.name, ''),
      values: {
        ...base(s),
        customerName: nameOr(data.name, 'there'),
        resetUrl: `${s.publicUrl}/reset-password?token=${encodeURIComponent(data.token)}`,
        validMinutes,
        expiresAt: formatDateTime(expiresAt),
      },
    },
  };
}

/**
 * EVENTS.checkout.welcomeCodeIssued → the newsletter confirmation with the subscriber's welcome code (checkout sends
 * it on every subscription, the same code each time); a code no longer usable is not offered again.
 */
export function newsletterConfirmation(event: EventEnvelope, s: ComposeSettings): Composed {
  const data = event.data as Partial<WelcomeCodeIssuedEvent> | undefined;
  const to = email(data?.email);
  if (!to) return { skip: 'the event has no valid email' };
  const usable = data?.usable !== false && isText(data?.code);
  return {
    mail: {
      kind: 'newsletter-confirmation',
      to,
      name: '',
      values: {
        ...base(s),
        email: to,
        discountCode: usable ? data!.code!.trim() : null,
        percentOff: isAmount(data?.percentOff) ? data.percentOff : 10,
      },
    },
  };
}

/**
 * EVENTS.catalog.stockAlertTriggered → "it's back": one email per request (the event id is the request's own), linking
 * to the product with that size and colour chosen, with a link that stops the address's other waiting requests
 * without signing in.
 */
export function backInStock(event: EventEnvelope, s: ComposeSettings): Composed {
  const data = event.data as Partial<StockAlertTriggeredEvent> | undefined;
  const to = email(data?.email);
  if (!to) return { skip: 'the event has no valid email' };
  if (!isText(data?.productId) || !/^[0-9a-f]{24}$/i.test(data.productId))
    return { skip: 'the event has no productId' };
  if (!isText(data?.name)) return { skip: 'the event has no product name' };
  if (!isText(data?.unsubscribeToken) || !/^[A-Za-z0-9_.-]{16,1024}$/.test(data.unsubscribeToken))
    return { skip: 'the event has no well-formed unsubscribe token' };
  const size = isText(data.size) ? data.size.trim() : '';
  const color = isText(data.color) ? data.color.trim() : '';
  const query = new URLSearchParams({ ...(size ? { size } : {}), ...(color ? { color } : {}) }).toString();
  const productUrl = `${s.publicUrl}/product/${encodeURIComponent(data.productId)}${query ? `?${query}` : ''}`;
  const requestedAt = validDate(data.requestedAt);
  return {
    mail: {
      kind: 'back-in-stock',
      to,
      name: '',
      values: {
        ...base(s),
        productName: data.name.trim(),
        variant: [size ? `Size ${size}` : '', color ? `Colour ${color}` : ''].filter(Boolean).join(' · ') || null,
        image: isText(data.image) ? new URL(data.image, `${s.publicUrl}/`).href : null,
        price: isAmount(data.pricePence) ? formatPounds(data.pricePence / 100) : null,
        productUrl,
        requestedOn: requestedAt ? formatDate(requestedAt) : null,
        unsubscribeUrl: `${s.publicUrl}/back-in-stock/unsubscribe?token=${encodeURIComponent(data.unsubscribeToken)}`,
      },
    },
  };
}
