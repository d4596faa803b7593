import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import {
  RETURN_COMMENT_MAX,
  RETURN_REASONS,
  RETURN_WINDOW_DAYS,
  type OrderJson,
  type OrderReturnJson,
  type ReturnReason,
  type ReturnStatus,
} from '@shop/contracts';
import { api, errorMessage } from '@/api/client';
import { Price } from '@/components/Price';
import { formatDate, formatDateTime } from '@/lib/dates';
import { notify } from '@/lib/notify';
import { lineOptions } from './OrderLines';
import { RETURN_BADGE, RETURN_STATUS_TEXT } from './returnStatus';

export function ReturnStatusBadge({ status }: { status: ReturnStatus }) {
  return (
    <span
      className={`rounded-full px-2 py-1 text-xs font-semibold whitespace-nowrap ${RETURN_BADGE[status]}`}
      data-testid="return-status"
    >
      {status}
    </span>
  );
}

/** Units of each line still returnable: bought less those in returns that were not rejected. */
export function returnableUnits(order: OrderJson): number[] {
  return order.orderItems.map((item, i) => {
    const claimed = (order.returns ?? [])
      .filter((r) => r.status !== 'Rejected')
      .flatMap((r) => r.lines.filter((l) => l.line === i))
      .reduce((n, l) => n + l.quantity, 0);
    return Math.max(0, item.quantity - claimed);
  });
}

/** Whether a return can still be asked for now (delivered, within the window, something left to return). */
export function canReturn(order: OrderJson, now = new Date()): boolean {
  return (
    order.status === 'Delivered' &&
    !!order.returnableUntil &&
    now <= new Date(order.returnableUntil) &&
    returnableUnits(order).some((n) => n > 0)
  );
}

/** One return as the customer sees it: its status, items, what it refunds, each step. */
function ReturnCard({ ret }: { ret: OrderReturnJson }) {
  return (
    <li className="rounded border border-gray-200 p-4" data-testid="order-return">
      <div className="mb-2 flex flex-wrap items-center justify-between gap-2">
        <p className="font-medium">
          Return of {formatDate(ret.createdAt)} · {ret.reason}
        </p>
        <ReturnStatusBadge status={ret.status} />
      </div>
      <ul className="mb-2 text-sm text-gray-700">
        {ret.lines.map((l) => (
          <li key={l.line}>
            {l.quantity} × {l.name}
            {lineOptions(l) && <span className="text-gray-600"> ({lineOptions(l)})</span>} — <Price value={l.refund} />
          </li>
        ))}
      </ul>
      <p className="text-sm">
        {ret.refund ? (
          <span data-testid="return-refund">
            Refunded <Price value={ret.refund.amount} className="font-semibold" /> to your PayPal account
          </span>
        ) : ret.status === 'Rejected' ? (
          'Not refunded'
        ) : (
          <>
            Refund once we receive the items: <Price value={ret.amount} className="font-semibold" />
          </>
        )}
      </p>
      <ol className="mt-2 text-sm text-gray-600">
        {ret.steps.map((s, i) => (
          <li key={i}>
            {RETURN_STATUS_TEXT[s.status]} · <time dateTime={s.at}>{formatDateTime(s.at)}</time>
            {s.note && <span className="block text-gray-800">Note from the shop: {s.note}</span>}
          </li>
        ))}
      </ol>
    </li>
  );
}

/**
 * The order's returns and, while one can be asked for (delivered, within 45 days, units left), the form: a quantity
 * for each line, a reason, a comment. Errors (a late or too large request) are the server's sentences, announced.
 */
export function OrderReturns({ order, onChanged }: { order: OrderJson; onChanged: () => void }) {
  const headingId = useId();
  const formId = useId();
  const [open, setOpen] = useState(false);
  const [quantities, setQuantities] = useState<Record<number, number>>({});
  const [reason, setReason] = useState<ReturnReason | ''>('');
  const [comment, setComment] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [sending, setSending] = useState(false);
  const errorRef = useRef<HTMLParagraphElement>(null);
  const formRef = useRef<HTMLFormElement>(null);
  const headingRef = useRef<HTMLHeadingElement>(null);
  // Keyboard users land in the form when it opens (its first enabled quantity).
  useEffect(() => {
    if (open) formRef.current?.querySelector<HTMLSelectElement>('select:not([disabled])')?.focus();
  }, [open]);
  const left = returnableUnits(order);
  const returns = order.returns ?? [];
  const allowed = canReturn(order);

  if (!returns.length && !(order.status === 'Delivered' && order.returnableUntil)) return null;

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const lines = Object.entries(quantities)
      .filter(([, q]) => q > 0)
      .map(([line, quantity]) => ({ line: Number(line), quantity }));
    setError(null);
    if (!lines.length) return showError('Choose at least one item to return');
    if (!reason) return showError('Choose a reason for the return');
    setSending(true);
    try {
      await api.post(`/api/orders/${encodeURIComponent(order._id)}/returns`, {
        lines,
        reason,
        ...(comment.trim() ? { comment: comment.trim() } : {}),
      });
      notify.success('Return requested: we will email you once it is reviewed');
      setOpen(false);
      headingRef.current?.focus();
      setQuantities({});
      setReason('');
      setComment('');
      onChanged();
    } catch (err) {
      showError(errorMessage(err, 'Your return could not be requested'));
    } finally {
      setSending(false);
    }
  };
  function showError(message: string) {
    setError(message);
    requestAnimationFrame(() => errorRef.current?.focus());
  }

  return (
    <section aria-labelledby={headingId} className="mb-8" data-testid="order-returns">
      <h3 id={headingId} ref={headingRef} tabIndex={-1} className="mb-3 font-semibold">
        Returns
      </h3>
      {order.returnableUntil && order.status === 'Delivered' && (
        <p className="mb-3 text-sm text-gray-600">
          {allowed
            ? `You can return items until ${formatDate(order.returnableUntil)} (${RETURN_WINDOW_DAYS} days after delivery).`
            : new Date() > new Date(order.returnableUntil)
              ? `The ${RETURN_WINDOW_DAYS}-day return window closed on ${formatDate(order.returnableUntil)}.`
              : 'Every item of this order is in a return.'}
        </p>
      )}
      {returns.length > 0 && (
        <ul className="mb-4 space-y-3">
          {[...returns].reverse().map((r) => (
            <ReturnCard key={r._id} ret={r} />
          ))}
        </ul>
      )}
      {allowed && !open && (
        <button
          type="button"
          onClick={() => setOpen(true)}
          className="rounded border border-gray-900 px-4 py-2 font-semibold hover:bg-gray-100"
        >
          Return items
        </button>
      )}
      {allowed && open && (
        <form
          id={formId}
          ref={formRef}
          onSubmit={submit}
          className="space-y-4 rounded border border-gray-200 p-4"
          noValidate
        >
          <fieldset>
            <legend className="mb-2 font-medium">Which items, and how many?</legend>
            <ul className="space-y-2">
              {order.orderItems.map((item, i) => (
                <li key={i} className="flex flex-wrap items-center justify-between gap-2 text-sm">
                  <label htmlFor={`${formId}-q${i}`} className="min-w-0 flex-1">
                    {item.name}
                    {lineOptions(item) && <span className="text-gray-600"> ({lineOptions(item)})</span>}
                    <span className="block text-gray-600">
                      {left[i] ? `Up to ${left[i]}` : 'Already returned'} of {item.quantity} bought
                    </span>
                  </label>
                  <select
                    id={`${formId}-q${i}`}
                    value={quantities[i] ?? 0}
                    disabled={!left[i]}
                    onChange={(e) => setQuantities((q) => ({ ...q, [i]: Number(e.target.value) }))}
                    className="rounded border border-gray-300 px-2 py-1"
                    data-testid={`return-quantity-${i}`}
                  >
                    {Array.from({ length: left[i] + 1 }, (_, n) => (
                      <option key={n} value={n}>
                        {n}
                      </option>
                    ))}
                  </select>
                </li>
              ))}
            </ul>
          </fieldset>
          <div>
            <label htmlFor={`${formId}-reason`} className="mb-1 block font-medium">
              Reason
            </label>
            <select
              id={`${formId}-reason`}
              value={reason}
              onChange={(e) => setReason(e.target.value as ReturnReason)}
              className="w-full rounded border border-gray-300 px-2 py-2"
              required
            >
              <option value="">Choose a reason</option>
              {RETURN_REASONS.map((r) => (
                <option key={r}>{r}</option>
              ))}
            </select>
          </div>
          <div>
            <label htmlFor={`${formId}-comment`} className="mb-1 block font-medium">
              Anything else we should know? <span className="font-normal text-gray-600">(optional)</span>
            </label>
            <textarea
              id={`${formId}-comment`}
              value={comment}
              maxLength={RETURN_COMMENT_MAX}
              onChange={(e) => setComment(e.target.value)}
              rows={3}
              className="w-full rounded border border-gray-300 px-2 py-2"
            />
          </div>
          {error && (
            <p ref={errorRef} tabIndex={-1} role="alert" className="rounded bg-red-50 p-2 text-red-800">
              {error}
            </p>
          )}
          <div className="flex gap-3">
            <button
              type="submit"
              disabled={sending}
              className="rounded bg-black px-4 py-2 font-semibold text-white hover:bg-gray-800 disabled:opacity-60"
            >
              {sending ? 'Sending…' : 'Request return'}
            </button>
            <button
              type="button"
              onClick={() => {
                setOpen(false);
                setError(null);
              }}
              className="rounded border border-gray-300 px-4 py-2"
            >
              Cancel
            </button>
          </div>
        </form>
      )}
    </section>
  );
}
