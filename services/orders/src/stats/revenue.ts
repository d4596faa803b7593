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

/**
 * SPEC §9 / API.md: revenue is the totals of paid orders that were not cancelled, net of refunds (issue 25). A
 * cancelled order earns nothing whether or not a refund is recorded on it: cancelling a paid order refunds it in
 * full, and one cancelled before refunds were made through PayPal was refunded by hand or is owed back. A refund
 * recorded on an order that is not cancelled (a partial one) is taken off its total, never below zero.
 */
export const EARNS_REVENUE = { isPaid: true, status: { $ne: 'Cancelled' } } as const;

export function earnsRevenue(order: Pick<RevenueFields, 'isPaid' | 'status'>): boolean {
  return order.isPaid && order.status !== 'Cancelled';
}

/** The refunds recorded in an order's history (pence). */
export function refundsPence(order: Pick<RevenueFields, 'statusHistory'>): number {
  return (order.statusHistory ?? []).reduce((sum, entry) => sum + (entry.refund?.amountPence ?? 0), 0);
}

/** What an order earns (pence): its total less its refunds if it earns revenue, else nothing. */
export function revenuePenceOf(order: RevenueFields): number {
  return earnsRevenue(order) ? Math.max(0, order.totalPence - refundsPence(order)) : 0;
}

/** Midnight (UTC) of the first of the last `days` days, today included. */
export function firstDayOf(now: Date, days = STATS_DAYS): Date {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  return new Date(today - (days - 1) * DAY_MS);
}

/**
 * The last `days` UTC days, oldest first, every day present: each day's revenue (paid, not cancelled, net of
 * refunds, counted on the day the order was placed) and
 * how many orders were placed on it (cancelled ones too). Computed here rather than in an aggregation:
 * the MongoDB-wire server of dev and tests has no date operators (PITFALLS §3.8).
 */
export function revenueByDay(orders: RevenueFields[], now: Date, days = STATS_DAYS): RevenueDayJson[] {
  const first = firstDayOf(now, days).getTime();
  const totals = Array.from({ length: days }, () => ({ pence: 0, orders: 0 }));
  for (const order of orders) {
    const day = totals[Math.floor((order.createdAt.getTime() - first) / DAY_MS)];
    if (!day) continue;
    day.orders += 1;
    day.pence += revenuePenceOf(order);
  }
  return totals.map((day, i) => ({
    date: new Date(first + i * DAY_MS).toISOString().slice(0, 10),
    revenue: toPounds(day.pence),
    orders: day.orders,
  }));
}
