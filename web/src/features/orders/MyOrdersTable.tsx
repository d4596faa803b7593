import { useEffect } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { useAppDispatch, useAppSelector } from '@/app/hooks';
import { Price } from '@/components/Price';
import { formatDateTime } from '@/lib/dates';
import { OrderStatusCell } from './OrderStatus';
import { fetchUserOrders, selectOrders } from './ordersSlice';
import { useSignInAndComeBack } from '@/features/auth/guards';

/**
 * The customer's orders (docs/product.md#order-pages): a row opens /order/:id; Paid or Pending, and the order's status
 * with the day it took it; "You have no orders" when there are none.
 */
export function MyOrdersTable() {
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const { data: orders, status, error, errorStatus } = useAppSelector((s) => selectOrders(s).mine);

  const signIn = useSignInAndComeBack();

  useEffect(() => {
    void dispatch(fetchUserOrders()).then((done) => {
      if (fetchUserOrders.rejected.match(done) && done.payload?.status === 401) signIn();
    });
  }, [dispatch, signIn]);

  if (status === 'failed' && errorStatus !== 401) return <p className="text-red-700">Error: {error}</p>;
  // A 401 is on its way to /login: loading, not the server's "Not authorized".
  if (status !== 'succeeded' && !orders.length) return <p className="text-gray-600">Loading...</p>;

  return (
    <div className="overflow-x-auto rounded-lg border border-gray-200">
      <table className="min-w-full text-left text-sm text-gray-700">
        <thead className="bg-gray-100 text-xs text-gray-800 uppercase">
          <tr>
            <th scope="col" className="px-4 py-3">
              <span className="sr-only">Image</span>
            </th>
            <th scope="col" className="px-4 py-3">
              Order ID
            </th>
            <th scope="col" className="px-4 py-3">
              Created
            </th>
            <th scope="col" className="px-4 py-3">
              Shipping Address
            </th>
            <th scope="col" className="px-4 py-3">
              Items
            </th>
            <th scope="col" className="px-4 py-3">
              Price
            </th>
            <th scope="col" className="px-4 py-3">
              Payment
            </th>
            <th scope="col" className="px-4 py-3">
              Status
            </th>
          </tr>
        </thead>
        <tbody>
          {orders.length === 0 ? (
            <tr>
              <td colSpan={8} className="px-4 py-6 text-center text-gray-600">
                You have no orders
              </td>
            </tr>
          ) : (
            orders.map((order) => (
              <tr
                key={order._id}
                onClick={() => navigate(`/order/${order._id}`)}
                className="cursor-pointer border-b border-gray-200 hover:bg-gray-50"
                data-testid="order-row"
              >
                <td className="px-4 py-3">
                  <img
                    src={order.orderItems[0]?.image}
                    alt=""
                    width={48}
                    height={48}
                    loading="lazy"
                    className="h-12 w-12 rounded bg-gray-100 object-cover"
                  />
                </td>
                <td className="px-4 py-3 font-medium whitespace-nowrap text-gray-900">
                  <Link to={`/order/${order._id}`} className="hover:underline" onClick={(e) => e.stopPropagation()}>
                    #{order._id}
                  </Link>
                </td>
                <td className="px-4 py-3 whitespace-nowrap">{formatDateTime(order.createdAt)}</td>
                <td className="px-4 py-3">
                  {[order.shippingAddress?.city, order.shippingAddress?.country].filter(Boolean).join(', ') || 'N/A'}
                </td>
                <td className="px-4 py-3">{order.orderItems.reduce((n, item) => n + item.quantity, 0)}</td>
                <td className="px-4 py-3 whitespace-nowrap">
                  <Price value={order.totalPrice} />
                </td>
                <td className="px-4 py-3">
                  <span
                    className={`rounded-full px-2 py-1 text-xs font-semibold ${order.isPaid ? 'bg-green-100 text-green-800' : 'bg-red-100 text-red-800'}`}
                  >
                    {order.isPaid ? 'Paid' : 'Pending'}
                  </span>
                </td>
                <td className="px-4 py-3">
                  <OrderStatusCell order={order} />
                </td>
              </tr>
            ))
          )}
        </tbody>
      </table>
    </div>
  );
}
