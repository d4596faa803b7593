import { useCallback, useEffect, useId, useState } from 'react';
import { Link } from 'react-router-dom';
import {
  RETURN_NOTE_MAX,
  RETURN_STATUSES,
  type AdminReturnJson,
  type AdminReturnStatus,
  type ReturnStatus,
} from '@shop/contracts';
import { api, errorMessage } from '@/api/client';
import { Price } from '@/components/Price';
import { AdminHeading, Empty, ErrorNotice, Loading } from '@/features/admin/AdminStates';
import { lineOptions } from '@/features/orders/OrderLines';
import { RETURN_BADGE } from '@/features/orders/returnStatus';
import { formatDate, formatDateTime } from '@/lib/dates';
import { notify } from '@/lib/notify';
import { usePageMeta } from '@/lib/usePageMeta';

type Filter = ReturnStatus | '';

/** One return in the queue, with the admin's actions for its status. */
function ReturnItem({ ret, onChanged }: { ret: AdminReturnJson; onChanged: (r: AdminReturnJson) => void }) {
  const id = useId();
  const [note, setNote] = useState('');
  const [restock, setRestock] = useState<Record<number, boolean>>(() =>
    Object.fromEntries(ret.lines.map((l) => [l.line, true])),
  );
  const [busy, setBusy] = useState<AdminReturnStatus | null>(null);
  const [error, setError] = useState<string | null>(null);

  const act = async (status: AdminReturnStatus) => {
    setBusy(status);
    setError(null);
    try {
      const body =
        status === 'Received'
          ? { status, restock: ret.lines.filter((l) => restock[l.line]).map((l) => l.line) }
          : { status, ...(note.trim() ? { note: note.trim() } : {}) };
      const { data } = await api.put<{ returns?: AdminReturnJson[] }>(
        `/api/admin/orders/${encodeURIComponent(ret.orderId)}/returns/${encodeURIComponent(ret._id)}`,
        body,
      );
      const updated = data.returns?.find((r) => r._id === ret._id);
      if (updated) {
        onChanged({ ...ret, ...updated });
        if (updated.refundError) notify.error(`Received, but not refunded yet: ${updated.refundError}`);
        else notify.success(`Return ${updated.status.toLowerCase()}`);
      }
    } catch (err) {
      setError(errorMessage(err, 'The return could not be changed'));
    } finally {
      setBusy(null);
    }
  };

  const button = 'rounded px-3 py-1.5 text-sm font-semibold disabled:opacity-60';
  return (
    <li className="rounded-lg border border-gray-200 bg-white p-4" data-testid="admin-return">
      <div className="mb-2 flex flex-wrap items-start justify-between gap-2">
        <div>
          <p className="font-semibold">
            <Link to={`/admin/orders/${ret.orderId}`} className="text-blue-700 underline">
              Order #{ret.orderId}
            </Link>{' '}
            · {ret.customer.name}
            {ret.customer.email && <span className="font-normal text-gray-600"> ({ret.customer.email})</span>}
          </p>
          <p className="text-sm text-gray-600">
            Asked {formatDateTime(ret.createdAt)}
            {ret.deliveredAt && <> · delivered {formatDate(ret.deliveredAt)}</>} · {ret.reason}
          </p>
          {ret.comment && <p className="mt-1 text-sm text-gray-800">“{ret.comment}”</p>}
        </div>
        <span
          className={`rounded-full px-2 py-1 text-xs font-semibold ${RETURN_BADGE[ret.status]}`}
          data-testid="admin-return-status"
        >
          {ret.status}
        </span>
      </div>
      <ul className="mb-2 text-sm">
        {ret.lines.map((l) => (
          <li key={l.line} className="flex flex-wrap items-center gap-2">
            {ret.status === 'Approved' ? (
              <label className="flex items-center gap-2">
                <input
                  type="checkbox"
                  checked={restock[l.line] ?? false}
                  onChange={(e) => setRestock((r) => ({ ...r, [l.line]: e.target.checked }))}
                  data-testid={`restock-${l.line}`}
                />
                <span>
                  Back to stock: {l.quantity} × {l.name}
                  {lineOptions(l) && <span className="text-gray-600"> ({lineOptions(l)})</span>}
                </span>
              </label>
            ) : (
              <span>
                {l.quantity} × {l.name}
                {lineOptions(l) && <span className="text-gray-600"> ({lineOptions(l)})</span>}
                {l.restock !== undefined && (
                  <span className="text-gray-600"> · {l.restock ? 'restocked' : 'not restocked'}</span>
                )}
              </span>
            )}
            <Price value={l.refund} className="text-gray-700" />
          </li>
        ))}
      </ul>
      <p className="text-sm">
        {ret.refund ? (
          <>
            Refunded <Price value={ret.refund.amount} className="font-semibold" /> (PayPal refund {ret.refund.id})
          </>
        ) : (
          <>
            Refund on receipt: <Price value={ret.amount} className="font-semibold" />
          </>
        )}
      </p>
      {ret.refundError && (
        <p role="alert" className="mt-2 rounded bg-red-50 p-2 text-sm text-red-800" data-testid="refund-error">
          Not refunded yet (it is tried again automatically): {ret.refundError}
        </p>
      )}
      {ret.steps.some((s) => s.note) && (
        <p className="mt-1 text-sm text-gray-700">Note: {ret.steps.filter((s) => s.note).at(-1)!.note}</p>
      )}
      {error && (
        <p role="alert" className="mt-2 rounded bg-red-50 p-2 text-sm text-red-800">
          {error}
        </p>
      )}
      {ret.status === 'Requested' && (
        <div className="mt-3 space-y-2">
          <label htmlFor={`${id}-note`} className="block text-sm font-medium">
            Note to the customer <span className="font-normal text-gray-600">(optional)</span>
          </label>
          <textarea
            id={`${id}-note`}
            value={note}
            maxLength={RETURN_NOTE_MAX}
            onChange={(e) => setNote(e.target.value)}
            rows={2}
            className="w-full rounded border border-gray-300 px-2 py-1 text-sm"
          />
          <div className="flex gap-2">
            <button
              type="button"
              disabled={!!busy}
              onClick={() => void act('Approved')}
              className={`${button} bg-green-700 text-white hover:bg-green-800`}
            >
              {busy === 'Approved' ? 'Approving…' : 'Approve'}
            </button>
            <button
              type="button"
              disabled={!!busy}
              onClick={() => void act('Rejected')}
              className={`${button} border border-red-300 text-red-800 hover:bg-red-50`}
            >
              {busy === 'Rejected' ? 'Rejecting…' : 'Reject'}
            </button>
          </div>
        </div>
      )}
      {(ret.status === 'Approved' || (ret.status === 'Received' && ret.refundError)) && (
        <button
          type="button"
          disabled={!!busy}
          onClick={() => void act('Received')}
          className={`${button} mt-3 bg-gray-900 text-white hover:bg-gray-700`}
        >
          {busy === 'Received'
            ? 'Refunding…'
            : ret.status === 'Approved'
              ? `Mark received and refund ${new Intl.NumberFormat('en-GB', { style: 'currency', currency: 'GBP' }).format(ret.amount)}`
              : 'Try the refund again'}
        </button>
      )}
    </li>
  );
}

/** /admin/returns: the returns queue, by status, with approve, reject, receive (restock per line) and the refund. */
export default function AdminReturnsPage() {
  usePageMeta('Returns');
  const filterId = useId();
  const [filter, setFilter] = useState<Filter>('Requested');
  const [returns, setReturns] = useState<AdminReturnJson[] | null>(null);
  const [error, setError] = useState<string | null>(null);

  const load = useCallback(async (status: Filter) => {
    setError(null);
    setReturns(null);
    try {
      const { data } = await api.get<AdminReturnJson[]>('/api/admin/returns', {
        params: status ? { status } : {},
      });
      setReturns(data);
    } catch (err) {
      setError(errorMessage(err, 'The returns could not be loaded'));
    }
  }, []);

  useEffect(() => {
    void load(filter);
  }, [filter, load]);

  const replace = (updated: AdminReturnJson) =>
    setReturns((list) => list?.map((r) => (r._id === updated._id ? updated : r)) ?? list);

  return (
    <div>
      <AdminHeading title="Returns">
        <div className="flex items-center gap-2">
          <label htmlFor={filterId} className="text-sm font-medium">
            Status
          </label>
          <select
            id={filterId}
            value={filter}
            onChange={(e) => setFilter(e.target.value as Filter)}
            className="rounded border border-gray-300 px-2 py-1"
          >
            <option value="">All</option>
            {RETURN_STATUSES.map((s) => (
              <option key={s}>{s}</option>
            ))}
          </select>
        </div>
      </AdminHeading>
      {error ? (
        <ErrorNotice message={error} onRetry={() => void load(filter)} />
      ) : !returns ? (
        <Loading label="Loading returns..." />
      ) : returns.length === 0 ? (
        <Empty>No returns {filter ? `are ${filter.toLowerCase()}` : 'yet'}.</Empty>
      ) : (
        <ul className="space-y-4">
          {returns.map((r) => (
            <ReturnItem key={r._id} ret={r} onChanged={replace} />
          ))}
        </ul>
      )}
    </div>
  );
}
