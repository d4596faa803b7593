import { useEffect } from 'react';
import { Link, Navigate } from 'react-router-dom';
import { ESTIMATED_DELIVERY_DAYS } from '@shop/contracts';
import { useAppDispatch, useAppSelector } from '@/app/hooks';
import { clearCart } from '@/features/cart/cartSlice';
import { selectCheckout } from '@/features/checkout/checkoutSlice';
import { OrderLines } from '@/features/orders/OrderLines';
import { OrderTotal } from '@/features/orders/OrderTotal';
import { addDays, formatDate } from '@/lib/dates';
import { usePageMeta } from '@/lib/usePageMeta';

/**
 * Thanks, the order, estimated delivery (+10 days); clears the cart; nothing in memory → /my-orders
 * (docs/product.md#order-confirmation).
 */
export default function OrderConfirmationPage() {
  usePageMeta('Thank you for your order');
  const dispatch = useAppDispatch();
  const order = useAppSelector((s) => selectCheckout(s).order);

  useEffect(() => {
    if (order) dispatch(clearCart());
  }, [dispatch, order]);

  if (!order) return <Navigate to="/my-orders" replace />;
  const address = order.shippingAddress;

  return (
    <div className="mx-auto max-w-4xl px-4 py-10">
      <h1 className="mb-8 text-center text-3xl font-bold text-emerald-700">Thank You for Your Order!</h1>
      <div className="rounded-lg border border-gray-200 p-6">
        <div className="mb-8 flex flex-col justify-between gap-4 sm:flex-row">
          <div>
            <h2 className="text-lg font-semibold" data-testid="order-id">
              Order ID: {order._id}
            </h2>
            <p className="text-gray-600">Order date: {formatDate(order.createdAt)}</p>
          </div>
          <p className="text-sm text-emerald-700">
            Estimated delivery: {formatDate(addDays(order.createdAt, ESTIMATED_DELIVERY_DAYS))}
          </p>
        </div>
        <OrderLines lines={order.orderItems} />
        <OrderTotal order={order} />
        <div className="mt-8 grid gap-6 sm:grid-cols-2">
          <div>
            <h3 className="mb-1 font-semibold">Payment</h3>
            <p className="text-gray-600">PayPal</p>
          </div>
          <div>
            <h3 className="mb-1 font-semibold">Delivery</h3>
            <p className="text-gray-600">
              {address.firstName} {address.lastName}
              <br />
              {address.address}
              <br />
              {address.city}, {address.postalCode}, {address.country}
            </p>
          </div>
        </div>
      </div>
      <p className="mt-8 text-center">
        <Link to="/my-orders" className="font-semibold text-blue-700 underline">
          See my orders
        </Link>
      </p>
    </div>
  );
}
