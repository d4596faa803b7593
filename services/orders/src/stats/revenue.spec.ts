import { firstDayOf, revenueByDay, type RevenueFields } from './revenue';

describe('revenueByDay', () => {
  const now = new Date('2026-03-10T08:15:00Z');
  const order = (createdAt: string, totalPence: number, extra: Partial<RevenueFields> = {}): RevenueFields => ({
    createdAt: new Date(createdAt),
    totalPence,
    isPaid: true,
    status: 'Processing',
    ...extra,
  });

  it('starts at midnight UTC of the oldest day shown', () => {
    expect(firstDayOf(now, 3).toISOString()).toBe('2026-03-08T00:00:00.000Z');
  });

  it('gives every day, oldest first, with zero for days without orders', () => {
    expect(revenueByDay([], now, 3)).toEqual([
      { date: '2026-03-08', revenue: 0, orders: 0 },
      { date: '2026-03-09', revenue: 0, orders: 0 },
      { date: '2026-03-10', revenue: 0, orders: 0 },
    ]);
  });

  it("sums each UTC day's paid, not cancelled totals in pence, and counts every order placed", () => {
    const days = revenueByDay(
      [
        order('2026-03-08T00:00:00Z', 1999),
        order('2026-03-08T23:59:59.999Z', 1),
        order('2026-03-09T10:00:00Z', 10),
        order('2026-03-09T11:00:00Z', 20),
        order('2026-03-10T07:00:00Z', 5000, { status: 'Cancelled' }),
        order('2026-03-10T07:30:00Z', 700, { isPaid: false }),
        order('2026-03-10T08:00:00Z', 4550, { status: 'Delivered' }),
        order('2026-03-07T23:59:59.999Z', 99_999), // the day before the window
      ],
      now,
      3,
    );
    expect(days).toEqual([
      { date: '2026-03-08', revenue: 20, orders: 2 },
      { date: '2026-03-09', revenue: 0.3, orders: 2 },
      { date: '2026-03-10', revenue: 45.5, orders: 3 },
    ]);
  });

  it('takes refunds off an order that earns revenue (never below zero), and a cancelled order earns nothing', () => {
    const refund = (amountPence: number) => ({ statusHistory: [{ refund: { id: 'R', amountPence } }] });
    const days = revenueByDay(
      [
        order('2026-03-10T01:00:00Z', 10_000, refund(2_500)),
        order('2026-03-10T02:00:00Z', 1_000, refund(5_000)),
        order('2026-03-10T03:00:00Z', 4_000, { status: 'Cancelled', ...refund(4_000) }),
        order('2026-03-10T04:00:00Z', 3_000, { status: 'Cancelled' }),
      ],
      now,
      1,
    );
    expect(days).toEqual([{ date: '2026-03-10', revenue: 75, orders: 4 }]);
  });

  it('shows the last 30 days by default', () => {
    const days = revenueByDay([], now);
    expect(days).toHaveLength(30);
    expect([days[0].date, days[29].date]).toEqual(['2026-02-09', '2026-03-10']);
  });
});
