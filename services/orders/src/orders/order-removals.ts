import type { Connection, Types } from 'mongoose';

/**
 * Orders an admin removed: the order's id, the time it was placed and when it was removed. A removed order leaves
 * nothing else behind, so this is how what is derived from orders (the dashboard's sales days, stats/sales-days.ts)
 * learns of a removal: it reads the removals recorded since it last looked, as it reads the orders changed since.
 */
export const ORDER_REMOVALS = 'order_removals';

export interface OrderRemoval {
  _id: string;
  createdAt: Date;
  removedAt: Date;
}

/**
 * Records the removal of an order, before the order is deleted (under its lock): a delete that then fails leaves a
 * record that only makes its day be counted again, whereas a record written after could be lost with the process.
 * Upserted, so a removal tried again records once.
 */
export async function recordRemoval(
  connection: Connection,
  order: { _id: Types.ObjectId; createdAt: Date },
): Promise<void> {
  const id = order._id.toHexString();
  await connection
    .collection<OrderRemoval>(ORDER_REMOVALS)
    .replaceOne({ _id: id }, { createdAt: order.createdAt, removedAt: new Date() }, { upsert: true });
}
