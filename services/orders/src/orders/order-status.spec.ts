import { BadRequestException } from '@nestjs/common';
import { statusChange, type OrderStatusFields } from './order-status';

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

  it.each(['Processing', 'Shipped', 'Cancelled'] as const)('clears the delivery when set to %s', (next) => {
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
