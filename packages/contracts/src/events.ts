import type { OrderStatus } from './catalog';
import type { ShippingAddress } from './checkout';
import type { TrackingJson } from './tracking';

/**
 * Events: facts published to the topic exchange, named `<publisher>.<entity>.<past-participle>`
 * and owned by the publisher. Every event carries an id (dedupe key) and the time it happened.
 */
export interface EventEnvelope<T = unknown> {
  eventId: string;
  type: string;
  occurredAt: string;
  /** The request that caused it, when there was one. */
  requestId?: string;
  data: T;
}

export const EVENTS = {
  identity: {
    userRoleChanged: 'identity.user.role-changed',
    userDeleted: 'identity.user.deleted',
    userRegistered: 'identity.user.registered',
    passwordResetRequested: 'identity.password-reset.requested',
    subscriberSubscribed: 'identity.subscriber.subscribed',
  },
  checkout: {
    welcomeCodeIssued: 'checkout.welcome-code.issued',
  },
  catalog: {
    productChanged: 'catalog.product.changed',
    productDeleted: 'catalog.product.deleted',
    stockAlertTriggered: 'catalog.stock-alert.triggered',
  },
  orders: {
    orderPlaced: 'orders.order.placed',
    orderCancelled: 'orders.order.cancelled',
    orderStatusChanged: 'orders.order.status-changed',
    /** ReturnStatusChangedEvent: each step of a return (returns.ts). */
    returnStatusChanged: 'orders.return.status-changed',
  },
} as const;

export interface UserRoleChangedEvent {
  userId: string;
  role: string;
  previousRole: string;
  /** Tokens of this user issued before this instant (ms since epoch) are void. */
  revokedBefore: number;
}

export interface UserDeletedEvent {
  userId: string;
  revokedBefore: number;
}

export interface UserRegisteredEvent {
  userId: string;
  name: string;
  email: string;
}

/**
 * EVENTS.identity.passwordResetRequested: a reset link must reach this address. `token` is the only copy of
 * the secret outside the user's inbox (identity keeps its hash): whoever consumes it sends it and never stores
 * it. Published only for an existing account.
 */
export interface PasswordResetRequestedEvent {
  userId: string;
  name: string;
  email: string;
  token: string;
  /** ISO time after which the token is refused. */
  expiresAt: string;
}

/** EVENTS.identity.subscriberSubscribed: an address joined the newsletter (again: the same event is sent again). */
export interface SubscriberSubscribedEvent {
  email: string;
  /** The personal discount code of the newsletter, once the discount codes exist. */
  discountCode?: string;
}

export interface ProductChangedEvent {
  productId: string;
}

export interface ProductDeletedEvent {
  productId: string;
}

/**
 * EVENTS.catalog.stockAlertTriggered: a sold-out size and colour someone asked to hear about is back in stock. One
 * event per request, published once its request left the waiting state (a conditional write), with the eventId
 * `catalog.stock-alert.triggered:<requestId>`: republished with the same id until the broker confirms, so the
 * consumer's claim on the id sends one email per request.
 */
export interface StockAlertTriggeredEvent {
  requestId: string;
  email: string;
  productId: string;
  /** The product's name, first image (a public URL) and price in pence, as they are now. */
  name: string;
  image: string;
  pricePence: number;
  /** '' when the product has no sizes (colours). */
  size: string;
  color: string;
  /** Units of that size and colour in stock when the request was triggered. */
  countInStock: number;
  /** When the customer asked (ISO). */
  requestedAt: string;
  /** Signed: stops every waiting back-in-stock request of this address, without signing in. */
  unsubscribeToken: string;
}

// ---- Published by orders; consumed by catalog (stock) and cart (clear)

/** A line of an order: its variant is the product's size × colour ('' or absent: the product offers none). */
export interface OrderItemRef {
  productId: string;
  quantity: number;
  size?: string;
  color?: string;
  /** The variant's SKU when the order was placed. */
  sku?: string;
}

/** A line as the customer is told of it (the price of one unit in pounds, as the order shows it). */
export interface OrderSummaryLine {
  name: string;
  quantity: number;
  price: number;
  size?: string;
  color?: string;
  sku?: string;
}

/** What a customer is told about their order, carried by the event so that no one has to ask orders. */
export interface OrderSummary {
  customer: { name: string; email?: string };
  lines: OrderSummaryLine[];
  /** The order's total in pounds (what was paid). */
  totalPrice: number;
  /** Before the discount, when there was one. */
  subtotal?: number;
  discount?: { code: string; amount: number };
  shippingAddress: ShippingAddress;
  /** ISO time the order was placed; the estimated delivery is ESTIMATED_DELIVERY_DAYS after it. */
  placedAt: string;
}

/**
 * EVENTS.orders.orderPlaced: commits the checkout's held units as sold (idempotent per checkout and product)
 * and tells the customer. `summary` is absent from events stored before it existed.
 */
export interface OrderPlacedEvent {
  orderId: string;
  checkoutId: string;
  userId: string;
  items: OrderItemRef[];
  summary?: OrderSummary;
}

/**
 * EVENTS.orders.orderStatusChanged: every change of an order's status after it was placed (Shipped,
 * Delivered, Cancelled, back to Processing), in the same write as the change. Its eventId is
 * `orders.order.status-changed:<orderId>:<n>` (n counts the order's changes), so a replay is the same event.
 */
export interface OrderStatusChangedEvent {
  orderId: string;
  userId: string;
  status: OrderStatus;
  previousStatus: OrderStatus;
  /** ISO time of the change. */
  changedAt: string;
  customer: { name: string; email?: string };
  /**
   * The order's lines (catalog records from a Delivered change who received which product, for reviews). Absent from
   * events stored before it existed.
   */
  items?: OrderItemRef[];
  /** Set when a cancellation refunded the payment (pounds). */
  refund?: { amount: number; currency: string };
  /** Set when the order was marked Shipped with its parcel's carrier and tracking number. */
  tracking?: TrackingJson;
}

/** EVENTS.orders.orderCancelled: gives the order's sold units back to stock, once. */
export interface OrderCancelledEvent {
  orderId: string;
  checkoutId: string;
  userId: string;
  items: OrderItemRef[];
}

/**
 * EVENTS.checkout.welcomeCodeIssued: the newsletter's personal code for an address, sent (again) on every
 * `identity.subscriber.subscribed` — the same code each time, never a second one. Its eventId follows the
 * subscribed event's (`checkout.welcome-code.issued:<subscribed eventId>`), so a redelivery is the same event.
 */
export interface WelcomeCodeIssuedEvent {
  email: string;
  code: string;
  percentOff: number;
  /** Whether it can still be used (false once the customer has placed an order with it, or any first order). */
  usable: boolean;
}
