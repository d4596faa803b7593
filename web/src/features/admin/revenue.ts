import type { RevenueDayJson } from '@shop/contracts';
import { formatDay } from '@/lib/dates';
import { formatPrice } from '@/lib/money';

/** One sentence for a screen reader: the period, the total and the best day. */
export function revenueSummary(days: RevenueDayJson[]): string {
  if (!days.length) return 'Revenue by day: no days to show.';
  const total = days.reduce((sum, d) => sum + Math.round(d.revenue * 100), 0) / 100;
  const orders = days.reduce((sum, d) => sum + d.orders, 0);
  const best = days.reduce((a, b) => (b.revenue > a.revenue ? b : a));
  const period = `${formatDay(days[0].date)} to ${formatDay(days[days.length - 1].date)}`;
  const bestPart =
    best.revenue > 0 ? `; the best day was ${formatDay(best.date)} with ${formatPrice(best.revenue)}` : '';
  return `Revenue by day, ${period}: ${formatPrice(total)} from ${orders} ${orders === 1 ? 'order' : 'orders'}${bestPart}.`;
}
