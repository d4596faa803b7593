import { dayBounds, firstDayOf, revenueByDay, salesOf, utcDay, type RevenueFields, type Sales } from './revenue';

const order = (createdAt: string, totalPence: number, extra: Partial<RevenueFields> = {}): RevenueFields => ({
  createdAt: new Date(createdAt),
  totalPence,
  isPaid: true,
  status: 'Processing',
  ...extra,
});
const refund = (amountPence: number) => ({ statusHistory: [{ refund: { id: 'R', amountPence } }] });

describe('salesOf', () => {
  it('counts every order placed and sums the paid, not cancelled totals in pence', () => {
    expect(
      salesOf([
        order('2026-03-10T07:00:00Z', 5000, { status: 'Cancelled' }),
        order('2026-03-10T07:30:00Z', 700, { isPaid: false }),
        order('2026-03-10T08:00:00Z', 4550, { status: 'Delivered' }),
        order('2026-03-10T09:00:00Z', 1),
      ]),
    ).toEqual({ orders: 4, revenuePence: 4551 });
    expect(salesOf([])).toEqual({ orders: 0, revenuePence: 0 });
  });

  it('takes refunds off an order that earns revenue (never below zero), and a cancelled order earns nothing', () => {
    expect(
      salesOf([
        order('2026-03-10T01:00:00Z', 10_000, refund(2_500)),
        order('2026-03-10T02:00:00Z', 1_000, refund(5_000)),
        order('2026-03-10T03:00:00Z', 4_000, { status: 'Cancelled', ...refund(4_000) }),
        order('2026-03-10T04:00:00Z', 3_000, { status: 'Cancelled' }),
      ]),
    ).toEqual({ orders: 4, revenuePence: 7_500 });
  });

  it("takes off a return's refund once it is Refunded, not while it is only asked for or received", () => {
    const step = (status: 'Requested' | 'Received' | 'Refunded', amountPence: number) => ({
      return: { id: 'r1', status, amountPence },
    });
    const delivered = (entries: RevenueFields['statusHistory']) =>
      order('2026-03-10T01:00:00Z', 9_000, { status: 'Delivered', statusHistory: entries });
    expect(salesOf([delivered([step('Requested', 1_800), step('Received', 1_800)])]).revenuePence).toBe(9_000);
    expect(salesOf([delivered([step('Requested', 1_800), step('Refunded', 1_800)])]).revenuePence).toBe(7_200);
  });
});

describe('UTC days', () => {
  it('names the UTC day of a time and bounds it from its midnight to the next', () => {
    expect(utcDay(new Date('2026-03-08T23:59:59.999Z'))).toBe('2026-03-08');
    expect(utcDay(new Date('2026-03-09T00:00:00.000+01:00'))).toBe('2026-03-08');
    const { start, end } = dayBounds('2026-02-28');
    expect([start.toISOString(), end.toISOString()]).toEqual(['2026-02-28T00:00:00.000Z', '2026-03-01T00:00:00.000Z']);
  });
});

describe('revenueByDay', () => {
  const now = new Date('2026-03-10T08:15:00Z');

  it('starts at midnight UTC of the oldest day shown', () => {
    expect(firstDayOf(now, 3).toISOString()).toBe('2026-03-08T00:00:00.000Z');
  });

  it('gives every day, oldest first, with zero for days without orders', () => {
    expect(revenueByDay(new Map(), now, 3)).toEqual([
      { date: '2026-03-08', revenue: 0, orders: 0 },
      { date: '2026-03-09', revenue: 0, orders: 0 },
      { date: '2026-03-10', revenue: 0, orders: 0 },
    ]);
  });

  it("shows each day's figures in pounds, and none of the days outside the window", () => {
    const byDay = new Map<string, Sales>([
      ['2026-03-07', { orders: 1, revenuePence: 99_999 }], // the day before the window
      ['2026-03-08', { orders: 2, revenuePence: 2000 }],
      ['2026-03-10', { orders: 3, revenuePence: 4550 }],
      ['2026-03-11', { orders: 1, revenuePence: 10 }], // tomorrow (a clock ahead)
    ]);
    expect(revenueByDay(byDay, now, 3)).toEqual([
      { date: '2026-03-08', revenue: 20, orders: 2 },
      { date: '2026-03-09', revenue: 0, orders: 0 },
      { date: '2026-03-10', revenue: 45.5, orders: 3 },
    ]);
  });

  it('shows the last 30 days by default', () => {
    const days = revenueByDay(new Map(), now);
    expect(days).toHaveLength(30);
    expect([days[0].date, days[29].date]).toEqual(['2026-02-09', '2026-03-10']);
  });
});
