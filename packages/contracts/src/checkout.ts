import type { CartLineJson } from './cart';
import type { AppliedDiscountJson } from './discounts';

// ---- HTTP shapes (docs/api.md#checkout)

/** The storefront clients of this shop send `Paypal`; PayPal's own spelling is accepted too. Stored as `PayPal`. */
export const PAYMENT_METHODS = ['PayPal', 'Paypal'] as const;
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];

/** The seven required address fields (docs/product.md#validation), in the order the form shows them. */
export const SHIPPING_ADDRESS_FIELDS = [
  'firstName',
  'lastName',
  'address',
  'city',
  'postalCode',
  'country',
  'phone',
] as const;
export type ShippingAddressField = (typeof SHIPPING_ADDRESS_FIELDS)[number];
export type ShippingAddress = Record<ShippingAddressField, string>;

/** What the shop's checkout form calls each field, for messages ("First name is required"). */
export const SHIPPING_ADDRESS_LABELS: Record<ShippingAddressField, string> = {
  firstName: 'First name',
  lastName: 'Last name',
  address: 'Address',
  city: 'City',
  postalCode: 'Postal code',
  country: 'Country',
  phone: 'Phone',
};

/** A checkout line: the catalogue's name, image and price when the checkout was made. */
export type CheckoutLineJson = CartLineJson;

/** What the server keeps of a PayPal payment: ids, statuses, payer and amount, never the whole answer. */
export interface PaymentDetailsJson {
  provider: 'paypal';
  /** PayPal's order id (what the client sent as paymentDetails.id). */
  id: string;
  status: string;
  captureId: string;
  captureStatus: string;
  /** Two decimals, as PayPal states it. */
  amount: string;
  currency: string;
  payerEmail?: string;
  payerId?: string;
  /** When PayPal says the capture happened. */
  capturedAt?: string;
}

export type PaymentStatus = 'pending' | 'paid';

export interface CheckoutJson {
  _id: string;
  user: string;
  checkoutItems: CheckoutLineJson[];
  shippingAddress: ShippingAddress;
  paymentMethod: 'PayPal';
  /** The merchandise subtotal before any discount (GBP); set on checkouts made since discount codes. */
  subtotal?: number;
  /** The discount code applied, and what it took off. */
  discount?: AppliedDiscountJson;
  /** The server's total (GBP, two decimals): what PayPal must be paid. */
  totalPrice: number;
  isPaid: boolean;
  paidAt?: string;
  paymentStatus: PaymentStatus;
  paymentDetails?: PaymentDetailsJson;
  isFinalized: boolean;
  finalizedAt?: string;
  /** Until then the stock is held for this checkout (extended once it is paid). */
  reservationExpiresAt: string;
  /** True when the client's totalPrice differed from the server's (the server's is charged). */
  priceAdjusted?: boolean;
  createdAt: string;
  updatedAt: string;
}

/** GET /api/config: what the SPA reads at run time, so one build serves every environment. */
export interface ShopConfigJson {
  currency: 'GBP';
  paypal: {
    clientId: string;
    mode: 'paypal' | 'fake';
    /** Fake mode only: the fake PayPal's base URL as a browser on this host reaches it. */
    apiBase?: string;
  };
}

export const CHECKOUT_MESSAGES = {
  noItems: 'No items in checkout',
  notFound: 'Checkout not found',
  invalidId: 'Invalid checkout id',
  paymentNotVerified: 'Payment could not be verified',
  paymentUsed: 'Payment already used',
  alreadyPaid: 'Checkout is already paid',
  notPaid: 'Checkout is not paid',
  paypalUnavailable: 'PayPal is unavailable, please try again',
  /** A refund asked for a payment checkout has no record of (or of another checkout or capture). */
  paymentNotFound: 'No PayPal payment of this order is on record',
  /** PayPal said it refunded, but its own record of the order does not show that refund. */
  refundNotVerified: 'PayPal did not confirm the refund, please try again',
  paymentMethod: 'Payment method must be PayPal',
  paypalOrderId: 'paymentDetails.id (the PayPal order id) is required',
  stockGoneRefunded: (reason: string) => `${reason}. Your reservation had expired, so the payment was refunded.`,
  /** A line that names no variant of its product, e.g. `Line 2 (Chiefs Home Jersey): please choose a size`. */
  lineProblem: (line: number, name: string, problem: string) => `Line ${line} (${name}): ${problem}`,
  chooseSize: 'please choose a size',
  chooseColor: 'please choose a color',
  sizeNotOffered: (size: string) => `size ${size} is not offered`,
  colorNotOffered: (color: string) => `color ${color} is not offered`,
} as const;

// ---- Request/response: PATTERNS.checkout.expiredHold (catalog → checkout, its sweeper)

/** A checkout's hold of stock ran out of time: may the catalog give it back? */
export interface ExpiredHoldRequest {
  checkoutId: string;
}

/**
 * `release: true` for an unpaid checkout (which from now on holds its lines again when it is paid) or none at all (a
 * hold whose checkout was never stored); `false` for a paid one: its units stay held until its order takes them.
 */
export interface ExpiredHoldResponse {
  release: boolean;
}
