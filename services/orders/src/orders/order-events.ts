import {
  EVENTS,
  SHIPPING_ADDRESS_FIELDS,
  toPounds,
  trackingUrl,
  type Carrier,
  type CreateOrderRequest,
  type OrderCancelledEvent,
  type OrderItemRef,
  type OrderPlacedEvent,
  type OrderStatus,
  type OrderStatusChangedEvent,
  type OrderSummary,
  type ShippingAddress,
} from '@shop/contracts';
import { outboxEntry, type OutboxEntry } from '@shop/nest-common';
import type { LeanOrder } from './order.schema';

/**
 * The events an order announces, each with a stable event id, so that a relay publishing an entry again (at
 * least once) repeats the same event, which consumers dedupe.
 */

/** An outbox entry that happened at `at` (the time the change it announces was stored). */
const entryAt = <T>(type: string, data: T, eventId: string, at: Date): OutboxEntry<T> => ({
  ...outboxEntry(type, data, eventId),
  occurredAt: at,
});

/** The buyer as the order keeps them: name, and email when there is one. */
const customerOf = ({ name, email }: OrderSummary['customer']): OrderSummary['customer'] => ({
  name,
  ...(email ? { email } : {}),
});

function itemRefs(order: Pick<CreateOrderRequest, 'orderItems'>): OrderItemRef[] {
  return order.orderItems.map(({ productId, quantity, size, color, sku }) => ({
    productId,
    quantity,
    size,
    color,
    ...(sku ? { sku } : {}),
  }));
}

/**
 * What the customer is told of the order they placed: the lines as bought (pounds), subtotal and discount when a code
 * was used, total, address, when.
 */
function summaryOf(req: CreateOrderRequest, placedAt: Date): OrderSummary {
  return {
    customer: customerOf(req.user),
    lines: req.orderItems.map(({ name, quantity, pricePence, size, color, sku }) => ({
      name,
      quantity,
      price: toPounds(pricePence),
      ...(size ? { size } : {}),
      ...(color ? { color } : {}),
      ...(sku ? { sku } : {}),
    })),
    totalPrice: toPounds(req.totalPence),
    ...(req.subtotalPence !== undefined ? { subtotal: toPounds(req.subtotalPence) } : {}),
    ...(req.discount ? { discount: { code: req.discount.code, amount: toPounds(req.discount.amountPence) } } : {}),
    shippingAddress: Object.fromEntries(
      SHIPPING_ADDRESS_FIELDS.map((field) => [field, req.shippingAddress[field]]),
    ) as ShippingAddress,
    placedAt: placedAt.toISOString(),
  };
}

/** orders.order.placed, once per checkout (its id is the checkout's): stock committed, cart cleared, customer told. */
export function placedEvent(orderId: string, req: CreateOrderRequest, placedAt: Date): OutboxEntry<OrderPlacedEvent> {
  const data: OrderPlacedEvent = {
    orderId,
    checkoutId: req.checkoutId,
    userId: req.user._id,
    items: itemRefs(req),
    summary: summaryOf(req, placedAt),
  };
  return entryAt(EVENTS.orders.orderPlaced, data, `${EVENTS.orders.orderPlaced}:${req.checkoutId}`, placedAt);
}

/** orders.order.cancelled, with an event id of its own per order: the stock goes back once. */
export function cancelledEvent(order: LeanOrder): OutboxEntry<OrderCancelledEvent> {
  const orderId = String(order._id);
  const data: OrderCancelledEvent = {
    orderId,
    checkoutId: order.checkoutId,
    userId: order.user._id,
    items: itemRefs(order),
  };
  return outboxEntry(EVENTS.orders.orderCancelled, data, `${EVENTS.orders.orderCancelled}:${orderId}`);
}

/**
 * orders.order.status-changed for the order's `n`-th change (its n-th status history entry after the placing):
 * the id `orders.order.status-changed:<orderId>:<n>` names that change and no other.
 */
export function statusChangedEvent(
  order: LeanOrder,
  change: {
    n: number;
    status: OrderStatus;
    at: Date;
    refund?: { amountPence: number; currency: string };
    tracking?: { carrier: Carrier; number: string };
  },
): OutboxEntry<OrderStatusChangedEvent> {
  const orderId = String(order._id);
  const data: OrderStatusChangedEvent = {
    orderId,
    userId: order.user._id,
    status: change.status,
    previousStatus: order.status,
    changedAt: change.at.toISOString(),
    customer: customerOf(order.user),
    items: itemRefs(order),
    // A cancellation that refunded the payment: the customer is told how much went back.
    ...(change.refund
      ? { refund: { amount: toPounds(change.refund.amountPence), currency: change.refund.currency } }
      : {}),
    // Marked Shipped with its parcel: the email links to the carrier's tracking page.
    ...(change.tracking
      ? {
          tracking: {
            carrier: change.tracking.carrier,
            number: change.tracking.number,
            url: trackingUrl(change.tracking.carrier, change.tracking.number),
          },
        }
      : {}),
  };
  return entryAt(
    EVENTS.orders.orderStatusChanged,
    data,
    `${EVENTS.orders.orderStatusChanged}:${orderId}:${change.n}`,
    change.at,
  );
}
