import { EVENTS, toPounds, type ReturnStatus, type ReturnStatusChangedEvent } from '@shop/contracts';
import { outboxEntry, type OutboxEntry } from '@shop/nest-common';
import type { LeanOrder } from '../orders/order.schema';
import type { OrderReturn } from './return.schema';

/**
 * orders.return.status-changed for a return's step, stored in the order's outbox in the same write as the step. The
 * id `orders.return.status-changed:<returnId>:<status>` names that step: each happens once per return, so a
 * relay's repeat is the same event, which consumers dedupe (catalog restocks once per return on its own key).
 */
export function returnStatusChangedEvent(
  order: LeanOrder,
  ret: OrderReturn,
  step: {
    status: ReturnStatus;
    previousStatus?: ReturnStatus;
    at: Date;
    note?: string;
    refund?: { amountPence: number; currency: string };
  },
): OutboxEntry<ReturnStatusChangedEvent> {
  const data: ReturnStatusChangedEvent = {
    orderId: String(order._id),
    returnId: ret._id,
    checkoutId: order.checkoutId,
    userId: order.user._id,
    status: step.status,
    ...(step.previousStatus ? { previousStatus: step.previousStatus } : {}),
    changedAt: step.at.toISOString(),
    customer: { name: order.user.name, ...(order.user.email ? { email: order.user.email } : {}) },
    lines: ret.lines.map((l) => ({
      productId: l.productId,
      name: l.name,
      quantity: l.quantity,
      ...(l.size ? { size: l.size } : {}),
      ...(l.color ? { color: l.color } : {}),
      ...(l.sku ? { sku: l.sku } : {}),
      ...(l.restock !== undefined ? { restock: l.restock } : {}),
    })),
    amount: toPounds(ret.refundPence),
    ...(step.note ? { note: step.note } : {}),
    ...(step.refund ? { refund: { amount: toPounds(step.refund.amountPence), currency: step.refund.currency } } : {}),
  };
  return {
    ...outboxEntry(
      EVENTS.orders.returnStatusChanged,
      data,
      `${EVENTS.orders.returnStatusChanged}:${ret._id}:${step.status}`,
    ),
    occurredAt: step.at,
  };
}
