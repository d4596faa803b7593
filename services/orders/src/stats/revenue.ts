import { STATS_DAYS, toPounds, type OrderStatus, type RevenueDayJson } from '@shop/contracts';
import type { StatusEntryExtras } from '../orders/order.mapper';

const DAY_MS = 86_400_000;

/** What the revenue figures read of an order. */
export interface RevenueFields {
  createdAt: Date;
  totalPence: number;
  isPaid: boolean;
  status: OrderStatus;
  /** Its history, for the refunds recorded in it (entries with `refund`). */
  statusHistory?: StatusEntryExtras[];
}

/** The projection that reads RevenueFields of an order. */
export const REVENUE_PROJECTION = { createdAt: 1, totalPence: 1, isPaid: 1, status: 1, statusHistory: 1 } as const;

/** A set of orders' figures: how many were placed, and what they earn (pence). */
export interface Sales {
  orders: number;
  revenuePence: number;
}

/**
 * Revenue is the totals of paid orders that were not cancelled, net of refunds (docs/product.md#business-constants;
 * issue 25). A
 * cancelled order earns nothing whether or not a refund is recorded on it: cancelling a paid order refunds it in
 * full, and one cancelled before refunds were made through PayPal was refunded by hand or is owed back. A refund
 * recorded on an order that is not cancelled (a partial one) is taken off its total, never below zero.
 */
export function earnsRevenue(order: Pick<RevenueFields, 'isPaid' | 'status'>): boolean {
  return order.isPaid && order.status !== 'Cancelled';
}

/** The refunds recorded in an order's history (pence): a cancellation's, and each refunded return's (issue 38). */
export function refundsPence(order: Pick<RevenueFields, 'statusHistory'>): number {
  return (order.statusHistory ?? []).reduce(
    (sum, entry) =>
      sum +
      (entry.refund?.amountPence ?? 0) +
      (entry.return?.status === 'Refunded' ? (entry.return.amountPence ?? 0) : 0),
    0,
  );
}

/** What an order earns (pence): its total less its refunds if it earns revenue, else nothing. */
export function revenuePenceOf(order: RevenueFields): number {
  return earnsRevenue(order) ? Math.max(0, order.totalPence - refundsPence(order)) : 0;
}

/** The orders' count (cancelled ones too) and what they earn. */
export function salesOf(orders: RevenueFields[]): Sales {
  return orders.reduce(
    (sum, order) => ({ orders: sum.orders + 1, revenuePence: sum.revenuePence + revenuePenceOf(order) }),
    {
      orders: 0,
      revenuePence: 0,
    },
  );
}

/** The UTC day of a time: `YYYY-MM-DD`. */
export function utcDay(at: Date): string {
  return at.toISOString().slice(0, 10);
}

/** The first instant of a UTC day (`YYYY-MM-DD`) and the first of the day after. */
export function dayBounds(day: string): { start: Date; end: Date } {
  const start = new Date(`${day}T00:00:00.000Z`);
  return { start, end: new Date(start.getTime() + DAY_MS) };
}

/** Midnight (UTC) of the first of the last `days` days, today included. */
export function firstDayOf(now: Date, days = STATS_DAYS): Date {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  return new Date(today - (days - 1) * DAY_MS);
}

/**
 * The last `days` UTC days, oldest first, every day present: each day's revenue (paid, not cancelled, net of
 * refunds, counted on the day the order was placed) and how many orders were placed on it (cancelled ones too),
 * from the figures of each day that has orders (`byDay`, keyed `YYYY-MM-DD`).
 */
export function revenueByDay(byDay: ReadonlyMap<string, Sales>, now: Date, days = STATS_DAYS): RevenueDayJson[] {
  const first = firstDayOf(now, days).getTime();
  return Array.from({ length: days }, (_, i) => {
    const date = utcDay(new Date(first + i * DAY_MS));
    const sales = byDay.get(date);
    return { date, revenue: toPounds(sales?.revenuePence ?? 0), orders: sales?.orders ?? 0 };
  });
}
