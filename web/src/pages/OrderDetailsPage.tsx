import { useEffect } from 'react';
import { Link, useParams } from 'react-router-dom';
import { useAppDispatch, useAppSelector } from '@/app/hooks';
import { ExternalRefunds, OrderLines, ParcelTracking } from '@/features/orders/OrderLines';
import { OrderTotal } from '@/features/orders/OrderTotal';
import { OrderReturns } from '@/features/orders/OrderReturns';
import { OrderStatusTimeline } from '@/features/orders/OrderStatus';
import { fetchOrderDetails, selectOrders } from '@/features/orders/ordersSlice';
import { formatDate } from '@/lib/dates';
import { usePageMeta } from '@/lib/usePageMeta';
import { useSignInAndComeBack } from '@/features/auth/guards';

function Badge({ ok, yes, no }: { ok: boolean; yes: string; no: string }) {
  return (
    <span
      className={`rounded-full px-3 py-1 text-sm font-medium ${ok ? 'bg-green-100 text-green-800' : 'bg-amber-100 text-amber-900'}`}
    >
      {ok ? yes : no}
    </span>
  );
}

/**
 * docs/product.md#order-pages: Approved/Pending, Delivered/Pending, items, shipping, payment; "No Order details
 * found". Beside them, the order's status and the date of each change (its status history).
 */
export default function OrderDetailsPage() {
  const { id = '' } = useParams();
  usePageMeta('Order details');
  const dispatch = useAppDispatch();
  const { data: order, status, error, errorStatus } = useAppSelector((s) => selectOrders(s).details);

  const signIn = useSignInAndComeBack();

  useEffect(() => {
    void dispatch(fetchOrderDetails(id)).then((done) => {
      if (fetchOrderDetails.rejected.match(done) && done.payload?.status === 401) signIn();
    });
  }, [dispatch, id, signIn]);

  const shown = order && order._id === id ? order : null;
  return (
    <div className="mx-auto max-w-5xl px-4 py-10">
      <h1 className="mb-6 text-2xl font-bold">Order Details</h1>
      {!shown ? (
        status === 'failed' && errorStatus !== 401 ? (
          <p className="text-gray-700">
            {error && !/not found|invalid/i.test(error) ? `Error: ${error}` : 'No Order details found'}
          </p>
        ) : (
          <p className="text-gray-600">Loading...</p>
        )
      ) : (
        <div className="rounded-lg border border-gray-200 p-6">
          <div className="mb-8 flex flex-col justify-between gap-4 sm:flex-row">
            <div>
              <h2 className="text-lg font-semibold">Order ID: #{shown._id}</h2>
              <p className="text-gray-600">{formatDate(shown.createdAt)}</p>
            </div>
            <div className="flex flex-col items-start gap-2 sm:items-end">
              <Badge ok={shown.isPaid} yes="Approved" no="Pending" />
              <Badge ok={shown.isDelivered} yes="Delivered" no="Pending" />
            </div>
          </div>
          <div className="mb-8 grid gap-6 sm:grid-cols-2">
            <div>
              <h3 className="mb-1 font-semibold">Payment Info</h3>
              <p className="text-gray-600">Payment Method: {shown.paymentMethod}</p>
              <p className="text-gray-600">Status: {shown.isPaid ? 'Paid' : 'Unpaid'}</p>
              <ExternalRefunds order={shown} className="mt-1" />
            </div>
            <div>
              <h3 className="mb-1 font-semibold">Shipping Info</h3>
              <p className="text-gray-600">Shipping Method: {shown.shippingMethod}</p>
              <p className="text-gray-600">
                Address:{' '}
                {[shown.shippingAddress.address, shown.shippingAddress.city, shown.shippingAddress.country]
                  .filter(Boolean)
                  .join(', ')}
              </p>
              <ParcelTracking order={shown} className="mt-2" />
            </div>
          </div>
          <OrderStatusTimeline order={shown} />
          <h3 className="mb-2 font-semibold">Products</h3>
          <OrderLines lines={shown.orderItems} />
          <OrderTotal order={shown} />
          <div className="mt-8">
            <OrderReturns order={shown} onChanged={() => void dispatch(fetchOrderDetails(id))} />
          </div>
          <Link to="/my-orders" className="mt-6 inline-block text-blue-700 underline">
            Back to My Orders
          </Link>
        </div>
      )}
    </div>
  );
}
