import { fireEvent, screen, waitFor, within } from '@testing-library/react';
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

describe('checkout: lines over their stock', () => {
  it('reads the cart again, will not go on to payment while a line is over its stock, and lowers it', async () => {
    const now = aCart([
      { name: 'Packers Cap', price: 12.5, quantity: 2, countInStock: 2 },
      { name: 'Ravens Hoodie', price: 40, quantity: 3, countInStock: 1 },
    ]);
    const lowered = aCart([
      { name: 'Packers Cap', price: 12.5, quantity: 2, countInStock: 2 },
      { name: 'Ravens Hoodie', price: 40, quantity: 1, countInStock: 1 },
    ]);
    const calls = fakeApi({
      'GET /api/config': { body: FAKE },
      'GET /api/cart': { body: now },
      'PUT /api/cart': { body: lowered },
    });
    renderWithProviders(<CheckoutPage />, {
      route: '/checkout',
      path: '/checkout',
      preloadedState: {
        auth: { ...initialAuthState(), user: aUser(), token: 't' },
        cart: { ...initialCartState(), cart: aCart([{ name: 'Packers Cap', price: 12.5, quantity: 2 }]) },
      },
    });
    const summary = screen.getByRole('region', { name: 'Order Summary' });
    expect(await within(summary).findByTestId('line-stock-warning')).toHaveTextContent('Only 1 left in stock');
    expect(calls.find((c) => c.method === 'GET' && c.url === '/api/cart')?.params).toMatchObject({
      userId: aUser()._id,
    });
    const proceed = screen.getByRole('button', { name: 'Continue to Payment' });
    expect(proceed).toBeDisabled();
    expect(screen.getByRole('alert')).toHaveTextContent('Lower or remove them to continue');

    await userEvent.click(within(summary).getByRole('button', { name: 'Lower Ravens Hoodie to 1' }));
    await waitFor(() => expect(proceed).toBeEnabled());
    expect(calls.find((c) => c.method === 'PUT')?.data).toMatchObject({ quantity: 1 });
    expect(within(summary).queryByTestId('line-stock-warning')).not.toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(calls.filter((c) => c.url === '/api/checkout')).toHaveLength(0);
  });

  it('when the checkout is refused for stock, shows why and reads the cart again so the line can be fixed', async () => {
    let cartReads = 0;
    const calls = fakeApi({
      'GET /api/config': { body: FAKE },
      'GET /api/cart': () =>
        ++cartReads === 1
          ? { body: aCart([{ name: 'Packers Cap', quantity: 2, countInStock: 5 }]) }
          : { body: aCart([{ name: 'Packers Cap', quantity: 2, countInStock: 1 }]) },
      'POST /api/checkout': { status: 409, body: { message: 'Only 1 left in stock for Packers Cap', statusCode: 409 } },
    });
    renderWithProviders(<CheckoutPage />, {
      route: '/checkout',
      path: '/checkout',
      preloadedState: {
        auth: { ...initialAuthState(), user: aUser(), token: 't' },
        cart: { ...initialCartState(), cart: aCart([{ name: 'Packers Cap', quantity: 2 }]) },
      },
    });
    await waitFor(() => expect(cartReads).toBe(1));
    const user = userEvent.setup();
    const address = aCheckout().shippingAddress;
    for (const field of SHIPPING_ADDRESS_FIELDS)
      await user.type(screen.getByLabelText(SHIPPING_ADDRESS_LABELS[field]), address[field]);
    await user.click(screen.getByRole('button', { name: 'Continue to Payment' }));
    expect(await screen.findByText('Only 1 left in stock for Packers Cap')).toBeInTheDocument();
    expect(await screen.findByRole('button', { name: 'Lower Packers Cap to 1' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Continue to Payment' })).toBeDisabled();
    expect(calls.filter((c) => c.url === '/api/checkout')).toHaveLength(1);
  });
});
