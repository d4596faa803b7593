import { useEffect } from 'react';
import { Link } from 'react-router-dom';
import { ORDER_MESSAGES, ORDER_STATUSES, type OrderJson, type OrderStatus } from '@shop/contracts';
import { useAppDispatch, useAppSelector } from '@/app/hooks';
import { Price } from '@/components/Price';
import { fetchAllOrders, selectAdminOrders, updateOrderStatus } from '@/features/admin/adminOrdersSlice';
import { AdminHeading, Empty, ErrorNotice, Loading } from '@/features/admin/AdminStates';
import { Cell, DataTable, Row, RowHeader } from '@/features/admin/AdminTable';
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

function OrderRow({ order }: { order: OrderJson }) {
  const dispatch = useAppDispatch();
  const busy = useAppSelector((s) => selectAdminOrders(s).busy.includes(order._id));
  const final = order.status === 'Cancelled';

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

  return (
    <Row testId="order-row">
      <RowHeader className="font-mono text-xs font-normal">
        <Link to={`/order/${order._id}`} className="text-blue-700 underline hover:text-blue-900">
          #{order._id}
        </Link>
      </RowHeader>
      <Cell label="Customer">{order.user?.name ?? 'Unknown'}</Cell>
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
        <select
          value={order.status}
          onChange={(e) => void setStatus(e.target.value as OrderStatus)}
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
      </Cell>
      <Cell label="Actions">
        <button
          type="button"
          onClick={() => void setStatus('Delivered')}
          disabled={busy || final || order.status === 'Delivered'}
          aria-label={`Mark as Delivered, order #${order._id}`}
          className="rounded bg-green-700 px-3 py-1.5 font-semibold whitespace-nowrap text-white hover:bg-green-800 disabled:cursor-not-allowed disabled:bg-gray-300 disabled:text-gray-700"
        >
          Mark as Delivered
        </button>
      </Cell>
    </Row>
  );
}

const ORDER_COLUMNS = [
  { label: 'Order ID' },
  { label: 'Customer' },
  { label: 'Date' },
  { label: 'Items' },
  { label: 'Total Price', align: 'right' as const },
  { label: 'Status' },
  { label: 'Actions' },
];

/** /admin/orders (SPEC §4, §6): every order, its status set by a select or Mark as Delivered. Money in £. */
export default function AdminOrdersPage() {
  usePageMeta('Order management');
  const dispatch = useAppDispatch();
  const { list } = useAppSelector(selectAdminOrders);
  const load = () => void dispatch(fetchAllOrders());
  useEffect(() => {
    void dispatch(fetchAllOrders());
  }, [dispatch]);

  return (
    <>
      <AdminHeading title="Order Management" />
      {list.status === 'failed' && <ErrorNotice message={list.error ?? 'Something went wrong'} onRetry={load} />}
      {list.status === 'loading' && !list.data.length && <Loading label="Loading orders..." />}
      {list.status === 'succeeded' && !list.data.length && <Empty>No Orders found.</Empty>}
      {list.data.length > 0 && (
        <DataTable label="Orders" columns={ORDER_COLUMNS}>
          {list.data.map((order) => (
            <OrderRow key={order._id} order={order} />
          ))}
        </DataTable>
      )}
    </>
  );
}
