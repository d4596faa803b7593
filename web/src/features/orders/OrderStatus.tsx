import { useId } from 'react';
import type { OrderJson, OrderStatus } from '@shop/contracts';
import { formatDate, formatDateTime } from '@/lib/dates';
import { formatPrice } from '@/lib/money';
import { RETURN_STATUS_TEXT } from './returnStatus';

const BADGE: Record<OrderStatus, string> = {
  Processing: 'bg-blue-100 text-blue-800',
  Shipped: 'bg-indigo-100 text-indigo-800',
  Delivered: 'bg-green-100 text-green-800',
  Cancelled: 'bg-gray-200 text-gray-800',
};

const DOT: Record<OrderStatus, string> = {
  Processing: 'bg-blue-600',
  Shipped: 'bg-indigo-600',
  Delivered: 'bg-green-600',
  Cancelled: 'bg-gray-600',
};

/** The index of the history's last change of status (a note or a return's step after it changed nothing); -1 for none. */
function lastChange(steps: OrderJson['statusHistory']): number {
  for (let i = steps.length - 1; i >= 0; i--) if (!steps[i].note && !steps[i].return) return i;
  return -1;
}

/** My Orders' Status cell: the order's status (Processing, Shipped, Delivered, Cancelled) and the day it took it. */
export function OrderStatusCell({ order }: { order: OrderJson }) {
  const { status } = order;
  // When it took its status: the history's last change (a note, which only admins read, changed nothing).
  const at = order.statusHistory[lastChange(order.statusHistory)]?.at ?? order.updatedAt;
  return (
    <>
      <span className={`rounded-full px-2 py-1 text-xs font-semibold whitespace-nowrap ${BADGE[status]}`}>
        {status}
      </span>{' '}
      <time dateTime={at} className="mt-1 block text-xs whitespace-nowrap text-gray-600">
        {formatDate(at)}
      </time>
    </>
  );
}

/**
 * The order details' timeline: every status the order has had, oldest first, each with its date and time; the
 * last change, its status now, marked current. Each step's text is its status and its time together, then the
 * refund a cancellation made. A note (only admins are shown them, e.g. a refund PayPal refused) is a step of its
 * own, its text the note.
 */
export function OrderStatusTimeline({ order }: { order: OrderJson }) {
  const headingId = useId();
  const steps = order.statusHistory;
  const currentIndex = lastChange(steps);
  return (
    <section aria-labelledby={headingId} className="mb-8">
      <h3 id={headingId} className="mb-3 font-semibold">
        Order Status
      </h3>
      <ol className="ml-1.5 border-l-2 border-gray-200" data-testid="order-status-timeline">
        {steps.map((step, i) => {
          const current = i === currentIndex;
          return (
            <li
              key={`${i}-${step.status}`}
              aria-current={current ? 'step' : undefined}
              className={`relative pl-5 pb-4 last:pb-0 ${current ? 'font-semibold text-gray-900' : 'text-gray-700'}`}
            >
              <span
                aria-hidden="true"
                className={`absolute top-1.5 -left-[7px] h-3 w-3 rounded-full ring-2 ring-white ${current ? DOT[step.status] : 'bg-gray-300'}`}
              />
              {step.return ? (
                <span data-testid="order-return-step">
                  {RETURN_STATUS_TEXT[step.return.status]}
                  {step.return.amount !== undefined &&
                    step.return.status !== 'Rejected' &&
                    ` (${formatPrice(step.return.amount)})`}
                </span>
              ) : (
                (step.note ?? step.status)
              )}{' '}
              <time dateTime={step.at} className="block text-sm font-normal text-gray-600">
                {formatDateTime(step.at)}
              </time>
              {step.return?.note && (
                <span className="block text-sm font-normal text-gray-700">Note: {step.return.note}</span>
              )}
              {step.refund && (
                <span className="block text-sm font-normal text-gray-700" data-testid="order-refund">
                  Refunded {formatPrice(step.refund.amount)}
                </span>
              )}
            </li>
          );
        })}
      </ol>
    </section>
  );
}
