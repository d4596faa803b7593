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
  },
  catalog: {
    productChanged: 'catalog.product.changed',
    productDeleted: 'catalog.product.deleted',
  },
  orders: {
    orderPlaced: 'orders.order.placed',
    orderCancelled: 'orders.order.cancelled',
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

export interface ProductChangedEvent {
  productId: string;
}

export interface ProductDeletedEvent {
  productId: string;
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

/** EVENTS.orders.orderPlaced: commits the checkout's held units as sold (idempotent per checkout and product). */
export interface OrderPlacedEvent {
  orderId: string;
  checkoutId: string;
  userId: string;
  items: OrderItemRef[];
}

/** EVENTS.orders.orderCancelled: gives the order's sold units back to stock, once. */
export interface OrderCancelledEvent {
  orderId: string;
  checkoutId: string;
  userId: string;
  items: OrderItemRef[];
}
