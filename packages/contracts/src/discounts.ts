/**
 * Discount codes (issue 24): owned by checkout, which owns pricing. Money is integer pence inside, pounds with two
 * decimals at the API edge; a percentage rounds half-up to the penny, once, on the merchandise subtotal; a fixed amount
 * never takes a total below zero.
 */

export const DISCOUNT_TYPES = ['percent', 'fixed'] as const;
export type DiscountType = (typeof DISCOUNT_TYPES)[number];

/** What the admin sends: `POST /api/admin/discounts`, `PUT /api/admin/discounts/:id` (every field, as created). */
export interface DiscountCodeBody {
  /** Case-insensitive; kept and shown upper-case. 3–32 of A–Z, 0–9, `-` and `_`. */
  code: string;
  type: DiscountType;
  /** percent: a whole number 1–100; fixed: pounds, more than 0, at most two decimals. */
  value: number;
  /** Pounds; the code applies only from this merchandise subtotal on. */
  minSubtotal?: number | null;
  /** ISO times; the code is valid from `startsAt` (inclusive) until `endsAt` (exclusive). */
  startsAt?: string | null;
  endsAt?: string | null;
  /** Orders that may use it in all (holds of unpaid checkouts included). */
  usageLimit?: number | null;
  /** Orders one customer may place with it. */
  perCustomerLimit?: number | null;
  /** Only for a customer's first placed order. */
  firstOrderOnly?: boolean;
  active: boolean;
}

/** What a code looks like in the admin's list. */
export type DiscountStatus = 'active' | 'inactive' | 'scheduled' | 'expired' | 'used up';

export interface DiscountCodeJson extends Required<Omit<DiscountCodeBody, 'firstOrderOnly'>> {
  _id: string;
  firstOrderOnly: boolean;
  /** Orders placed with it. */
  uses: number;
  /** Unpaid checkouts holding a use of a limited code. */
  held: number;
  status: DiscountStatus;
  /** A personal code (the newsletter's): the only address it is for. */
  email?: string;
  createdAt: string;
  updatedAt: string;
}

/** A discount applied to a checkout or an order (pounds). */
export interface AppliedDiscountJson {
  code: string;
  amount: number;
}

/**
 * `POST /api/checkout/quote` (signed in) `{checkoutItems: [{productId, quantity, size?, color?}], discountCode?}`:
 * what the checkout would charge, priced by the server, without holding stock or a use. The checkout page's "Apply".
 */
export interface CheckoutQuoteJson {
  subtotal: number;
  discount?: AppliedDiscountJson;
  totalPrice: number;
}

/** The newsletter's personal code: 10 % off a first order, one use, tied to the subscriber's email. */
export const WELCOME_DISCOUNT = { prefix: 'WELCOME-', percent: 10 } as const;

/** Every refusal of a code at checkout is a 400 with one of these. */
export const DISCOUNT_MESSAGES = {
  unknown: 'This discount code does not exist',
  inactive: 'This discount code is no longer active',
  notYetValid: 'This discount code is not valid yet',
  expired: 'This discount code has expired',
  usedUp: 'This discount code has been used up',
  belowMinimum: (minSubtotal: string) => `This discount code needs a subtotal of at least £${minSubtotal}`,
  notFirstOrder: 'This discount code is only for a first order',
  perCustomerLimit: 'You have already used this discount code',
  notYours: 'This discount code is for another customer',
  notFound: 'Discount code not found',
  duplicate: 'A discount code with this name already exists',
  deactivated: 'Discount code deactivated',
} as const;
