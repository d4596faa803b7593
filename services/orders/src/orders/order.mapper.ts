import {
  SHIPPING_ADDRESS_FIELDS,
  toPounds,
  trackingUrl,
  type OrderJson,
  type OrderStatusEntryJson,
  type ShippingAddress,
} from '@shop/contracts';
import { returnForBuyer, returnsJsonOf } from '../returns/return.mapper';
import { statusHistoryOf, type StatusEntry } from './order-status';
import type { LeanOrder } from './order.schema';

const iso = (value: Date | string) => new Date(value).toISOString();

/** What a history entry may store beyond its status and time: who made the change, its refund, a note. */
export type StatusEntryExtras = Pick<StatusEntry, 'by' | 'refund' | 'note' | 'return'>;

/** A stored history entry as its JSON: its status and time, and whichever of by, refund and note it has. */
export function toStatusEntryJson(entry: StatusEntry): OrderStatusEntryJson {
  const { status, at, by, refund, note, return: ret } = entry;
  return {
    status,
    at: iso(at),
    ...(by ? { by: { _id: String(by._id), name: by.name } } : {}),
    ...(refund ? { refund: { id: refund.id, amount: toPounds(refund.amountPence) } } : {}),
    ...(note ? { note } : {}),
    ...(ret
      ? {
          return: {
            id: ret.id,
            status: ret.status,
            ...(ret.amountPence !== undefined ? { amount: toPounds(ret.amountPence) } : {}),
            ...(ret.note ? { note: ret.note } : {}),
          },
        }
      : {}),
  };
}

/**
 * The order as its buyer reads it: its history without the admins' names and without notes (things that happened
 * without a change, e.g. PayPal refusing a refund: the shop's business, not the buyer's). Admins read it whole.
 */
export function forBuyer(order: OrderJson): OrderJson {
  return {
    ...order,
    statusHistory: order.statusHistory.filter((e) => !e.note).map(({ by: _by, ...entry }) => entry),
    ...(order.returns ? { returns: order.returns.map(returnForBuyer) } : {}),
  };
}

/** The one shape an order leaves this service in (docs/api.md#orders): pounds at the edge, no outbox, no internals. */
export function toOrderJson(o: LeanOrder): OrderJson {
  const json: OrderJson = {
    _id: String(o._id),
    user: { _id: o.user._id, name: o.user.name, ...(o.user.email ? { email: o.user.email } : {}) },
    checkoutId: o.checkoutId,
    orderItems: o.orderItems.map((l) => ({
      productId: l.productId,
      name: l.name,
      image: l.image,
      price: toPounds(l.pricePence),
      quantity: l.quantity,
      size: l.size,
      color: l.color,
      ...(l.sku ? { sku: l.sku } : {}),
    })),
    shippingAddress: Object.fromEntries(
      SHIPPING_ADDRESS_FIELDS.map((field) => [field, o.shippingAddress[field]]),
    ) as ShippingAddress,
    paymentMethod: o.paymentMethod,
    shippingMethod: o.shippingMethod,
    ...(o.subtotalPence !== undefined ? { subtotal: toPounds(o.subtotalPence) } : {}),
    ...(o.discount ? { discount: { code: o.discount.code, amount: toPounds(o.discount.amountPence) } } : {}),
    totalPrice: toPounds(o.totalPence),
    isPaid: o.isPaid,
    paidAt: iso(o.paidAt),
    paymentStatus: o.paymentStatus,
    isDelivered: o.isDelivered,
    status: o.status,
    statusHistory: statusHistoryOf(o).map(toStatusEntryJson),
    ...returnsJsonOf(o),
    createdAt: iso(o.createdAt),
    updatedAt: iso(o.updatedAt),
  };
  if (o.paymentDetails) json.paymentDetails = { ...o.paymentDetails };
  if (o.deliveredAt) json.deliveredAt = iso(o.deliveredAt);
  if (o.tracking)
    json.tracking = {
      carrier: o.tracking.carrier,
      number: o.tracking.number,
      url: trackingUrl(o.tracking.carrier, o.tracking.number),
    };
  if (o.externalRefunds?.length)
    json.externalRefunds = o.externalRefunds.map((r) => ({
      id: r.id,
      kind: r.kind,
      amount: toPounds(r.amountPence),
      currency: r.currency,
      at: iso(r.at),
    }));
  return json;
}
