import { lazy, Suspense, useEffect, useRef, useState, type FormEvent } from 'react';
import { Link, Navigate, useNavigate } from 'react-router-dom';
import { SHIPPING_ADDRESS_FIELDS, SHIPPING_ADDRESS_LABELS, type ShippingAddress } from '@shop/contracts';
import { useAppDispatch, useAppSelector } from '@/app/hooks';
import { Price } from '@/components/Price';
import { fetchCart } from '@/features/cart/cartSlice';
import { hasShortfall, LineStockWarning } from '@/features/cart/lineStock';
import {
  createCheckout,
  fetchShopConfig,
  finalizeCheckout,
  payCheckout,
  resetCheckout,
  selectCheckout,
} from '@/features/checkout/checkoutSlice';
import { DiscountCodeField } from '@/features/checkout/DiscountCodeField';
import { isDiscountRefusal, type AppliedCode } from '@/features/checkout/discount';
import { PAYMENT_FAILED, payWithFakePayPal } from '@/features/checkout/pay';
import { usePageMeta } from '@/lib/usePageMeta';

const PayPalPayment = lazy(() => import('@/features/checkout/PayPalPayment'));

const EMPTY_ADDRESS = Object.fromEntries(SHIPPING_ADDRESS_FIELDS.map((f) => [f, ''])) as ShippingAddress;
const AUTOCOMPLETE: Record<keyof ShippingAddress, string> = {
  firstName: 'given-name',
  lastName: 'family-name',
  address: 'street-address',
  city: 'address-level2',
  postalCode: 'postal-code',
  country: 'country-name',
  phone: 'tel',
};

/**
 * The address form creates the checkout; then the payment for the server's total; then the order
 * (docs/product.md#a-purchase).
 */
export default function CheckoutPage() {
  usePageMeta('Checkout');
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const user = useAppSelector((s) => s.auth.user);
  const guestId = useAppSelector((s) => s.auth.guestId);
  const cart = useAppSelector((s) => s.cart.cart);
  const { checkout, config, creating, error } = useAppSelector(selectCheckout);
  const [address, setAddress] = useState<ShippingAddress>(EMPTY_ADDRESS);
  const [paying, setPaying] = useState(false);
  const [payError, setPayError] = useState<string | null>(null);
  const [discount, setDiscount] = useState<AppliedCode | null>(null);

  useEffect(() => {
    dispatch(resetCheckout());
    void dispatch(fetchShopConfig());
  }, [dispatch]);

  // the cart as the server has it now, with each line's stock: a line that sold out since it was added is fixed
  // here, before the checkout holds stock for it. Until it answers, the cart this browser remembers may be empty
  // or stale (the lines were added on another device): that is no reason yet to leave the checkout.
  const userId = user?._id;
  const [serverCartRead, setServerCartRead] = useState(!userId);
  const refreshCart = () => void dispatch(fetchCart({ userId, guestId }));
  useEffect(() => {
    if (!userId) return;
    let current = true;
    void dispatch(fetchCart({ userId, guestId })).finally(() => current && setServerCartRead(true));
    return () => {
      current = false;
    };
  }, [dispatch, userId, guestId]);

  // Continue to Payment replaces the button that had focus with the payment step: focus goes there, not to the
  // document, so the next Tab reaches the payment button and a screen reader hears the step
  const paymentStep = useRef<HTMLDivElement>(null);
  const checkoutId = checkout?._id;
  useEffect(() => {
    if (checkoutId) paymentStep.current?.focus();
  }, [checkoutId]);

  // lines over their stock must be lowered or removed before the checkout is made
  const unresolved = !checkout && hasShortfall(cart.products);
  // the checkout refused the applied code (e.g. used up since it was applied): shown under the code, which the
  // shopper can remove to pay without it
  const discountRefusal = discount && isDiscountRefusal(error) ? error : null;
  const changeDiscount = (applied: AppliedCode | null) => {
    setDiscount(applied);
    if (discountRefusal) dispatch(resetCheckout());
  };

  // an empty cart goes back to / (not while the paid checkout becomes an order), once the server said so
  if (!cart.products.length && !checkout && !paying) {
    if (!serverCartRead) {
      return (
        <p role="status" className="mx-auto max-w-7xl px-4 py-10 text-gray-600">
          Loading your cart...
        </p>
      );
    }
    return <Navigate to="/" replace />;
  }

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (unresolved) return;
    const made = await dispatch(
      createCheckout({
        checkoutItems: cart.products,
        shippingAddress: address,
        paymentMethod: 'Paypal',
        // the total the shopper was shown; the server prices the order again and charges its own
        totalPrice: discount?.quote.totalPrice ?? cart.totalPrice,
        ...(discount ? { discountCode: discount.code } : {}),
      }),
    );
    // refused (e.g. "Only 2 left in stock"): the lines show what is left now, with the way to fix them
    if (createCheckout.rejected.match(made)) refreshCart();
  };

  const paid = async (paymentDetails: { id: string } & Record<string, unknown>) => {
    if (!checkout) return;
    const pay = await dispatch(payCheckout({ id: checkout._id, paymentDetails }));
    if (payCheckout.rejected.match(pay)) {
      console.error('payment not accepted', pay.payload);
      setPayError(pay.payload ?? PAYMENT_FAILED);
      setPaying(false);
      return;
    }
    const order = await dispatch(finalizeCheckout(checkout._id));
    if (finalizeCheckout.rejected.match(order)) {
      console.error('finalize failed', order.payload);
      setPayError(order.payload ?? 'Your payment was taken but the order is not placed yet. Please try again.');
      setPaying(false);
      return;
    }
    navigate('/order-confirmation');
  };

  const failed = (reason: unknown) => {
    console.error('PayPal payment failed', reason);
    setPayError(PAYMENT_FAILED);
    setPaying(false);
  };

  const payFake = async () => {
    if (!checkout || !config) return;
    setPaying(true);
    setPayError(null);
    let details: { id: string } & Record<string, unknown>;
    try {
      details = await payWithFakePayPal(config, checkout._id, checkout.totalPrice);
    } catch (reason) {
      failed(reason);
      return;
    }
    await paid(details);
  };

  const lines = checkout?.checkoutItems ?? cart.products;
  // once the checkout is made, its figures are the server's; before, the quote's with a code applied
  const priced = checkout ?? discount?.quote;
  const total = priced?.totalPrice ?? cart.totalPrice;
  const subtotal = priced ? (priced.subtotal ?? priced.totalPrice) : cart.totalPrice;
  const applied = priced?.discount;

  return (
    <div className="mx-auto grid max-w-7xl gap-10 px-4 py-10 lg:grid-cols-2">
      <section className="rounded-lg border border-gray-200 p-6" aria-labelledby="checkout-title">
        <h1 id="checkout-title" className="mb-6 text-2xl font-bold uppercase">
          Checkout
        </h1>
        {!user ? (
          <p className="rounded bg-amber-50 p-4">
            Please{' '}
            <Link to="/login?redirect=checkout" className="font-semibold underline">
              log in
            </Link>{' '}
            to check out.
          </p>
        ) : (
          <form onSubmit={submit}>
            <h2 className="mb-4 text-lg font-semibold">Contact Details</h2>
            <div className="mb-6">
              <label htmlFor="checkout-email" className="mb-1 block text-sm font-semibold">
                Email
              </label>
              <input
                id="checkout-email"
                type="email"
                value={user.email}
                readOnly
                className="w-full rounded border border-gray-300 bg-gray-100 p-2 text-gray-700"
              />
            </div>
            <h2 className="mb-4 text-lg font-semibold">Delivery</h2>
            <fieldset disabled={!!checkout || creating} className="grid gap-4 sm:grid-cols-2">
              <legend className="sr-only">Delivery address</legend>
              {SHIPPING_ADDRESS_FIELDS.map((field) => (
                <div key={field} className={field === 'address' || field === 'phone' ? 'sm:col-span-2' : ''}>
                  <label htmlFor={`checkout-${field}`} className="mb-1 block text-sm font-semibold">
                    {SHIPPING_ADDRESS_LABELS[field]}
                  </label>
                  <input
                    id={`checkout-${field}`}
                    name={field}
                    type={field === 'phone' ? 'tel' : 'text'}
                    required
                    maxLength={200}
                    autoComplete={AUTOCOMPLETE[field]}
                    value={address[field]}
                    onChange={(e) => setAddress((a) => ({ ...a, [field]: e.target.value }))}
                    className="w-full rounded border border-gray-400 p-2 disabled:bg-gray-100"
                  />
                </div>
              ))}
            </fieldset>
            {error && !discountRefusal && (
              <p role="alert" className="mt-4 rounded border border-red-200 bg-red-50 p-3 text-sm text-red-800">
                {error}
              </p>
            )}
            {unresolved && (
              <p
                id="checkout-stock"
                role="alert"
                className="mt-4 rounded border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900"
              >
                Some items in your order summary have less stock than you asked for. Lower or remove them to continue.
              </p>
            )}
            {!checkout ? (
              <button
                type="submit"
                disabled={creating || unresolved}
                aria-describedby={unresolved ? 'checkout-stock' : undefined}
                className="mt-6 w-full rounded-lg bg-black py-3 font-semibold text-white hover:bg-gray-800 disabled:opacity-60"
              >
                {creating ? 'Saving...' : 'Continue to Payment'}
              </button>
            ) : (
              <div className="mt-8" data-testid="payment-step" ref={paymentStep} tabIndex={-1}>
                <h2 className="mb-2 text-lg font-semibold">Pay with PayPal</h2>
                {checkout.priceAdjusted && (
                  <p className="mb-3 rounded bg-amber-50 p-3 text-sm">
                    Prices changed since you added these items: the total below is today&apos;s.
                  </p>
                )}
                <p className="mb-4">
                  Total to pay: <Price value={checkout.totalPrice} className="font-semibold" />
                  {checkout.discount && (
                    <span className="block text-sm text-gray-700" data-testid="payment-discount">
                      Includes discount code {checkout.discount.code}: −<Price value={checkout.discount.amount} />
                    </span>
                  )}
                </p>
                {payError && (
                  <p role="alert" className="mb-4 rounded border border-red-200 bg-red-50 p-3 text-sm text-red-800">
                    {payError}
                  </p>
                )}
                {!config ? (
                  <p className="text-gray-600">Loading payment options...</p>
                ) : config.paypal.mode === 'fake' ? (
                  <div className="rounded-lg border-2 border-dashed border-amber-400 bg-amber-50 p-4">
                    <p className="mb-3 text-sm text-amber-900">
                      <strong>Test mode:</strong> no real money moves. This button pays through the shop&apos;s test
                      PayPal.
                    </p>
                    <button
                      type="button"
                      onClick={payFake}
                      disabled={paying}
                      className="w-full rounded-lg bg-[#ffc439] py-3 font-semibold text-black hover:bg-[#f2b52e] disabled:opacity-60"
                    >
                      {paying ? 'Paying...' : 'Pay with test PayPal'}
                    </button>
                  </div>
                ) : (
                  <Suspense fallback={<p className="text-gray-600">Loading PayPal...</p>}>
                    <PayPalPayment
                      clientId={config.paypal.clientId}
                      checkoutId={checkout._id}
                      total={checkout.totalPrice}
                      onPaid={(details) => {
                        setPaying(true);
                        void paid(details);
                      }}
                      onFailed={failed}
                    />
                  </Suspense>
                )}
              </div>
            )}
          </form>
        )}
      </section>

      <section className="h-fit rounded-lg bg-gray-50 p-6" aria-labelledby="summary-title">
        <h2 id="summary-title" className="mb-4 text-lg font-semibold">
          Order Summary
        </h2>
        <ul className="mb-4 divide-y divide-gray-200 border-y border-gray-200">
          {lines.map((line) => (
            <li key={`${line.productId}|${line.size}|${line.color}`} className="flex gap-4 py-4">
              <img
                src={line.image}
                alt={line.name}
                width={64}
                height={80}
                className="h-20 w-16 rounded bg-white object-cover"
              />
              <div className="flex-1">
                <h3 className="text-sm font-medium">{line.name}</h3>
                <p className="text-sm text-gray-600">
                  {[line.size && `Size: ${line.size}`, line.color && `Color: ${line.color}`, `Qty: ${line.quantity}`]
                    .filter(Boolean)
                    .join(' | ')}
                </p>
                {!checkout && <LineStockWarning line={line} />}
              </div>
              <Price value={line.price * line.quantity} className="text-sm font-semibold" />
            </li>
          ))}
        </ul>
        {user && !checkout && (
          <DiscountCodeField
            lines={cart.products}
            applied={discount}
            onChange={changeDiscount}
            refusal={discountRefusal}
            disabled={creating}
          />
        )}
        <dl className="space-y-2">
          <div className="flex justify-between">
            <dt>Subtotal</dt>
            <dd>
              <Price value={subtotal} />
            </dd>
          </div>
          {applied && (
            <div className="flex justify-between text-emerald-800" data-testid="discount-line">
              <dt>Discount ({applied.code})</dt>
              <dd>
                −<Price value={applied.amount} />
              </dd>
            </div>
          )}
          <div className="flex justify-between">
            <dt>Shipping</dt>
            <dd>Free</dd>
          </div>
          <div className="flex justify-between border-t border-gray-300 pt-2 text-lg font-semibold">
            <dt>Total</dt>
            <dd>
              <Price value={total} />
            </dd>
          </div>
        </dl>
      </section>
    </div>
  );
}
