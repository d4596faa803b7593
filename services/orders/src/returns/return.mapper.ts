import {
  RETURN_WINDOW_DAYS,
  toPounds,
  type AdminReturnJson,
  type OrderReturnJson,
  type ReturnStepJson,
} from '@shop/contracts';
import type { LeanOrder } from '../orders/order.schema';
import { returnableUntil } from './return-amounts';
import type { OrderReturn } from './return.schema';

const iso = (value: Date | string) => new Date(value).toISOString();

function stepJson(step: OrderReturn['steps'][number]): ReturnStepJson {
  return {
    status: step.status,
    at: iso(step.at),
    ...(step.by ? { by: { _id: String(step.by._id), name: step.by.name } } : {}),
    ...(step.note ? { note: step.note } : {}),
  };
}

/** A stored return as its JSON: pounds at the edge. */
export function toReturnJson(r: OrderReturn): OrderReturnJson {
  return {
    _id: r._id,
    status: r.status,
    reason: r.reason,
    ...(r.comment ? { comment: r.comment } : {}),
    lines: r.lines.map((l) => ({
      line: l.line,
      productId: l.productId,
      name: l.name,
      image: l.image,
      size: l.size,
      color: l.color,
      ...(l.sku ? { sku: l.sku } : {}),
      quantity: l.quantity,
      refund: toPounds(l.refundPence),
      ...(l.restock !== undefined ? { restock: l.restock } : {}),
    })),
    amount: toPounds(r.refundPence),
    ...(r.refund ? { refund: { id: r.refund.id, amount: toPounds(r.refund.amountPence) } } : {}),
    ...(r.refundError && r.status === 'Received' ? { refundError: r.refundError } : {}),
    steps: r.steps.map(stepJson),
    createdAt: iso(r.createdAt),
    updatedAt: iso(r.updatedAt),
  };
}

/** What the order's returns add to its JSON: the returns, what they refunded, until when one can be asked for. */
export function returnsJsonOf(o: Pick<LeanOrder, 'returns' | 'status' | 'deliveredAt'>): {
  returns?: OrderReturnJson[];
  refunded?: number;
  returnableUntil?: string;
} {
  const refundedPence = (o.returns ?? []).reduce((sum, r) => sum + (r.refund?.amountPence ?? 0), 0);
  return {
    ...(o.returns?.length ? { returns: o.returns.map(toReturnJson) } : {}),
    ...(refundedPence ? { refunded: toPounds(refundedPence) } : {}),
    ...(o.status === 'Delivered' && o.deliveredAt
      ? { returnableUntil: returnableUntil(new Date(o.deliveredAt), RETURN_WINDOW_DAYS).toISOString() }
      : {}),
  };
}

/** A return in the admin's queue: with its order's number, buyer and delivery. */
export function toAdminReturnJson(o: LeanOrder, r: OrderReturn): AdminReturnJson {
  return {
    ...toReturnJson(r),
    orderId: String(o._id),
    customer: { _id: o.user._id, name: o.user.name, ...(o.user.email ? { email: o.user.email } : {}) },
    ...(o.deliveredAt ? { deliveredAt: iso(o.deliveredAt) } : {}),
  };
}

/** The buyer reads their returns without the admins' names. */
export function returnForBuyer(r: OrderReturnJson): OrderReturnJson {
  return { ...r, steps: r.steps.map(({ by: _by, ...step }) => step) };
}
