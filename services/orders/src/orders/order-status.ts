import { BadRequestException } from '@nestjs/common';
import { ORDER_MESSAGES, type OrderStatus } from '@shop/contracts';

export interface OrderStatusFields {
  status: OrderStatus;
  isDelivered: boolean;
  /** Absent unless the order is Delivered. */
  deliveredAt?: Date;
}

/**
 * What setting `next` changes on an order, or undefined when nothing changes (the same status again, so a
 * repeated click writes nothing and announces nothing). Delivered stamps the delivery (kept if it was
 * already stamped); any other status clears it. Cancelled is final: its stock has gone back on the shelf.
 */
export function statusChange(order: OrderStatusFields, next: OrderStatus, now: Date): OrderStatusFields | undefined {
  if (order.status === next) return undefined;
  if (order.status === 'Cancelled') throw new BadRequestException(ORDER_MESSAGES.cancelledIsFinal);
  if (next === 'Delivered') return { status: next, isDelivered: true, deliveredAt: order.deliveredAt ?? now };
  return { status: next, isDelivered: false };
}
