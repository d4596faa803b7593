import { lazy, Suspense, useEffect, useRef, useState, type ReactNode } from 'react';
import { Link } from 'react-router-dom';
import type { AdminStatsJson, OrderJson, RevenueDayJson } from '@shop/contracts';
import { useAppDispatch, useAppSelector } from '@/app/hooks';
import { Price } from '@/components/Price';
import { fetchAdminStats, reviewPaymentAlert, selectAdminOrders } from '@/features/admin/adminOrdersSlice';
import { AdminHeading, Empty, ErrorNotice, Loading } from '@/features/admin/AdminStates';
import { Cell, DataTable, Row, RowHeader } from '@/features/admin/AdminTable';
import { LowStockPanel } from '@/features/admin/LowStockPanel';
import { StatusBadge } from '@/features/admin/StatusBadge';
import { formatDate, formatDay } from '@/lib/dates';
import { formatPrice } from '@/lib/money';
import { usePageMeta } from '@/lib/usePageMeta';

// Chart.js is the biggest thing here: it loads after the figures, in its own chunk.
const RevenueChart = lazy(() => import('@/features/admin/RevenueChart'));

function StatCard({ label, children, link }: { label: string; children: ReactNode; link?: ReactNode }) {
  return (
    <div className="rounded-lg border border-gray-200 bg-white p-5 shadow-sm">
      <h2 className="text-sm font-semibold tracking-wide text-gray-600 uppercase">{label}</h2>
      <p className="mt-2 text-3xl font-bold text-gray-900">{children}</p>
      {link && <p className="mt-3 text-sm">{link}</p>}
    </div>
  );
}

const manage = 'font-semibold text-blue-700 underline hover:text-blue-900';

/** The chart's text alternative: every day's revenue and order count (three narrow columns fit a phone). */
function RevenueTable({ days }: { days: RevenueDayJson[] }) {
  const cell = 'px-4 py-2 text-right tabular-nums';
  return (
    <details className="mt-4">
      <summary className="cursor-pointer text-sm font-semibold text-blue-700 underline">
        Show revenue by day as a table
      </summary>
      <div
        className="mt-3 overflow-x-auto rounded-lg border border-gray-200"
        role="region"
        aria-label="Revenue by day"
        tabIndex={0}
      >
        <table className="w-full text-left text-sm text-gray-700">
          <caption className="sr-only">Revenue by day</caption>
          <thead className="border-b border-gray-200 bg-gray-100 text-xs tracking-wide uppercase">
            <tr>
              <th scope="col" className="px-4 py-2 font-semibold">
                Day
              </th>
              <th scope="col" className="px-4 py-2 text-right font-semibold">
                Orders
              </th>
              <th scope="col" className="px-4 py-2 text-right font-semibold">
                Revenue
              </th>
            </tr>
          </thead>
          <tbody>
            {days.map((d) => (
              <tr key={d.date} className="border-b border-gray-200 last:border-0">
                <th scope="row" className="px-4 py-2 font-normal whitespace-nowrap">
                  {formatDay(d.date, true)}
                </th>
                <td className={cell}>{d.orders}</td>
                <td className={cell}>{formatPrice(d.revenue)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </details>
  );
}

const ORDER_COLUMNS = [
  { label: 'Order ID' },
  { label: 'Customer' },
  { label: 'Date' },
  { label: 'Total Price', align: 'right' as const },
  { label: 'Status' },
];

function RecentOrders({ orders }: { orders: OrderJson[] }) {
  if (!orders.length) return <Empty>No recent orders found.</Empty>;
  return (
    <DataTable label="Recent orders" columns={ORDER_COLUMNS}>
      {orders.map((order) => (
        <Row key={order._id} testId="recent-order">
          <RowHeader className="font-mono text-xs font-normal">
            <Link to={`/admin/orders/${order._id}`} className="text-blue-700 underline hover:text-blue-900">
              #{order._id}
            </Link>
          </RowHeader>
          <Cell label="Customer">{order.user?.name ?? 'Unknown'}</Cell>
          <Cell label="Date" className="whitespace-nowrap">
            {formatDate(order.createdAt)}
          </Cell>
          <Cell label="Total Price" align="right" className="tabular-nums">
            <Price value={order.totalPrice} />
          </Cell>
          <Cell label="Status">
            <StatusBadge status={order.status} />
          </Cell>
        </Row>
      ))}
    </DataTable>
  );
}

/**
 * Orders whose payment PayPal gave back outside the shop (a refund made in PayPal, a chargeback): flagged at the top
 * of the dashboard until an admin marks each reviewed, each with what went back and a link to the order. A review
 * refused because PayPal gave more back since says so, and the figures are read again to show it. A review done
 * says so where the focus goes (the button it was on is gone).
 */
function PaymentAlerts({ alerts }: { alerts: NonNullable<AdminStatsJson['paymentAlerts']> }) {
  const dispatch = useAppDispatch();
  const { busy } = useAppSelector(selectAdminOrders);
  const [refused, setRefused] = useState<{ id: string; message: string } | null>(null);
  const [reviewed, setReviewed] = useState<string | null>(null);
  const reviewedNote = useRef<HTMLParagraphElement>(null);
  useEffect(() => {
    if (reviewed) reviewedNote.current?.focus();
  }, [reviewed]);
  const review = async (order: OrderJson) => {
    setRefused(null);
    setReviewed(null);
    const done = await dispatch(reviewPaymentAlert({ id: order._id, refunds: order.externalRefunds?.length ?? 0 }));
    if (reviewPaymentAlert.fulfilled.match(done)) setReviewed(order._id);
    else {
      setRefused({ id: order._id, message: done.payload ?? 'Something went wrong' });
      void dispatch(fetchAdminStats());
    }
  };
  const note = reviewed && (
    <p ref={reviewedNote} tabIndex={-1} role="status" className="text-sm text-gray-700 focus:outline-none">
      Order #{reviewed} marked reviewed.
    </p>
  );
  if (!alerts.count) return note || null;
  return (
    <section
      aria-labelledby="payment-alerts"
      className="rounded-lg border border-amber-300 bg-amber-50 p-5"
      data-testid="payment-alerts"
    >
      <h2 id="payment-alerts" className="text-lg font-bold text-amber-900">
        {alerts.count === 1
          ? '1 order was refunded or reversed in PayPal'
          : `${alerts.count} orders were refunded or reversed in PayPal`}
      </h2>
      <p className="mb-3 text-sm text-gray-800">
        The money went back outside the shop (PayPal&apos;s dashboard, or a chargeback): check each order before it
        ships.
      </p>
      <ul className="space-y-1 text-sm">
        {alerts.orders.map((order) => {
          const back = (order.externalRefunds ?? []).reduce((sum, r) => sum + Math.round(r.amount * 100), 0) / 100;
          const reversed = order.externalRefunds?.some((r) => r.kind === 'reversal');
          return (
            <li key={order._id} data-testid="payment-alert">
              <Link to={`/admin/orders/${order._id}`} className="font-mono text-blue-700 underline hover:text-blue-900">
                #{order._id}
              </Link>{' '}
              {order.user?.name ?? 'Unknown'} · {reversed ? 'reversed' : 'refunded'} <Price value={back} /> of{' '}
              <Price value={order.totalPrice} /> · <StatusBadge status={order.status} />{' '}
              <button
                type="button"
                className="ml-2 rounded border border-amber-400 bg-white px-2 py-0.5 text-xs font-semibold text-amber-900 hover:bg-amber-100 disabled:opacity-60"
                disabled={busy.includes(order._id)}
                onClick={() => void review(order)}
                aria-label={`Mark reviewed: order #${order._id}`}
              >
                {busy.includes(order._id) ? 'Saving…' : 'Mark reviewed'}
              </button>
              {refused?.id === order._id && (
                <p role="alert" className="mt-1 text-sm text-red-700">
                  {refused.message}
                </p>
              )}
            </li>
          );
        })}
      </ul>
      {note}
    </section>
  );
}

/**
 * /admin (docs/product.md#admin-area): revenue (the server's sum of paid order totals), counts, revenue by day, recent
 * orders; and
 * the low-stock variants (issue 22), which load on their own.
 */
export default function AdminDashboardPage() {
  usePageMeta('Admin dashboard');
  const dispatch = useAppDispatch();
  const { stats } = useAppSelector(selectAdminOrders);
  const load = () => void dispatch(fetchAdminStats());
  useEffect(() => {
    void dispatch(fetchAdminStats());
  }, [dispatch]);

  const data = stats.data;
  return (
    <>
      <AdminHeading title="Admin Dashboard" />
      {stats.status === 'failed' && <ErrorNotice message={stats.error ?? 'Something went wrong'} onRetry={load} />}
      {!data && stats.status !== 'failed' && <Loading label="Loading the dashboard..." />}
      {data && (
        <div className="space-y-8">
          {data.paymentAlerts && <PaymentAlerts alerts={data.paymentAlerts} />}
          <div className="grid gap-4 sm:grid-cols-3">
            <StatCard
              label="Revenue"
              link={<span className="text-gray-600">Paid orders net of refunds, cancelled ones excluded</span>}
            >
              <span data-testid="revenue">{formatPrice(data.revenue)}</span>
            </StatCard>
            <StatCard
              label="Total Orders"
              link={
                <Link to="/admin/orders" className={manage}>
                  Manage Orders
                </Link>
              }
            >
              <span data-testid="order-count">{data.orders}</span>
            </StatCard>
            <StatCard
              label="Total Products"
              link={
                <Link to="/admin/products" className={manage}>
                  Manage Products
                </Link>
              }
            >
              {data.products === null ? (
                <span className="text-xl text-gray-600">Not available right now</span>
              ) : (
                <span data-testid="product-count">{data.products}</span>
              )}
            </StatCard>
          </div>

          <section
            aria-labelledby="revenue-by-day"
            className="rounded-lg border border-gray-200 bg-white p-5 shadow-sm"
          >
            <h2 id="revenue-by-day" className="mb-4 text-xl font-bold">
              Revenue by day
            </h2>
            <Suspense fallback={<Loading label="Loading the chart..." />}>
              <RevenueChart days={data.revenueByDay} />
            </Suspense>
            <RevenueTable days={data.revenueByDay} />
          </section>

          <section aria-labelledby="recent-orders">
            <h2 id="recent-orders" className="mb-4 text-xl font-bold">
              Recent Orders
            </h2>
            <RecentOrders orders={data.recentOrders} />
          </section>
        </div>
      )}
      <div className="mt-8">
        <LowStockPanel />
      </div>
    </>
  );
}
