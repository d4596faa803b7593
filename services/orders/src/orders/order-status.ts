import { BadRequestException } from '@nestjs/common';
import { ORDER_MESSAGES, type OrderStatus, type ReturnStatus } from '@shop/contracts';

export interface OrderStatusFields {
  status: OrderStatus;
  isDelivered: boolean;
  /** Absent unless the order is Delivered. */
  deliveredAt?: Date;
}

/** An entry of an order's status history, as stored (OrderStatusEntry). */
export interface StatusEntry {
  status: OrderStatus;
  at: Date;
  /** The admin who made the change. */
  by?: { _id: string; name: string };
  /** The refund the change made (pence). */
  refund?: { id: string; amountPence: number };
  /** Something that happened without a change of status. */
  note?: string;
  /** A step of one of the order's returns (the status unchanged). */
  return?: { id: string; status: ReturnStatus; amountPence?: number; note?: string };
}

/** What an order stores that its history is read from. */
export interface OrderHistoryFields {
  status: OrderStatus;
  deliveredAt?: Date;
  statusHistory?: StatusEntry[];
  createdAt: Date;
  updatedAt: Date;
}

/**
 * What setting `next` changes on an order, or undefined when nothing changes (the same status again, so a
 * repeated click writes nothing and announces nothing). Delivered stamps the delivery (kept if it was
 * already stamped); any other status clears it. Cancelled is final: its stock has gone back on the shelf (and a paid
 * order's money to its buyer). A delivered order cannot be cancelled: the goods are with the customer.
 */
export function statusChange(order: OrderStatusFields, next: OrderStatus, now: Date): OrderStatusFields | undefined {
  if (order.status === next) return undefined;
  if (order.status === 'Cancelled') throw new BadRequestException(ORDER_MESSAGES.cancelledIsFinal);
  if (order.status === 'Delivered' && next === 'Cancelled')
    throw new BadRequestException(ORDER_MESSAGES.deliveredCannotBeCancelled);
  if (next === 'Delivered') return { status: next, isDelivered: true, deliveredAt: order.deliveredAt ?? now };
  return { status: next, isDelivered: false };
}

/**
 * The order's status history: the stored one or, for an order placed before it was kept, the best account of
 * its past it stores: Processing when it was placed, then its current status — a Delivered order's at its
 * deliveredAt, any other at its last update.
 */
export function statusHistoryOf(order: OrderHistoryFields): StatusEntry[] {
  if (order.statusHistory?.length) return order.statusHistory;
  const placed: StatusEntry = { status: 'Processing', at: order.createdAt };
  if (order.status === 'Processing') return [placed];
  const at = order.status === 'Delivered' && order.deliveredAt ? order.deliveredAt : order.updatedAt;
  return [placed, { status: order.status, at }];
}
