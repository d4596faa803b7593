import type { OrderStatus } from '@shop/contracts';

const TONES: Record<OrderStatus, string> = {
  Processing: 'bg-amber-100 text-amber-900',
  Shipped: 'bg-blue-100 text-blue-900',
  Delivered: 'bg-green-100 text-green-900',
  Cancelled: 'bg-gray-200 text-gray-800',
};

/** An order's status as a coloured label (the words carry it; the colour only helps). */
export function StatusBadge({ status }: { status: OrderStatus }) {
  return (
    <span className={`inline-block rounded-full px-2.5 py-0.5 text-xs font-semibold ${TONES[status]}`}>{status}</span>
  );
}
