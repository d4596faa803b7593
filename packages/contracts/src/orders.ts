import type { OrderStatus } from './catalog';
import type { CheckoutLineJson, PaymentDetailsJson, ShippingAddress } from './checkout';
import type { AppliedDiscountJson } from './discounts';
import type { OrderReturnJson, ReturnStatus } from './returns';
import type { TrackingJson } from './tracking';

/** Shipping shows as Free; estimated delivery 10 days after the order (docs/product.md#business-constants). */
export const SHIPPING_METHOD = 'Free international shipping';
export const ESTIMATED_DELIVERY_DAYS = 10;

// ---- HTTP shapes (docs/api.md#orders)

export type OrderLineJson = CheckoutLineJson;

/**
 * One entry of an order's history: from `at` on, the order was `status`. The history is append-only, oldest
 * first; its first entry is Processing when the order was placed. Later entries may carry more, as optional
 * fields (who made the change, a payment or a refund): a reader ignores what it does not know.
 */
export interface OrderStatusEntryJson {
  status: OrderStatus;
  /** ISO time it took effect. */
  at: string;
  /** The admin who made the change; absent for the shop's own entries (the order placed). */
  by?: { _id: string; name: string };
  /** The refund this change made (a paid order cancelled): PayPal's refund id, the amount (GBP). */
  refund?: { id: string; amount: number };
  /**
   * Something that happened without changing the status, e.g. "Refund refused by PayPal: …" — the order kept
   * its status (`status` repeats it) and its money.
   */
  note?: string;
  /**
   * A step of one of the order's returns (the order's status unchanged, `status` repeats it): which return, its new
   * status, what it refunds or refunded (GBP), the admin's note to the customer.
   */
  return?: { id: string; status: ReturnStatus; amount?: number; note?: string };
}

export interface OrderJson {
  _id: string;
  /** The buyer as they were when they ordered (kept after the user is deleted). */
  user: { _id: string; name: string; email?: string };
  checkoutId: string;
  orderItems: OrderLineJson[];
  shippingAddress: ShippingAddress;
  paymentMethod: 'PayPal';
  shippingMethod: string;
  /** Before the discount (GBP); absent on orders placed before discount codes (then it equals totalPrice). */
  subtotal?: number;
  discount?: AppliedDiscountJson;
  /** What was paid. */
  totalPrice: number;
  isPaid: boolean;
  paidAt: string;
  paymentStatus: 'paid';
  paymentDetails?: PaymentDetailsJson;
  isDelivered: boolean;
  deliveredAt?: string;
  status: OrderStatus;
  /**
   * Every status the order has had, oldest first; the last is `status`. Orders placed before the history was
   * kept show one made from what they store: Processing at createdAt, then the current status (Delivered at
   * deliveredAt, any other at updatedAt).
   */
  statusHistory: OrderStatusEntryJson[];
  /** The order's returns, oldest first; absent when it has none. */
  returns?: OrderReturnJson[];
  /** What its returns refunded so far (GBP); absent when nothing was. */
  refunded?: number;
  /** Delivered: the last day a return can be asked for (ISO); absent otherwise. */
  returnableUntil?: string;
  /** The parcel, once the order was marked Shipped with a carrier and tracking number. */
  tracking?: TrackingJson;
  /**
   * Money PayPal gave back outside the shop (a refund made in PayPal's dashboard, a chargeback the buyer won), as
   * PayPal's webhooks told it; oldest first. Absent when there was none. The admin's dashboard flags such orders.
   */
  externalRefunds?: ExternalRefundJson[];
  createdAt: string;
  updatedAt: string;
}

/** A refund or reversal of the order's capture made outside the shop, as PayPal reported it. */
export interface ExternalRefundJson {
  /** PayPal's id of the refund (or reversal). */
  id: string;
  kind: PaymentReversalKind;
  /** GBP. */
  amount: number;
  currency: string;
  /** ISO time PayPal made it. */
  at: string;
}

/** `refund`: made in PayPal's dashboard (PAYMENT.CAPTURE.REFUNDED); `reversal`: a chargeback (….REVERSED). */
export type PaymentReversalKind = 'refund' | 'reversal';

export interface RevenueDayJson {
  /** YYYY-MM-DD (UTC). */
  date: string;
  /** Sum of the day's paid, not cancelled order totals (GBP). */
  revenue: number;
  orders: number;
}

/** GET /api/admin/stats */
export interface AdminStatsJson {
  /** Sum of the totals of paid orders that are not Cancelled (GBP). */
  revenue: number;
  orders: number;
  /** Products in the catalogue; null when the catalog did not answer. */
  products: number | null;
  recentOrders: OrderJson[];
  /** The last STATS_DAYS days, oldest first, every day present. */
  revenueByDay: RevenueDayJson[];
  /**
   * Orders whose payment PayPal gave back outside the shop (externalRefunds), the latest first (at most
   * RECENT_ORDERS × 2), and how many there are: the dashboard flags them for an admin to look at, until the admin
   * marks an order's reviewed (POST /api/admin/orders/:id/payment-alert/review); a later one flags it again.
   */
  paymentAlerts?: { count: number; orders: OrderJson[] };
}

export const STATS_DAYS = 30;
export const RECENT_ORDERS = 5;

export const ORDER_MESSAGES = {
  notFound: 'Order not found',
  invalidId: 'Invalid order id',
  invalidStatus: `Invalid status`,
  cancelledIsFinal: 'A cancelled order cannot change status',
  deliveredCannotBeCancelled: 'A delivered order cannot be cancelled',
  /** The order stays as it was, paid; its history keeps this as a note. */
  refundRefused: (reason: string) => `Refund refused by PayPal: ${reason}`,
  /** 409: a cancel's refund got no answer yet; no other status until it is settled (the money may be back already). */
  refundPending: 'A refund of this order is not confirmed yet: cancel it again to settle it, or try again shortly',
  /** 503: the refund got no answer in time; it may be made yet (the order is then cancelled by the shop itself). */
  refundNotConfirmed:
    'The refund is not confirmed yet, so the order is not cancelled. If the refund is made, the order will be cancelled shortly; otherwise please try again',
  /** The admin's confirmation before cancelling an order that was paid (`amount` formatted, e.g. £90.00). */
  confirmCancelPaid: (amount: string) =>
    `Cancel this order and refund ${amount} to the customer's PayPal account? Its items go back on sale, and a cancelled order cannot change status again.`,
  removed: 'Order removed',
  /** The history note of a shipped order's tracking corrected by an admin. */
  trackingChanged: (carrier: string, number: string) => `Tracking changed to ${carrier} ${number}`,
  /** The history note of money PayPal gave back outside the shop (`amount` formatted, e.g. £90.00). */
  externalRefund: (kind: PaymentReversalKind, amount: string, id: string) =>
    kind === 'refund'
      ? `Refunded in PayPal, outside the shop: ${amount} (PayPal refund ${id})`
      : `Payment reversed by PayPal (a chargeback): ${amount} (PayPal reversal ${id})`,
  /** The history note of an admin marking the money given back outside the shop as reviewed (off the dashboard). */
  paymentAlertReviewed: (refunds: number) =>
    refunds === 1
      ? 'Refund or reversal made outside the shop reviewed'
      : `${refunds} refunds or reversals made outside the shop reviewed`,
  /** 400: the review names how many of them the admin looked at. */
  invalidRefundsSeen: 'refunds must be the number of refunds and reversals you reviewed (a whole number)',
  /** 409: PayPal gave money back again since the admin looked; the dashboard shows it. */
  paymentChangedSinceSeen:
    'PayPal reported another refund or reversal of this order since you looked: review it again on the dashboard',
} as const;

/** POST /api/admin/orders/:id/payment-alert/review: how many of the order's `externalRefunds` the admin reviewed. */
export interface ReviewPaymentAlertBody {
  refunds: number;
}

// ---- Request/response: PATTERNS.orders.createOrder (checkout → orders)

/** A paid checkout, as orders needs it to make the order. */
export interface CreateOrderRequest {
  checkoutId: string;
  user: { _id: string; name: string; email?: string };
  orderItems: Array<Omit<OrderLineJson, 'price'> & { pricePence: number }>;
  shippingAddress: ShippingAddress;
  /** What was paid (after the discount). */
  totalPence: number;
  /** Before the discount; absent from checkouts made before discount codes. */
  subtotalPence?: number;
  discount?: { code: string; amountPence: number };
  paidAt: string;
  paymentDetails?: PaymentDetailsJson;
  /**
   * The caller expects the order to exist (finalize after the pay that placed it): orders looks it up before it tries
   * an insert, one read instead of a refused insert and a read. Either way the checkout has one order.
   */
  placedBefore?: boolean;
}

export interface CreateOrderResponse {
  order: OrderJson;
  /** true for the call that made it; false when the checkout's order already existed. */
  created: boolean;
}

// ---- Request/response: PATTERNS.orders.recordPaymentReversal (checkout → orders, from a PayPal webhook)

/** Money PayPal gave back outside the shop, for the order of the checkout the capture paid. */
export interface RecordPaymentReversalRequest {
  checkoutId: string;
  paypalOrderId: string;
  captureId: string;
  /** PayPal's refund id: the order records each once. */
  refundId: string;
  kind: PaymentReversalKind;
  amountPence: number;
  currency: string;
  /** ISO time PayPal made it. */
  at: string;
}

/** `recorded` false: that refund was on the order already (a replayed webhook). 404 when the checkout has no order. */
export interface RecordPaymentReversalResponse {
  orderId: string;
  recorded: boolean;
}

// ---- Request/response: PATTERNS.catalog.countProducts (orders' dashboard)

export interface CountProductsResponse {
  products: number;
}

// ---- Request/response: PATTERNS.checkout.refundOrderPayment (orders → checkout, cancelling a paid order)

/** The payment of an order to refund in full: the PayPal order and capture the order's checkout was paid with. */
export interface RefundOrderPaymentRequest {
  orderId: string;
  checkoutId: string;
  /** paymentDetails.id: the PayPal order. */
  paypalOrderId: string;
  /** paymentDetails.captureId: the capture refunded. */
  captureId: string;
  /**
   * Refund nothing: only say whether the payment was refunded already (checkout's record, or PayPal's record of the
   * order), `{refunded: false}` if not. Orders' check of a cancel whose refund got no answer.
   */
  onlyIfMade?: boolean;
}

/**
 * The refund made (now, or by an earlier request for the same payment: the same refund again), or PayPal's refusal
 * in its own words. No answer at all (checkout or PayPal away, a timeout) is an error (503), never a refusal.
 */
export type RefundOrderPaymentResponse =
  { refunded: true; refundId: string; amountPence: number; currency: string } | { refunded: false; reason: string };
