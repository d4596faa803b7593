import { useEffect, useRef, useState } from 'react';
import type { DiscountCodeBody, DiscountCodeJson, DiscountStatus } from '@shop/contracts';
import { useAppDispatch, useAppSelector } from '@/app/hooks';
import { Price } from '@/components/Price';
import {
  createDiscount,
  deactivateDiscount,
  fetchDiscounts,
  selectAdminDiscounts,
  updateDiscount,
} from '@/features/admin/adminDiscountsSlice';
import { AdminHeading, Empty, ErrorNotice, Loading } from '@/features/admin/AdminStates';
import { Cell, DataTable, Row, RowHeader } from '@/features/admin/AdminTable';
import { DiscountForm } from '@/features/admin/DiscountForm';
import { formatDiscountValue } from '@/features/admin/discountForm';
import { formatDateTime } from '@/lib/dates';
import { notify } from '@/lib/notify';
import { usePageMeta } from '@/lib/usePageMeta';

export const DEACTIVATE_DISCOUNT_CONFIRMATION =
  'Deactivate this discount code? Shoppers will no longer be able to use it; orders that used it keep it.';

/** What the list shows: the server's status, or 'held' for a limited code whose last uses unpaid checkouts hold. */
type ShownStatus = DiscountStatus | 'held';

const STATUS_TONES: Record<ShownStatus, string> = {
  active: 'bg-green-100 text-green-900',
  held: 'bg-orange-100 text-orange-900',
  scheduled: 'bg-blue-100 text-blue-900',
  expired: 'bg-amber-100 text-amber-900',
  'used up': 'bg-red-100 text-red-900',
  inactive: 'bg-gray-200 text-gray-800',
};

/**
 * The status a shopper meets: a code the server calls active (or scheduled) whose every use is placed or held by an
 * unpaid checkout is refused to every other shopper as used up (the holds count against its limit), so the admin
 * sees 'held', with the counts, until a hold ends (paid: used up; dropped: active again).
 */
export function shownStatus(code: Pick<DiscountCodeJson, 'status' | 'uses' | 'held' | 'usageLimit'>): {
  status: ShownStatus;
  label: string;
} {
  const { status, uses, held, usageLimit } = code;
  if ((status === 'active' || status === 'scheduled') && usageLimit != null && held > 0 && uses + held >= usageLimit)
    return { status: 'held', label: `${uses ? `${uses} used + ` : ''}${held} held / ${usageLimit}` };
  return { status, label: status };
}

/** A code's status as a coloured label (the words carry it; the colour only helps). */
function DiscountStatusBadge({ code }: { code: DiscountCodeJson }) {
  const { status, label } = shownStatus(code);
  return (
    <span
      className={`inline-block rounded-full px-2.5 py-0.5 text-xs font-semibold whitespace-nowrap ${status === 'held' ? '' : 'capitalize'} ${STATUS_TONES[status]}`}
      data-testid="discount-status"
    >
      {label}
    </span>
  );
}

/** "From 1 Mar 2025, 10:00 until 31 Mar 2025, 23:59", "Until …", "From …" or "Always". */
function validity(code: Pick<DiscountCodeJson, 'startsAt' | 'endsAt'>): string {
  const from = code.startsAt ? `From ${formatDateTime(code.startsAt)}` : '';
  const until = code.endsAt ? `${from ? 'until' : 'Until'} ${formatDateTime(code.endsAt)}` : '';
  return [from, until].filter(Boolean).join(' ') || 'Always';
}

interface DiscountRowProps {
  code: DiscountCodeJson;
  onEdit: (code: DiscountCodeJson) => void;
  /** Just created or saved: focus goes to its code, where the form that was closed had it. */
  focused: boolean;
}

function DiscountRow({ code, onEdit, focused }: DiscountRowProps) {
  const dispatch = useAppDispatch();
  const name = useRef<HTMLSpanElement>(null);
  useEffect(() => {
    if (focused) name.current?.focus();
  }, [focused]);
  const busy = useAppSelector((s) => selectAdminDiscounts(s).busy.includes(code._id));
  const notes = [
    code.firstOrderOnly && 'First order only',
    code.perCustomerLimit != null && `${code.perCustomerLimit} per customer`,
    code.email && `For ${code.email}`,
  ].filter(Boolean);

  const deactivate = async () => {
    if (!window.confirm(DEACTIVATE_DISCOUNT_CONFIRMATION)) return;
    try {
      await dispatch(deactivateDiscount(code._id)).unwrap();
      notify.success(`${code.code} deactivated`);
    } catch (message) {
      notify.error(String(message));
    }
  };

  return (
    <Row testId="discount-row">
      <RowHeader>
        <span ref={name} tabIndex={-1} className="font-mono focus:outline-2 focus:outline-offset-2">
          {code.code}
        </span>
        {notes.length > 0 && <span className="block text-xs font-normal text-gray-600">{notes.join(' · ')}</span>}
      </RowHeader>
      <Cell label="Discount" className="whitespace-nowrap tabular-nums">
        {formatDiscountValue(code)}
      </Cell>
      <Cell label="Minimum" className="tabular-nums">
        {code.minSubtotal != null ? <Price value={code.minSubtotal} /> : '—'}
      </Cell>
      <Cell label="Valid">{validity(code)}</Cell>
      <Cell label="Uses" className="whitespace-nowrap tabular-nums">
        {code.usageLimit != null ? `${code.uses} / ${code.usageLimit}` : code.uses}
      </Cell>
      <Cell label="Held" className="tabular-nums">
        {code.held}
      </Cell>
      <Cell label="Status">
        <DiscountStatusBadge code={code} />
      </Cell>
      <Cell label="Active">{code.active ? 'Yes' : 'No'}</Cell>
      <Cell label="Actions">
        <span className="flex gap-2">
          <button
            type="button"
            onClick={() => onEdit(code)}
            aria-label={`Edit ${code.code}`}
            className="rounded bg-gray-800 px-3 py-1.5 font-semibold text-white hover:bg-gray-700"
          >
            Edit
          </button>
          {code.active && (
            <button
              type="button"
              onClick={() => void deactivate()}
              disabled={busy}
              aria-label={`Deactivate ${code.code}`}
              className="rounded bg-red-600 px-3 py-1.5 font-semibold text-white hover:bg-red-700 disabled:opacity-60"
            >
              Deactivate
            </button>
          )}
        </span>
      </Cell>
    </Row>
  );
}

const COLUMNS = [
  { label: 'Code' },
  { label: 'Discount' },
  { label: 'Minimum' },
  { label: 'Valid' },
  { label: 'Uses' },
  { label: 'Held' },
  { label: 'Status' },
  { label: 'Active' },
  { label: 'Actions' },
];

/** What the form is open for: a new code, or the one being edited. */
type Editing = { kind: 'new' } | { kind: 'edit'; code: DiscountCodeJson } | null;

/** /admin/discounts (issue 24): the codes with their uses and status; create, edit and deactivate. */
export default function AdminDiscountsPage() {
  usePageMeta('Discount codes');
  const dispatch = useAppDispatch();
  const { list, saving } = useAppSelector(selectAdminDiscounts);
  const [editing, setEditing] = useState<Editing>(null);
  const [saved, setSaved] = useState<string | null>(null);
  const addButton = useRef<HTMLButtonElement>(null);
  const load = () => void dispatch(fetchDiscounts());
  useEffect(() => {
    void dispatch(fetchDiscounts());
  }, [dispatch]);

  const close = () => {
    setEditing(null);
    setSaved(null);
    requestAnimationFrame(() => addButton.current?.focus());
  };

  // Focus goes to the saved code in the list (DiscountRow), where the form was.
  const save = async (body: DiscountCodeBody) => {
    const code =
      editing?.kind === 'edit'
        ? await dispatch(updateDiscount({ id: editing.code._id, body })).unwrap()
        : await dispatch(createDiscount(body)).unwrap();
    const done = `${code.code} ${editing?.kind === 'edit' ? 'updated' : 'created'}`;
    notify.success(done);
    setEditing(null);
    setSaved(code._id);
  };

  return (
    <>
      <AdminHeading title="Discount Codes">
        {!editing && (
          <button
            ref={addButton}
            type="button"
            onClick={() => setEditing({ kind: 'new' })}
            className="rounded-lg bg-green-700 px-4 py-2 font-semibold text-white hover:bg-green-800"
          >
            Add discount code
          </button>
        )}
      </AdminHeading>
      <div className="space-y-8">
        {editing && (
          <DiscountForm
            key={editing.kind === 'edit' ? editing.code._id : 'new'}
            discount={editing.kind === 'edit' ? editing.code : null}
            saving={saving}
            onSubmit={save}
            onCancel={close}
          />
        )}
        <section aria-labelledby="discounts-heading">
          <h2 id="discounts-heading" className="mb-4 text-xl font-bold">
            Codes
          </h2>
          {list.status === 'failed' && <ErrorNotice message={list.error ?? 'Something went wrong'} onRetry={load} />}
          {list.status === 'loading' && !list.data.length && <Loading label="Loading discount codes..." />}
          {list.status === 'succeeded' && !list.data.length && <Empty>No discount codes yet.</Empty>}
          {list.data.length > 0 && (
            <DataTable label="Discount codes" columns={COLUMNS}>
              {list.data.map((code) => (
                <DiscountRow
                  key={code._id}
                  code={code}
                  focused={!editing && saved === code._id}
                  onEdit={(c) => {
                    setSaved(null);
                    setEditing({ kind: 'edit', code: c });
                  }}
                />
              ))}
            </DataTable>
          )}
        </section>
      </div>
    </>
  );
}
