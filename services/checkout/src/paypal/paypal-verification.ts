import { CURRENCY, type PaymentDetailsJson } from '@shop/contracts';

/** What a PayPal order must look like to pay a checkout of `pence`: see verifyPayPalOrder. */
export type Verification = { ok: true; details: PaymentDetailsJson } | { ok: false; reason: string };

/** PayPal's amount strings for GBP: digits, a point, exactly two decimals. */
const AMOUNT = /^(\d{1,10})\.(\d{2})$/;

/** "12.34" → 1234, or null for anything that is not a two-decimal amount. */
export function parseAmount(value: unknown): number | null {
  const match = typeof value === 'string' ? AMOUNT.exec(value) : null;
  return match ? Number(match[1]) * 100 + Number(match[2]) : null;
}

/** 1234 → "12.34": the only way money leaves the shop for PayPal (docs/pitfalls.md#paypal-amounts). */
export function formatAmount(pence: number): string {
  return (pence / 100).toFixed(2);
}

interface PayPalAmount {
  currency_code?: unknown;
  value?: unknown;
}
interface PayPalCapture {
  id?: unknown;
  status?: unknown;
  amount?: PayPalAmount;
  create_time?: unknown;
}
interface PayPalRefund {
  id?: unknown;
  status?: unknown;
  amount?: PayPalAmount;
}
interface PayPalOrder {
  id?: unknown;
  status?: unknown;
  purchase_units?: Array<{
    amount?: PayPalAmount;
    payments?: { captures?: PayPalCapture[]; refunds?: PayPalRefund[] };
  }>;
  payer?: { email_address?: unknown; payer_id?: unknown };
}

const text = (v: unknown): string | undefined => (typeof v === 'string' && v ? v : undefined);

/**
 * Decides, from PayPal's own GET /v2/checkout/orders/{id} answer, whether the order paid `pence` GBP
 * (docs/pitfalls.md#verify-the-paypal-capture): the order COMPLETED, and its captures — each in GBP — adding up, among
 * those COMPLETED,
 * to exactly the checkout's total; an order marked COMPLETED can still hold a declined capture. The
 * purchase unit's own amount, when stated, must agree too. Nothing else is trusted, least of all the client.
 */
export function verifyPayPalOrder(raw: unknown, expected: { pence: number; currency?: string }): Verification {
  const currency = expected.currency ?? CURRENCY;
  const order = (raw ?? {}) as PayPalOrder;
  if (order.status !== 'COMPLETED') return { ok: false, reason: `order status ${String(order.status)}` };
  const units = Array.isArray(order.purchase_units) ? order.purchase_units : [];
  if (units.length !== 1) return { ok: false, reason: `${units.length} purchase units` };
  const unit = units[0];
  if (unit.amount) {
    if (unit.amount.currency_code !== currency)
      return { ok: false, reason: `order currency ${String(unit.amount.currency_code)}` };
    if (parseAmount(unit.amount.value) !== expected.pence)
      return { ok: false, reason: `order amount ${String(unit.amount.value)}` };
  }
  const captures = Array.isArray(unit.payments?.captures) ? unit.payments.captures : [];
  const completed = captures.filter((c) => c?.status === 'COMPLETED');
  if (!completed.length)
    return {
      ok: false,
      reason: `no completed capture (${captures.map((c) => String(c?.status)).join(', ') || 'none'})`,
    };
  let captured = 0;
  for (const capture of completed) {
    if (capture.amount?.currency_code !== currency)
      return { ok: false, reason: `capture currency ${String(capture.amount?.currency_code)}` };
    const pence = parseAmount(capture.amount?.value);
    if (pence === null) return { ok: false, reason: `capture amount ${String(capture.amount?.value)}` };
    captured += pence;
  }
  if (captured !== expected.pence)
    return { ok: false, reason: `captured ${formatAmount(captured)}, expected ${formatAmount(expected.pence)}` };

  const first = completed[0];
  return {
    ok: true,
    details: {
      provider: 'paypal',
      id: String(order.id),
      status: 'COMPLETED',
      captureId: String(first.id),
      captureStatus: 'COMPLETED',
      amount: formatAmount(captured),
      currency,
      ...(text(order.payer?.email_address) ? { payerEmail: text(order.payer?.email_address) } : {}),
      ...(text(order.payer?.payer_id) ? { payerId: text(order.payer?.payer_id) } : {}),
      ...(text(first.create_time) ? { capturedAt: text(first.create_time) } : {}),
    },
  };
}

/** What a refund must look like to count as made: see verifyPayPalRefund. */
export type RefundVerification = { ok: true; amountPence: number; currency: string } | { ok: false; reason: string };

/**
 * Decides, from PayPal's own GET /v2/checkout/orders/{id} answer after a refund, whether the refund `refundId` of
 * the capture `captureId` gave back exactly `pence` GBP (`partial`: a part of the capture, a return's): the refund is listed on the order, COMPLETED (or PENDING:
 * PayPal has accepted it and sends the money once it can), in GBP, for the whole amount; the capture reads
 * REFUNDED (or still COMPLETED/PARTIALLY_REFUNDED while a PENDING refund is on its way). Only PayPal's record of
 * the order counts, as for payments, not the refund call's answer alone.
 */
export function verifyPayPalRefund(
  raw: unknown,
  expected: { refundId: string; captureId: string; pence: number; currency?: string; partial?: boolean },
): RefundVerification {
  const currency = expected.currency ?? CURRENCY;
  const order = (raw ?? {}) as PayPalOrder;
  const units = Array.isArray(order.purchase_units) ? order.purchase_units : [];
  const payments = units[0]?.payments;
  const capture = (Array.isArray(payments?.captures) ? payments.captures : []).find(
    (c) => c?.id === expected.captureId,
  );
  if (!capture) return { ok: false, reason: `no capture ${expected.captureId} on the order` };
  const refund = (Array.isArray(payments?.refunds) ? payments.refunds : []).find((r) => r?.id === expected.refundId);
  if (!refund) return { ok: false, reason: `no refund ${expected.refundId} on the order` };
  if (refund.status !== 'COMPLETED' && refund.status !== 'PENDING')
    return { ok: false, reason: `refund status ${String(refund.status)}` };
  if (refund.amount?.currency_code !== currency)
    return { ok: false, reason: `refund currency ${String(refund.amount?.currency_code)}` };
  const pence = parseAmount(refund.amount?.value);
  if (pence !== expected.pence) return { ok: false, reason: `refund amount ${String(refund.amount?.value)}` };
  // A partial refund (a return) leaves the capture PARTIALLY_REFUNDED, or REFUNDED once nothing remains.
  const after = expected.partial ? ['PARTIALLY_REFUNDED', 'REFUNDED'] : ['REFUNDED'];
  if (refund.status === 'COMPLETED' && !after.includes(String(capture.status)))
    return { ok: false, reason: `capture status ${String(capture.status)} after a completed refund` };
  return { ok: true, amountPence: pence, currency };
}

/** The ids of the refunds PayPal lists on the order (GET /v2/checkout/orders/{id}), oldest first. */
export function refundIdsOf(raw: unknown): string[] {
  const units = ((raw ?? {}) as PayPalOrder).purchase_units;
  const refunds = Array.isArray(units) ? units[0]?.payments?.refunds : undefined;
  return (Array.isArray(refunds) ? refunds : []).map((r) => text(r?.id)).filter((id): id is string => !!id);
}
