import type { OrderJson } from '@shop/contracts';
import { Price } from '@/components/Price';

/**
 * An order's total; with a discount code (issue 24), the subtotal and the discount line above it. Orders without
 * one show only the total, as before.
 */
export function OrderTotal({ order }: { order: Pick<OrderJson, 'subtotal' | 'discount' | 'totalPrice'> }) {
  const { discount } = order;
  if (!discount)
    return (
      <p className="mt-4 text-right text-lg font-semibold">
        Total: <Price value={order.totalPrice} />
      </p>
    );
  // orders carry their subtotal since discount codes; worked out for one that would not
  const subtotal = order.subtotal ?? Math.round((order.totalPrice + discount.amount) * 100) / 100;
  return (
    <dl className="mt-4 ml-auto w-full max-w-xs space-y-1" data-testid="order-total">
      <div className="flex justify-between gap-4">
        <dt>Subtotal</dt>
        <dd>
          <Price value={subtotal} />
        </dd>
      </div>
      <div className="flex justify-between gap-4 text-emerald-800" data-testid="order-discount">
        <dt>Discount ({discount.code})</dt>
        <dd>
          −<Price value={discount.amount} />
        </dd>
      </div>
      <div className="flex justify-between gap-4 border-t border-gray-300 pt-1 text-lg font-semibold">
        <dt>Total</dt>
        <dd>
          <Price value={order.totalPrice} />
        </dd>
      </div>
    </dl>
  );
}
