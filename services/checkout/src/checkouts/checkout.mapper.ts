import { toPounds, type CheckoutJson, type CreateOrderRequest } from '@shop/contracts';
import type { LeanCheckout } from './checkout.schema';

const iso = (d?: Date) => (d ? new Date(d).toISOString() : undefined);

/** A checkout as every response shows it: GBP numbers with two decimals, ISO times, no internals. */
export function toCheckoutJson(c: LeanCheckout): CheckoutJson {
  return {
    _id: String(c._id),
    user: c.user._id,
    checkoutItems: c.checkoutItems.map((l) => ({
      productId: l.productId,
      name: l.name,
      image: l.image,
      price: toPounds(l.pricePence),
      quantity: l.quantity,
      size: l.size,
      color: l.color,
      ...(l.sku ? { sku: l.sku } : {}),
    })),
    shippingAddress: c.shippingAddress,
    paymentMethod: 'PayPal',
    ...(c.subtotalPence !== undefined ? { subtotal: toPounds(c.subtotalPence) } : {}),
    ...(c.discount ? { discount: { code: c.discount.code, amount: toPounds(c.discount.amountPence) } } : {}),
    totalPrice: toPounds(c.totalPence),
    isPaid: c.isPaid,
    ...(c.paidAt ? { paidAt: iso(c.paidAt) } : {}),
    paymentStatus: c.paymentStatus,
    ...(c.paymentDetails ? { paymentDetails: c.paymentDetails } : {}),
    isFinalized: c.isFinalized,
    ...(c.finalizedAt ? { finalizedAt: iso(c.finalizedAt) } : {}),
    reservationExpiresAt: iso(c.reservationExpiresAt)!,
    priceAdjusted: c.priceAdjusted,
    createdAt: iso(c.createdAt)!,
    updatedAt: iso(c.updatedAt)!,
  };
}

/** What orders needs to make the order of a paid checkout. */
export function toCreateOrderRequest(c: LeanCheckout): CreateOrderRequest {
  return {
    checkoutId: String(c._id),
    user: { _id: c.user._id, name: c.user.name, ...(c.user.email ? { email: c.user.email } : {}) },
    orderItems: c.checkoutItems.map((l) => ({
      productId: l.productId,
      name: l.name,
      image: l.image,
      pricePence: l.pricePence,
      quantity: l.quantity,
      size: l.size,
      color: l.color,
      ...(l.sku ? { sku: l.sku } : {}),
    })),
    shippingAddress: c.shippingAddress,
    totalPence: c.totalPence,
    ...(c.subtotalPence !== undefined ? { subtotalPence: c.subtotalPence } : {}),
    ...(c.discount ? { discount: { code: c.discount.code, amountPence: c.discount.amountPence } } : {}),
    paidAt: iso(c.paidAt ?? c.updatedAt)!,
    ...(c.paymentDetails ? { paymentDetails: c.paymentDetails } : {}),
  };
}
