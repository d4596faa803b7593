import { ORDER_STATUSES, SHIPPING_METHOD, type OrderStatus } from '@shop/contracts';
import { seededRandom } from '@shop/nest-common';
import { Types, type Model } from 'mongoose';
import { customerKeys, type Order } from '../orders/order.schema';

/**
 * A large synthetic order book, for benchmarks only (`synthetic-orders.main --count=<n>`; `npm start` never makes
 * one, and it is not the service's seed program): order `n` is drawn deterministically from its number — buyer,
 * one to three lines, total, status, day within the last year — so every run builds the same orders. Each is marked
 * by its checkoutId (`synthetic-<n>`), so `--remove` takes them all out again.
 */
export const SYNTHETIC_PREFIX = 'synthetic-';
const BATCH = 1000;
const DAY_MS = 86_400_000;
const FIRST = ['Ada', 'Ben', 'Cleo', 'Dev', 'Ema', 'Finn', 'Gus', 'Hana', 'Ike', 'Jo', 'Kai', 'Lena', 'Milo', 'Nia'];
const LAST = ['Brady', 'Rice', 'Favre', 'Montana', 'Manning', 'Elway', 'Marino', 'Young', 'Starr', 'Unitas'];
const ITEMS = [
  { name: 'Packers Home Jersey', pricePence: 8999, size: 'M', color: 'Green' },
  { name: 'Ravens Beanie', pricePence: 1999, size: '', color: 'Purple' },
  { name: 'Eagles Hoodie', pricePence: 5499, size: 'L', color: 'Green' },
  { name: '49ers Cap', pricePence: 2499, size: '', color: 'Red' },
  { name: 'Steelers Track Pants', pricePence: 4599, size: 'XL', color: 'Black' },
];
// Most orders are delivered; a few are new, on their way, or cancelled.
const STATUS_WEIGHTS: Array<[OrderStatus, number]> = [
  ['Delivered', 0.7],
  ['Shipped', 0.12],
  ['Processing', 0.1],
  ['Cancelled', 0.08],
];

function statusOf(x: number): OrderStatus {
  let sum = 0;
  for (const [status, weight] of STATUS_WEIGHTS) {
    sum += weight;
    if (x < sum) return status;
  }
  return ORDER_STATUSES[0];
}

/** Order number `n` (placed before `now`). */
export function syntheticOrder(n: number, now: number) {
  const next = seededRandom(n + 7);
  const first = FIRST[Math.floor(next() * FIRST.length)];
  const last = LAST[Math.floor(next() * LAST.length)];
  const user = { _id: new Types.ObjectId().toHexString(), name: `${first} ${last}`, email: `buyer${n}@example.com` };
  const lines = Array.from({ length: 1 + Math.floor(next() * 3) }, (_, i) => {
    const item = ITEMS[Math.floor(next() * ITEMS.length)];
    return {
      productId: `65a0000000000000000000${String(i + 1).padStart(2, '0')}`,
      name: item.name,
      image: '/uploads/seed/synthetic.svg',
      pricePence: item.pricePence,
      quantity: 1 + Math.floor(next() * 2),
      size: item.size,
      color: item.color,
      sku: `SYN-${i + 1}${item.size ? `-${item.size}` : ''}-${item.color.toUpperCase()}`,
    };
  });
  const totalPence = lines.reduce((sum, l) => sum + l.pricePence * l.quantity, 0);
  const at = new Date(now - Math.floor(next() * 365 * DAY_MS));
  const status = statusOf(next());
  return {
    _id: new Types.ObjectId(),
    user,
    ...customerKeys(user),
    checkoutId: `${SYNTHETIC_PREFIX}${n}`,
    orderItems: lines,
    shippingAddress: {
      firstName: first,
      lastName: last,
      address: `${1 + (n % 200)} Stadium Way`,
      city: 'London',
      postalCode: 'N17 0BX',
      country: 'United Kingdom',
      phone: '+44 20 7946 0000',
    },
    paymentMethod: 'PayPal' as const,
    shippingMethod: SHIPPING_METHOD,
    totalPence,
    isPaid: true,
    paidAt: at,
    paymentStatus: 'paid' as const,
    paymentDetails: {
      provider: 'paypal' as const,
      id: `SYN-PAYPAL-${n}`,
      status: 'COMPLETED',
      captureId: `SYN-CAPTURE-${n}`,
      captureStatus: 'COMPLETED',
      amount: (totalPence / 100).toFixed(2),
      currency: 'GBP',
    },
    isDelivered: status === 'Delivered',
    ...(status === 'Delivered' ? { deliveredAt: new Date(at.getTime() + 3 * DAY_MS) } : {}),
    status,
    statusHistory: [
      { status: 'Processing' as OrderStatus, at },
      ...(status === 'Processing' ? [] : [{ status, at: new Date(at.getTime() + DAY_MS) }]),
    ],
    outbox: [],
    outboxPending: false,
    createdAt: at,
    updatedAt: at,
  };
}

/** Inserts orders 0..count-1 that are not there yet (by their checkoutId); resolves with how many it inserted. */
export async function seedSyntheticOrders(orders: Model<Order>, count: number): Promise<{ inserted: number }> {
  await orders.init();
  const now = Date.now();
  let inserted = 0;
  for (let start = 0; start < count; start += BATCH) {
    const end = Math.min(count, start + BATCH);
    // both ends of the batch there: the batch was inserted by an earlier run (equality on a unique key: quick)
    const there = await orders.countDocuments({
      checkoutId: { $in: [`${SYNTHETIC_PREFIX}${start}`, `${SYNTHETIC_PREFIX}${end - 1}`] },
    });
    if (there === 2) continue;
    const docs = Array.from({ length: end - start }, (_, i) => syntheticOrder(start + i, now));
    try {
      const result = await orders.collection.insertMany(docs, { ordered: false });
      inserted += result.insertedCount;
    } catch (err) {
      // a batch half inserted before: the others went in; duplicates of the unique checkoutId are expected
      const partial = err as { code?: number; result?: { insertedCount?: number }; insertedCount?: number };
      if (partial.code !== 11000 && !/duplicate key|UNIQUE constraint/i.test(String(err))) throw err;
      inserted += partial.insertedCount ?? partial.result?.insertedCount ?? 0;
    }
  }
  return { inserted };
}

/** Removes every synthetic order. */
export async function removeSyntheticOrders(orders: Model<Order>): Promise<number> {
  const { deletedCount } = await orders.deleteMany({ checkoutId: { $regex: `^${SYNTHETIC_PREFIX}\\d+$` } });
  return deletedCount;
}
