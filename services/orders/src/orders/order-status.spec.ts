import { BadRequestException } from '@nestjs/common';
import { statusChange, statusHistoryOf, type OrderStatusFields } from './order-status';

describe('statusChange', () => {
  const now = new Date('2026-03-01T12:00:00Z');
  const earlier = new Date('2026-02-20T09:30:00Z');
  const processing: OrderStatusFields = { status: 'Processing', isDelivered: false };

  it('stamps the delivery when an order is delivered', () => {
    expect(statusChange(processing, 'Delivered', now)).toEqual({
      status: 'Delivered',
      isDelivered: true,
      deliveredAt: now,
    });
  });

  it('keeps the first delivery stamp rather than moving it', () => {
    const stamped = { status: 'Shipped', isDelivered: false, deliveredAt: earlier } as const;
    expect(statusChange(stamped, 'Delivered', now)?.deliveredAt).toBe(earlier);
  });

  it('refuses to cancel a delivered order', () => {
    const delivered: OrderStatusFields = { status: 'Delivered', isDelivered: true, deliveredAt: earlier };
    expect(() => statusChange(delivered, 'Cancelled', now)).toThrow(
      new BadRequestException('A delivered order cannot be cancelled'),
    );
  });

  it.each(['Processing', 'Shipped'] as const)('clears the delivery when set to %s', (next) => {
    const delivered: OrderStatusFields = { status: 'Delivered', isDelivered: true, deliveredAt: earlier };
    expect(statusChange(delivered, next, now)).toEqual({ status: next, isDelivered: false });
  });

  it.each(['Processing', 'Shipped', 'Delivered', 'Cancelled'] as const)('changes nothing when %s is set again', (s) => {
    expect(statusChange({ status: s, isDelivered: s === 'Delivered' }, s, now)).toBeUndefined();
  });

  it.each(['Processing', 'Shipped', 'Delivered'] as const)('keeps a cancelled order cancelled (not %s)', (next) => {
    const cancelled: OrderStatusFields = { status: 'Cancelled', isDelivered: false };
    expect(() => statusChange(cancelled, next, now)).toThrow(
      new BadRequestException('A cancelled order cannot change status'),
    );
  });
});

describe('statusHistoryOf', () => {
  const createdAt = new Date('2026-02-01T10:00:00Z');
  const deliveredAt = new Date('2026-02-08T16:00:00Z');
  const updatedAt = new Date('2026-02-09T08:00:00Z');
  const stored = { status: 'Processing', createdAt, updatedAt } as const;

  it('is the stored history when the order keeps one', () => {
    const statusHistory = [
      { status: 'Processing', at: createdAt },
      { status: 'Shipped', at: deliveredAt },
      { status: 'Processing', at: updatedAt },
    ] as const;
    expect(statusHistoryOf({ ...stored, statusHistory: [...statusHistory] })).toEqual(statusHistory);
  });

  it('gives an older order in Processing its placing only', () => {
    expect(statusHistoryOf(stored)).toEqual([{ status: 'Processing', at: createdAt }]);
    expect(statusHistoryOf({ ...stored, statusHistory: [] })).toEqual([{ status: 'Processing', at: createdAt }]);
  });

  it("dates an older Delivered order's delivery at its deliveredAt", () => {
    expect(statusHistoryOf({ ...stored, status: 'Delivered', deliveredAt })).toEqual([
      { status: 'Processing', at: createdAt },
      { status: 'Delivered', at: deliveredAt },
    ]);
  });

  it.each(['Shipped', 'Cancelled'] as const)('dates an older order now %s at its last update', (status) => {
    expect(statusHistoryOf({ ...stored, status })).toEqual([
      { status: 'Processing', at: createdAt },
      { status, at: updatedAt },
    ]);
  });
});
