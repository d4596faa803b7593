import {
  DISCOUNT_MESSAGES,
  toPounds,
  type DiscountCodeJson,
  type DiscountStatus,
  type DiscountType,
} from '@shop/contracts';

/** What the rules read of a code (pence inside). */
export interface DiscountTerms {
  type: DiscountType;
  percent?: number;
  amountPence?: number;
  minSubtotalPence: number | null;
  startsAt: Date | null;
  endsAt: Date | null;
  usageLimit: number | null;
  perCustomerLimit: number | null;
  firstOrderOnly: boolean;
  active: boolean;
  email?: string;
}

/** How a shopper's code is looked up: case-insensitive, kept upper-case. */
export const normalizeCode = (code: string): string => code.trim().toUpperCase();

/**
 * The pence a code takes off a merchandise subtotal: a percentage rounded half-up to the penny, once, on the
 * subtotal (integer arithmetic, no float ever rounded); a fixed amount, never more than the subtotal.
 */
export function discountPence(terms: Pick<DiscountTerms, 'type' | 'percent' | 'amountPence'>, subtotalPence: number) {
  if (subtotalPence <= 0) return 0;
  const off =
    terms.type === 'percent'
      ? Math.floor((subtotalPence * (terms.percent ?? 0) + 50) / 100)
      : Math.min(terms.amountPence ?? 0, subtotalPence);
  return Math.max(0, Math.min(off, subtotalPence));
}

/**
 * Why the code cannot be used for this subtotal and buyer, by its own terms (the uses are counted elsewhere), or
 * undefined. Checked in the order a shopper can act on: the code itself, whose it is, then the basket.
 */
export function termsRefusal(
  terms: DiscountTerms,
  ctx: { now: Date; subtotalPence: number; email?: string },
): string | undefined {
  if (!terms.active) return DISCOUNT_MESSAGES.inactive;
  if (terms.startsAt && ctx.now < terms.startsAt) return DISCOUNT_MESSAGES.notYetValid;
  if (terms.endsAt && ctx.now >= terms.endsAt) return DISCOUNT_MESSAGES.expired;
  if (terms.email && terms.email !== ctx.email?.toLowerCase()) return DISCOUNT_MESSAGES.notYours;
  if (terms.minSubtotalPence !== null && ctx.subtotalPence < terms.minSubtotalPence)
    return DISCOUNT_MESSAGES.belowMinimum(toPounds(terms.minSubtotalPence).toFixed(2));
  return undefined;
}

/**
 * The uses one customer may have of a code: its per-customer limit, and one for a first-order code (a customer's
 * second order is never a first order, so two open checkouts cannot both take it).
 */
export function customerLimitOf(terms: Pick<DiscountTerms, 'perCustomerLimit' | 'firstOrderOnly'>): number | null {
  if (terms.firstOrderOnly) return Math.min(1, terms.perCustomerLimit ?? 1);
  return terms.perCustomerLimit;
}

/** The admin list's status: inactive, then expired, used up, scheduled, else active. */
export function statusOf(terms: DiscountTerms, uses: number, now: Date): DiscountStatus {
  if (!terms.active) return 'inactive';
  if (terms.endsAt && now >= terms.endsAt) return 'expired';
  if (terms.usageLimit !== null && uses >= terms.usageLimit) return 'used up';
  if (terms.startsAt && now < terms.startsAt) return 'scheduled';
  return 'active';
}

/** The code as the admin sees it (pounds, ISO times, its uses, holds and status). */
export function toDiscountCodeJson(
  c: DiscountTerms & { _id: unknown; code: string; createdAt: Date; updatedAt: Date },
  counts: { uses: number; held: number },
  now = new Date(),
): DiscountCodeJson {
  const iso = (d: Date | null) => (d ? new Date(d).toISOString() : null);
  return {
    _id: String(c._id),
    code: c.code,
    type: c.type,
    value: c.type === 'percent' ? (c.percent ?? 0) : toPounds(c.amountPence ?? 0),
    minSubtotal: c.minSubtotalPence === null ? null : toPounds(c.minSubtotalPence),
    startsAt: iso(c.startsAt),
    endsAt: iso(c.endsAt),
    usageLimit: c.usageLimit,
    perCustomerLimit: c.perCustomerLimit,
    firstOrderOnly: c.firstOrderOnly,
    active: c.active,
    uses: counts.uses,
    held: counts.held,
    status: statusOf(c, counts.uses, now),
    ...(c.email ? { email: c.email } : {}),
    createdAt: new Date(c.createdAt).toISOString(),
    updatedAt: new Date(c.updatedAt).toISOString(),
  };
}
