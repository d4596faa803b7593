import { fireEvent, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import {
  SHIPPING_ADDRESS_FIELDS,
  SHIPPING_ADDRESS_LABELS,
  type CheckoutJson,
  type ShopConfigJson,
} from '@shop/contracts';
import { initialAuthState } from '@/features/auth/authSlice';
import { initialCartState } from '@/features/cart/cartSlice';
import { aCart, aUser, fakeApi, renderWithProviders } from '@/test/utils';
import CheckoutPage from './CheckoutPage';

const CHECKOUT_ID = '65c000000000000000000001';
const FAKE: ShopConfigJson = {
  currency: 'GBP',
  paypal: { clientId: 'test', mode: 'fake', apiBase: 'http://paypal.test' },
};
const REAL: ShopConfigJson = { currency: 'GBP', paypal: { clientId: 'sandbox-client', mode: 'paypal' } };

function aCheckout(): CheckoutJson {
  const cart = aCart([{ price: 12.5, quantity: 2 }]);
  return {
    _id: CHECKOUT_ID,
    user: aUser()._id,
    checkoutItems: cart.products,
    shippingAddress: {
      firstName: 'Jane',
      lastName: 'Fan',
      address: '1 Stadium Way',
      city: 'London',
      postalCode: 'N17 0BX',
      country: 'United Kingdom',
      phone: '+44 20 7946 0001',
    },
    paymentMethod: 'PayPal',
    totalPrice: 25,
    isPaid: false,
    paymentStatus: 'pending',
    isFinalized: false,
    reservationExpiresAt: '2025-03-01T10:15:00.000Z',
    createdAt: '2025-03-01T10:00:00.000Z',
    updatedAt: '2025-03-01T10:00:00.000Z',
  };
}

/** The checkout page of a signed-in buyer with one line in the cart, taken to its payment step. */
async function reachPayment(config: ShopConfigJson) {
  const calls = fakeApi({
    'GET /api/config': { body: config },
    'POST /api/checkout': { status: 201, body: aCheckout() },
  });
  renderWithProviders(<CheckoutPage />, {
    route: '/checkout',
    path: '/checkout',
    preloadedState: {
      auth: { ...initialAuthState(), user: aUser(), token: 't' },
      cart: { ...initialCartState(), cart: aCart([{ price: 12.5, quantity: 2 }]) },
    },
  });
  const user = userEvent.setup();
  const address = aCheckout().shippingAddress;
  for (const field of SHIPPING_ADDRESS_FIELDS)
    await user.type(screen.getByLabelText(SHIPPING_ADDRESS_LABELS[field]), address[field]);
  await user.click(screen.getByRole('button', { name: 'Continue to Payment' }));
  await screen.findByTestId('payment-step');
  return { calls, user };
}

describe('checkout: paying', () => {
  let logged: jest.SpyInstance;
  const realFetch = globalThis.fetch;
  beforeEach(() => {
    // SPEC §8: payment failures are logged for us, and the buyer is told in words
    logged = jest.spyOn(console, 'error').mockImplementation(() => undefined);
  });
  afterEach(() => {
    logged.mockRestore();
    globalThis.fetch = realFetch;
    document.head.querySelectorAll('script[src*="paypal"]').forEach((script) => script.remove());
  });

  it('says "Payment failed. Try again." when PayPal does not take the payment, and lets the buyer retry', async () => {
    // the test PayPal creates the order, then declines its capture
    const answer = (status: number, body: unknown) => ({ ok: status < 300, status, json: async () => body });
    const paypal = jest.fn(async (url: string) =>
      url.endsWith('/capture')
        ? answer(422, { message: 'INSTRUMENT_DECLINED' })
        : answer(201, { id: 'PAYPAL-ORDER-1', status: 'CREATED' }),
    );
    globalThis.fetch = paypal as unknown as typeof fetch;
    const { calls, user } = await reachPayment(FAKE);

    await user.click(await screen.findByRole('button', { name: 'Pay with test PayPal' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Payment failed. Try again.');
    process.stdout.write(String(logged.mock.calls[0]?.[1]?.stack) + '\n');
    expect(paypal.mock.calls.map(([url]) => url)).toEqual([
      'http://paypal.test/v2/checkout/orders',
      'http://paypal.test/v2/checkout/orders/PAYPAL-ORDER-1/capture',
    ]);
    // nothing was paid, so the shop was not told it was, and the buyer stays to try again
    expect(calls.filter((c) => c.method === 'PUT')).toEqual([]);
    expect(screen.getByTestId('location')).toHaveTextContent(/^\/checkout$/);
    expect(screen.getByRole('button', { name: 'Pay with test PayPal' })).toBeEnabled();
    expect(logged).toHaveBeenCalledWith('PayPal payment failed', expect.any(Error));
  });

  it('says PayPal could not be loaded, instead of an empty box, when its script fails to load', async () => {
    await reachPayment(REAL);
    const script = await waitFor(() => {
      const found = document.head.querySelector<HTMLScriptElement>('script[src*="paypal.com/sdk/js"]');
      if (!found) throw new Error('the PayPal script was not asked for');
      return found;
    });
    expect(script.src).toContain('client-id=sandbox-client');
    expect(script.src).toContain('currency=GBP');
    fireEvent.error(script); // what the browser does when an ad blocker or the network stops it

    expect(await screen.findByRole('alert')).toHaveTextContent(
      'PayPal could not be loaded. Check your connection or ad blocker, then retry.',
    );
    expect(screen.getByRole('button', { name: 'Retry' })).toBeEnabled();
    expect(screen.queryByText('Loading PayPal...')).not.toBeInTheDocument();
  });
});
