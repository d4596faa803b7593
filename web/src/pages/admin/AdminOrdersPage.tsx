import { useCallback, useEffect, useMemo, useState, type FormEvent } from 'react';
import { createPortal } from 'react-dom';
import { Link, useSearchParams } from 'react-router-dom';
import {
  ORDER_MESSAGES,
  ORDER_STATUSES,
  type AdminOrderSortField,
  type OrderJson,
  type OrderStatus,
} from '@shop/contracts';
import { useAppDispatch, useAppSelector } from '@/app/hooks';
import { Price } from '@/components/Price';
import { fetchOrderPage, selectAdminOrders, updateOrderStatus } from '@/features/admin/adminOrdersSlice';
import { AdminHeading, Empty, ErrorNotice, Loading } from '@/features/admin/AdminStates';
import { ShipOrderForm } from '@/features/admin/ShipOrderForm';
import { Drawer } from '@/components/Drawer';
import { Cell, DataTable, Row, RowHeader, type Column } from '@/features/admin/AdminTable';
import { downloadOrdersCsv } from '@/features/admin/downloadCsv';
import {
  DEFAULT_VIEW,
  PAGE_SIZE,
  ariaSortOf,
  filterParams,
  listParams,
  nextSort,
  parseOrderListView,
  rangeText,
  toSearchParams,
  type OrderListView,
} from '@/features/admin/orderListQuery';
import { LineSku, lineOptions } from '@/features/orders/OrderLines';
import { formatDate } from '@/lib/dates';
import { formatPrice } from '@/lib/money';
import { notify } from '@/lib/notify';
import { usePageMeta } from '@/lib/usePageMeta';

/** Cancelling gives the stock back and cannot be undone (the server refuses any change after it). */
export const CANCEL_ORDER_CONFIRMATION =
  'Cancel this order? Its items go back on sale, and a cancelled order cannot change status again.';

/** What cancelling this order does: a PayPal-paid order's whole payment is refunded too. */
export const cancelConfirmation = (order: OrderJson): string =>
  order.paymentDetails ? ORDER_MESSAGES.confirmCancelPaid(formatPrice(order.totalPrice)) : CANCEL_ORDER_CONFIRMATION;

/** The order's lines, folded: each name, size and colour, variant SKU and quantity. */
function OrderItems({ order }: { order: OrderJson }) {
  const units = order.orderItems.reduce((n, line) => n + line.quantity, 0);
  return (
    <details className="max-sm:text-left">
      <summary className="cursor-pointer whitespace-nowrap text-blue-700 underline">
        {units} {units === 1 ? 'item' : 'items'}
        <span className="sr-only"> of order #{order._id}</span>
      </summary>
      <ul className="mt-2 min-w-56 space-y-2" aria-label={`Items of order #${order._id}`}>
        {order.orderItems.map((line) => (
          <li key={`${line.productId}|${line.size}|${line.color}`} data-testid="admin-order-line">
            <span className="block font-medium text-gray-900">
              {line.quantity} × {line.name}
            </span>
            {lineOptions(line) && <span className="block text-gray-600">{lineOptions(line)}</span>}
            <LineSku sku={line.sku} />
          </li>
        ))}
      </ul>
    </details>
  );
}

/** The status select and Mark as Delivered of one order (the order page uses them too). */
export function useSetOrderStatus(order: OrderJson) {
  const dispatch = useAppDispatch();
  const busy = useAppSelector((s) => selectAdminOrders(s).busy.includes(order._id));
  const setStatus = async (status: OrderStatus) => {
    if (status === order.status) return;
    if (status === 'Cancelled' && !window.confirm(cancelConfirmation(order))) return;
    try {
      await dispatch(updateOrderStatus({ id: order._id, status })).unwrap();
      notify.success(`Order #${order._id.slice(-6)} is now ${status}`);
    } catch (message) {
      notify.error(String(message));
    }
  };
  return { busy, final: order.status === 'Cancelled', setStatus };
}

/** Shipping asks for the parcel (carrier, tracking number) in a panel; correcting it too, on the order's page. */
export function ShipOrderPanel({ order, open, onClose }: { order: OrderJson; open: boolean; onClose: () => void }) {
  // Into the body: opened from a table cell, whose layout (a phone's card, its text alignment) it must not inherit.
  if (!open) return null;
  return createPortal(
    <Drawer
      open={open}
      onClose={onClose}
      title={`${order.status === 'Shipped' ? 'Tracking of' : 'Ship'} order #${order._id.slice(-6)}`}
      testId="ship-order"
    >
      <ShipOrderForm order={order} onDone={onClose} />
    </Drawer>,
    document.body,
  );
}

export function OrderStatusSelect({ order }: { order: OrderJson }) {
  const { busy, final, setStatus } = useSetOrderStatus(order);
  const [shipping, setShipping] = useState(false);
  return (
    <>
      <ShipOrderPanel order={order} open={shipping} onClose={() => setShipping(false)} />
      <StatusSelect order={order} busy={busy} final={final} onShip={() => setShipping(true)} setStatus={setStatus} />
    </>
  );
}

function StatusSelect({
  order,
  busy,
  final,
  onShip,
  setStatus,
}: {
  order: OrderJson;
  busy: boolean;
  final: boolean;
  onShip: () => void;
  setStatus: (status: OrderStatus) => Promise<void>;
}) {
  return (
    <select
      value={order.status}
      onChange={(e) => {
        const next = e.target.value as OrderStatus;
        if (next === 'Shipped') onShip();
        else void setStatus(next);
      }}
      disabled={busy || final}
      aria-label={`Status of order #${order._id}`}
      title={final ? 'A cancelled order cannot change status' : undefined}
      className="rounded border border-gray-400 bg-white p-1.5 disabled:bg-gray-100 disabled:opacity-70"
    >
      {ORDER_STATUSES.map((status) => (
        // A delivered order cannot be cancelled (the server refuses it too).
        <option key={status} value={status} disabled={status === 'Cancelled' && order.status === 'Delivered'}>
          {status}
        </option>
      ))}
    </select>
  );
}

export function MarkDeliveredButton({ order }: { order: OrderJson }) {
  const { busy, final, setStatus } = useSetOrderStatus(order);
  return (
    <button
      type="button"
      onClick={() => void setStatus('Delivered')}
      disabled={busy || final || order.status === 'Delivered'}
      aria-label={`Mark as Delivered, order #${order._id}`}
      className="rounded bg-green-700 px-3 py-1.5 font-semibold whitespace-nowrap text-white hover:bg-green-800 disabled:cursor-not-allowed disabled:bg-gray-300 disabled:text-gray-700"
    >
      Mark as Delivered
    </button>
  );
}

function OrderRow({ order }: { order: OrderJson }) {
  return (
    <Row testId="order-row">
      <RowHeader className="font-mono text-xs font-normal">
        <Link to={`/admin/orders/${order._id}`} className="text-blue-700 underline hover:text-blue-900">
          #{order._id}
        </Link>
      </RowHeader>
      <Cell label="Customer">
        <span className="block">{order.user?.name ?? 'Unknown'}</span>{' '}
        {order.user?.email && <span className="block text-xs text-gray-600">{order.user.email}</span>}
      </Cell>
      <Cell label="Date" className="whitespace-nowrap">
        {formatDate(order.createdAt)}
      </Cell>
      <Cell label="Items">
        <OrderItems order={order} />
      </Cell>
      <Cell label="Total Price" align="right" className="tabular-nums">
        <Price value={order.totalPrice} />
        {order.discount && (
          <span className="block text-xs whitespace-nowrap text-emerald-800" data-testid="order-discount">
            {order.discount.code} −<Price value={order.discount.amount} />
          </span>
        )}
      </Cell>
      <Cell label="Status">
        <OrderStatusSelect order={order} />
      </Cell>
      <Cell label="Actions">
        <MarkDeliveredButton order={order} />
      </Cell>
    </Row>
  );
}

const field = 'rounded border border-gray-400 bg-white p-2';
const label = 'flex flex-col gap-1 text-sm font-semibold';

/** Search (on submit), status, payment and dates (at once), a reset, and the export of what they select. */
function OrderFilters({ view, onChange }: { view: OrderListView; onChange: (next: Partial<OrderListView>) => void }) {
  const [q, setQ] = useState(view.q);
  useEffect(() => setQ(view.q), [view.q]); // Back or a link changes the URL: the box follows
  const [exporting, setExporting] = useState(false);
  const filtered = JSON.stringify(filterParams(view)) !== '{}';

  const search = (e: FormEvent) => {
    e.preventDefault();
    onChange({ q: q.trim() });
  };
  const exportCsv = async () => {
    setExporting(true);
    try {
      const name = await downloadOrdersCsv(filterParams(view));
      notify.success(`Downloaded ${name}`);
    } catch (error) {
      notify.error((error as Error).message);
    } finally {
      setExporting(false);
    }
  };

  return (
    <div className="mb-4 space-y-3 rounded-lg border border-gray-200 bg-white p-4 shadow-sm">
      <form role="search" aria-label="Order search" onSubmit={search} className="flex flex-wrap items-end gap-2">
        <label className={`${label} w-full sm:w-96`}>
          Search orders
          <input
            type="search"
            value={q}
            onChange={(e) => setQ(e.target.value)}
            maxLength={100}
            placeholder="Order ID, customer email, or the start of a name"
            className={`${field} font-normal`}
          />
        </label>
        <button type="submit" className="rounded bg-gray-900 px-4 py-2 font-semibold text-white hover:bg-gray-700">
          Search
        </button>
      </form>
      <div className="flex flex-wrap items-end gap-3">
        <label className={label}>
          Status
          <select
            value={view.status}
            onChange={(e) => onChange({ status: e.target.value as OrderListView['status'] })}
            className={`${field} font-normal`}
          >
            <option value="">All statuses</option>
            {ORDER_STATUSES.map((status) => (
              <option key={status} value={status}>
                {status}
              </option>
            ))}
          </select>
        </label>
        <label className={label}>
          Payment
          <select
            value={view.paid}
            onChange={(e) => onChange({ paid: e.target.value as OrderListView['paid'] })}
            className={`${field} font-normal`}
          >
            <option value="">Paid or not</option>
            <option value="true">Paid</option>
            <option value="false">Not paid</option>
          </select>
        </label>
        <label className={label}>
          From
          <input
            type="date"
            value={view.from}
            max={view.to || undefined}
            onChange={(e) => onChange({ from: e.target.value })}
            className={`${field} font-normal`}
          />
        </label>
        <label className={label}>
          To
          <input
            type="date"
            value={view.to}
            min={view.from || undefined}
            onChange={(e) => onChange({ to: e.target.value })}
            className={`${field} font-normal`}
          />
        </label>
        {filtered && (
          <button
            type="button"
            onClick={() => onChange({ ...DEFAULT_VIEW, sort: view.sort })}
            className="rounded border border-gray-400 px-3 py-2 text-sm font-semibold hover:bg-gray-100"
          >
            Clear filters
          </button>
        )}
        <button
          type="button"
          onClick={() => void exportCsv()}
          disabled={exporting}
          aria-busy={exporting}
          className="ml-auto rounded bg-blue-700 px-4 py-2 font-semibold text-white hover:bg-blue-800 disabled:bg-gray-400"
        >
          {exporting ? 'Exporting...' : 'Export CSV'}
        </button>
      </div>
    </div>
  );
}

function Pager({
  view,
  shown,
  total,
  onPage,
}: {
  view: OrderListView;
  shown: number;
  total: number;
  onPage: (page: number) => void;
}) {
  const last = Math.max(1, Math.ceil(total / PAGE_SIZE));
  const button =
    'rounded border border-gray-400 bg-white px-3 py-1.5 text-sm font-semibold hover:bg-gray-100 disabled:cursor-not-allowed disabled:opacity-50';
  return (
    <nav aria-label="Pages of orders" className="mt-4 flex flex-wrap items-center justify-between gap-3">
      <p className="text-sm text-gray-700" aria-live="polite" data-testid="order-range">
        {rangeText(view.page, shown, total)}
      </p>
      <div className="flex items-center gap-2">
        <button type="button" className={button} disabled={view.page <= 1} onClick={() => onPage(view.page - 1)}>
          Previous
        </button>
        <span className="text-sm text-gray-700">
          Page {view.page} of {last}
        </span>
        <button type="button" className={button} disabled={view.page >= last} onClick={() => onPage(view.page + 1)}>
          Next
        </button>
      </div>
    </nav>
  );
}

/**
 * /admin/orders (docs/product.md#admin-area; issue 25): a page of orders at a time — searched, filtered, sorted by its
 * headers, the view kept in the query string — each linking to its order page; the status set by a select or Mark as
 * Delivered; the orders of the filter exported as CSV. Money in £.
 */
export default function AdminOrdersPage() {
  usePageMeta('Order management');
  const dispatch = useAppDispatch();
  const [params, setParams] = useSearchParams();
  const view = useMemo(() => parseOrderListView(params), [params]);
  const { page } = useAppSelector(selectAdminOrders);
  const query = JSON.stringify(listParams(view));

  const load = useCallback(() => dispatch(fetchOrderPage(JSON.parse(query))), [dispatch, query]);
  useEffect(() => {
    const request = load();
    return () => request.abort(); // a newer view replaces this request
  }, [load]);

  const change = (next: Partial<OrderListView>) =>
    setParams(toSearchParams({ ...view, page: 1, ...next }), { preventScrollReset: true });
  const sortBy = (by: AdminOrderSortField) => ({
    direction: ariaSortOf(view.sort, by),
    onSort: () => change({ sort: nextSort(view.sort, by) }),
  });
  const columns: Column[] = [
    { label: 'Order ID' },
    { label: 'Customer', sort: sortBy('customer') },
    { label: 'Date', sort: sortBy('createdAt') },
    { label: 'Items' },
    { label: 'Total Price', align: 'right', sort: sortBy('totalPrice') },
    { label: 'Status', sort: sortBy('status') },
    { label: 'Actions' },
  ];
  const { orders, total } = page.data;
  const waiting = page.status === 'idle' || page.status === 'loading';

  return (
    <>
      <AdminHeading title="Order Management" />
      <OrderFilters view={view} onChange={change} />
      {page.status === 'failed' && (
        <ErrorNotice message={page.error ?? 'Something went wrong'} onRetry={() => void load()} />
      )}
      {waiting && !orders.length && <Loading label="Loading orders..." />}
      {page.status === 'succeeded' && !orders.length && <Empty>No Orders found.</Empty>}
      {page.status !== 'failed' && orders.length > 0 && (
        <div aria-busy={waiting}>
          <DataTable label="Orders" columns={columns}>
            {orders.map((order) => (
              <OrderRow key={order._id} order={order} />
            ))}
          </DataTable>
        </div>
      )}
      {page.status === 'succeeded' && (
        <Pager view={view} shown={orders.length} total={total} onPage={(n) => change({ page: n })} />
      )}
    </>
  );
}
