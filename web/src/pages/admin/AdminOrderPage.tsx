import { useEffect, useId, useState, type ReactNode } from 'react';
import { Link, useParams } from 'react-router-dom';
import type { OrderJson, OrderStatusEntryJson } from '@shop/contracts';
import { useAppDispatch, useAppSelector } from '@/app/hooks';
import { Price } from '@/components/Price';
import { RETURN_STATUS_TEXT } from '@/features/orders/returnStatus';
import { fetchAdminOrder, selectAdminOrders } from '@/features/admin/adminOrdersSlice';
import { AdminHeading, ErrorNotice, Loading } from '@/features/admin/AdminStates';
import { StatusBadge } from '@/features/admin/StatusBadge';
import { ExternalRefunds, OrderLines, ParcelTracking } from '@/features/orders/OrderLines';
import { OrderTotal } from '@/features/orders/OrderTotal';
import { formatDateTime } from '@/lib/dates';
import { usePageMeta } from '@/lib/usePageMeta';
import { MarkDeliveredButton, OrderStatusSelect, ShipOrderPanel } from './AdminOrdersPage';

/** The parcel (carrier, number, the carrier's page), and shipping or correcting it. */
function Shipment({ order }: { order: OrderJson }) {
  const [open, setOpen] = useState(false);
  const canShip = order.status === 'Processing' || order.status === 'Shipped';
  return (
    <>
      {order.tracking ? (
        <ParcelTracking order={order} className="text-sm" />
      ) : (
        <p className="text-sm text-gray-700">No tracking number yet.</p>
      )}
      {canShip && (
        <button
          type="button"
          onClick={() => setOpen(true)}
          className="mt-3 rounded border border-gray-400 px-3 py-1.5 text-sm font-semibold hover:bg-gray-100"
        >
          {order.status === 'Shipped' ? 'Change tracking' : 'Ship with tracking…'}
        </button>
      )}
      <ShipOrderPanel order={order} open={open} onClose={() => setOpen(false)} />
    </>
  );
}

function Section({ title, children, testId }: { title: string; children: ReactNode; testId?: string }) {
  const id = useId();
  return (
    <section
      aria-labelledby={id}
      className="rounded-lg border border-gray-200 bg-white p-5 shadow-sm"
      data-testid={testId}
    >
      <h2 id={id} className="mb-3 text-lg font-bold">
        {title}
      </h2>
      {children}
    </section>
  );
}

/** Label and value lines of a section. */
function Facts({ rows }: { rows: Array<[string, ReactNode]> }) {
  return (
    <dl className="grid grid-cols-[max-content_1fr] gap-x-4 gap-y-1 text-sm">
      {rows.map(([term, value]) => (
        <div key={term} className="contents">
          <dt className="font-semibold text-gray-700">{term}</dt>
          <dd className="break-all text-gray-900">{value}</dd>
        </div>
      ))}
    </dl>
  );
}

const time = (iso: string | undefined) => (iso ? <time dateTime={iso}>{formatDateTime(iso)}</time> : '—');

/** What one history entry says happened. */
function entryText(entry: OrderStatusEntryJson, i: number, history: OrderStatusEntryJson[]): string {
  if (i === 0) return `Order placed: ${entry.status}`;
  if (entry.return) return `${RETURN_STATUS_TEXT[entry.return.status]} (return ${entry.return.id})`;
  if (entry.note && entry.status === history[i - 1]?.status) return `Note (still ${entry.status})`;
  return `Status set to ${entry.status}`;
}

/**
 * Every change of the order, oldest first (its append-only history): what changed, when, who did it, the refund it
 * made and any note; with the payment (when it was captured) in its place among them.
 */
function Timeline({ order }: { order: OrderJson }) {
  const history = order.statusHistory;
  const items: Array<{ at: string; key: string; node: ReactNode }> = history.map((entry, i) => ({
    at: entry.at,
    key: `h${i}`,
    node: (
      <>
        <p className="font-semibold text-gray-900">{entryText(entry, i, history)}</p>
        <p className="text-sm text-gray-600">
          {time(entry.at)}
          {entry.by ? ` · by ${entry.by.name}` : i === 0 ? ' · by the shop' : ''}
        </p>
        {entry.refund && (
          <p className="text-sm text-emerald-800" data-testid="timeline-refund">
            Refunded <Price value={entry.refund.amount} /> (PayPal refund {entry.refund.id})
          </p>
        )}
        {entry.note && <p className="text-sm text-gray-800">{entry.note}</p>}
        {entry.return && (
          <p className="text-sm text-gray-800">
            {entry.return.amount !== undefined && (
              <>
                {entry.return.status === 'Refunded' ? 'Refunded ' : 'Refund on receipt: '}
                <Price value={entry.return.amount} />{' '}
              </>
            )}
            {entry.return.note && <>· Note: {entry.return.note} </>}
            <Link to="/admin/returns" className="text-blue-700 underline">
              Returns
            </Link>
          </p>
        )}
      </>
    ),
  }));
  if (order.isPaid) {
    const paidAt = order.paymentDetails?.capturedAt ?? order.paidAt;
    items.push({
      at: paidAt,
      key: 'paid',
      node: (
        <>
          <p className="font-semibold text-gray-900">
            Payment captured: <Price value={order.totalPrice} />
          </p>
          <p className="text-sm text-gray-600">{time(paidAt)} · PayPal</p>
        </>
      ),
    });
  }
  // stable: the history keeps its order; the payment goes where its time puts it
  const sorted = items
    .map((item, i) => ({ ...item, i }))
    .sort((a, b) => Date.parse(a.at) - Date.parse(b.at) || a.i - b.i);
  return (
    <ol className="ml-1.5 border-l-2 border-gray-200" data-testid="order-timeline">
      {sorted.map((item) => (
        <li key={item.key} className="relative pb-4 pl-5 last:pb-0">
          <span
            aria-hidden="true"
            className="absolute top-1.5 -left-[7px] h-3 w-3 rounded-full bg-gray-400 ring-2 ring-white"
          />
          {item.node}
        </li>
      ))}
    </ol>
  );
}

function OrderView({ order }: { order: OrderJson }) {
  const a = order.shippingAddress;
  const pay = order.paymentDetails;
  // A cancellation's refund and each refunded return's.
  const refunded =
    order.statusHistory.reduce((sum, e) => sum + Math.round((e.refund?.amount ?? 0) * 100), 0) +
    Math.round((order.refunded ?? 0) * 100);
  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-center gap-3">
        <StatusBadge status={order.status} />
        <span className="text-sm text-gray-700">Placed {time(order.createdAt)}</span>
        <span className="ml-auto flex flex-wrap items-center gap-2">
          <OrderStatusSelect order={order} />
          <MarkDeliveredButton order={order} />
        </span>
      </div>
      {order.externalRefunds?.length ? (
        <div role="note" className="rounded-lg border border-amber-300 bg-amber-50 p-4" data-testid="payment-alert">
          <p className="font-semibold text-amber-900">PayPal gave money back outside the shop</p>
          <ExternalRefunds order={order} className="mt-1 space-y-1" />
          <p className="mt-1 text-sm text-gray-700">
            The order&apos;s status is unchanged: decide whether to cancel it or stop its shipment.
          </p>
        </div>
      ) : null}
      <div className="grid gap-6 lg:grid-cols-3">
        <Section title="Customer">
          <Facts
            rows={[
              ['Name', order.user.name],
              ['Email', order.user.email ?? '—'],
              ['Customer ID', <span className="font-mono text-xs">{order.user._id}</span>],
            ]}
          />
        </Section>
        <Section title="Shipping address" testId="shipping-address">
          <address className="text-sm not-italic text-gray-900">
            {a.firstName} {a.lastName}
            <br />
            {a.address}
            <br />
            {a.city} {a.postalCode}
            <br />
            {a.country}
            <br />
            {a.phone}
          </address>
          <p className="mt-2 text-sm text-gray-600">{order.shippingMethod}</p>
        </Section>
        <Section title="Payment" testId="payment">
          <Facts
            rows={[
              ['Method', order.paymentMethod],
              ['Status', order.isPaid ? 'Paid' : 'Not paid'],
              ['Amount', pay ? `${pay.amount} ${pay.currency}` : <Price value={order.totalPrice} />],
              ['Paid', time(pay?.capturedAt ?? order.paidAt)],
              ['PayPal order', pay?.id ?? '—'],
              ['PayPal capture', pay?.captureId ?? '—'],
              ...(pay?.payerEmail ? ([['Payer', pay.payerEmail]] as Array<[string, ReactNode]>) : []),
              ...(refunded ? ([['Refunded', <Price value={refunded / 100} />]] as Array<[string, ReactNode]>) : []),
            ]}
          />
        </Section>
      </div>
      <Section title="Shipment" testId="shipment">
        <Shipment order={order} />
      </Section>
      <Section title="Items" testId="order-items">
        <OrderLines lines={order.orderItems} />
        <OrderTotal order={order} />
      </Section>
      <Section title="Timeline">
        <Timeline order={order} />
      </Section>
    </div>
  );
}

/** /admin/orders/:id (issue 25): everything about one order, and every change made to it. */
export default function AdminOrderPage() {
  const { id = '' } = useParams();
  usePageMeta('Order');
  const dispatch = useAppDispatch();
  const { order } = useAppSelector(selectAdminOrders);
  const load = () => void dispatch(fetchAdminOrder(id));
  useEffect(() => {
    void dispatch(fetchAdminOrder(id));
  }, [dispatch, id]);

  const shown = order.data?._id === id ? order.data : null;
  const notFound = order.status === 'failed' && (order.errorStatus === 404 || order.errorStatus === 400);
  return (
    <>
      <p className="mb-2 text-sm">
        <Link to="/admin/orders" className="font-semibold text-blue-700 underline hover:text-blue-900">
          ← All orders
        </Link>
      </p>
      <AdminHeading title={`Order #${id}`} />
      {notFound && <p className="text-gray-700">No Order details found</p>}
      {order.status === 'failed' && !notFound && (
        <ErrorNotice message={order.error ?? 'Something went wrong'} onRetry={load} />
      )}
      {!shown && order.status !== 'failed' && <Loading label="Loading the order..." />}
      {shown && <OrderView order={shown} />}
    </>
  );
}
