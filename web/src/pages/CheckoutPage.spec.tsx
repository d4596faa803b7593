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
import { aCart, aUser, fakeApi, holdApi, renderWithProviders } from '@/test/utils';
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

describe('checkout: the payment step by keyboard', () => {
  it('Continue to Payment gives focus to the payment step that replaces it; the next Tab is its pay button', async () => {
    const { user } = await reachPayment(FAKE);
    const step = screen.getByTestId('payment-step');
    await waitFor(() => expect(step).toHaveFocus());
    await user.tab();
    expect(await screen.findByRole('button', { name: 'Pay with test PayPal' })).toHaveFocus();
  });
});

describe('checkout: paying', () => {
  let logged: jest.SpyInstance;
  const realFetch = globalThis.fetch;
  beforeEach(() => {
    // payment failures are logged for us, and the buyer is told in words (docs/product.md#messages)
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
    // the PayPal order names the checkout, so PayPal's webhook can tell the server which checkout a capture paid
    const init = (paypal.mock.calls[0] as unknown as [string, RequestInit])[1];
    const created = JSON.parse(String(init.body)) as { purchase_units: Array<Record<string, unknown>> };
    const checkoutId = aCheckout()._id;
    expect(created.purchase_units[0]).toMatchObject({ custom_id: checkoutId, reference_id: checkoutId });
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

describe('checkout: discount code', () => {
  const QUOTE = { subtotal: 25, discount: { code: 'SAVE10', amount: 2.5 }, totalPrice: 22.5 };
  const discounted = (): CheckoutJson => ({ ...aCheckout(), subtotal: 25, discount: QUOTE.discount, totalPrice: 22.5 });

  function renderCheckout(routes: Parameters<typeof fakeApi>[0]) {
    const calls = fakeApi({ 'GET /api/config': { body: FAKE }, ...routes });
    renderWithProviders(<CheckoutPage />, {
      route: '/checkout',
      path: '/checkout',
      preloadedState: {
        auth: { ...initialAuthState(), user: aUser(), token: 't' },
        cart: { ...initialCartState(), cart: aCart([{ price: 12.5, quantity: 2 }]) },
      },
    });
    return { calls, user: userEvent.setup() };
  }
  const summary = () => screen.getByRole('region', { name: 'Order Summary' });
  const figure = (term: string) => within(summary()).getByText(term).nextElementSibling?.textContent;

  async function apply(user: ReturnType<typeof userEvent.setup>, code: string) {
    await user.type(screen.getByLabelText('Discount code'), code);
    await user.click(screen.getByRole('button', { name: 'Apply' }));
  }

  async function continueToPayment(user: ReturnType<typeof userEvent.setup>) {
    const address = aCheckout().shippingAddress;
    for (const field of SHIPPING_ADDRESS_FIELDS)
      await user.type(screen.getByLabelText(SHIPPING_ADDRESS_LABELS[field]), address[field]);
    await user.click(screen.getByRole('button', { name: 'Continue to Payment' }));
  }

  it('applies a code: the quote prices the cart, and the summary shows the subtotal, the discount and the total', async () => {
    const { calls, user } = renderCheckout({ 'POST /api/checkout/quote': { body: QUOTE } });
    expect(figure('Total')).toBe('£25.00');
    await user.type(screen.getByLabelText('Discount code'), 'save10');
    const release = holdApi((config) => config.url === '/api/checkout/quote');
    await user.click(screen.getByRole('button', { name: 'Apply' }));
    // busy, yet focusable: focus stays on it until the answer, then moves to the applied code
    const busy = screen.getByRole('button', { name: 'Applying...' });
    expect(busy).toHaveAttribute('aria-disabled', 'true');
    expect(busy).toHaveFocus();
    release();

    expect(await within(summary()).findByTestId('discount-line')).toHaveTextContent('Discount (SAVE10)−£2.50');
    expect(figure('Subtotal')).toBe('£25.00');
    expect(figure('Total')).toBe('£22.50');
    expect(screen.getByText(/applied/)).toHaveTextContent('Code SAVE10 applied: −£2.50');
    expect(screen.getByTestId('applied-code')).toHaveFocus();
    expect(calls.find((c) => c.url === '/api/checkout/quote')?.data).toEqual({
      checkoutItems: [{ productId: aCart([{}]).products[0].productId, quantity: 2, size: 'M', color: 'Red' }],
      discountCode: 'save10',
    });
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it("shows a refused code's message under the field, applies nothing, and the shopper can pay without it", async () => {
    const { calls, user } = renderCheckout({
      'POST /api/checkout/quote': { status: 400, body: { message: 'This discount code has expired', statusCode: 400 } },
      'POST /api/checkout': { status: 201, body: aCheckout() },
    });
    await apply(user, 'OLD2024');
    const message = await screen.findByRole('alert');
    expect(message).toHaveTextContent('This discount code has expired');
    const field = screen.getByLabelText('Discount code');
    await waitFor(() => expect(field).toHaveFocus());
    expect(field).toHaveAttribute('aria-invalid', 'true');
    expect(field).toHaveAttribute('aria-describedby', message.id);
    expect(within(summary()).queryByTestId('discount-line')).not.toBeInTheDocument();
    expect(figure('Total')).toBe('£25.00');

    await continueToPayment(user);
    expect(await screen.findByTestId('payment-step')).toHaveTextContent('Total to pay: £25.00');
    const sent = calls.find((c) => c.method === 'POST' && c.url === '/api/checkout')?.data;
    expect(sent).toMatchObject({ totalPrice: 25 });
    expect(sent).not.toHaveProperty('discountCode');
  });

  it('removes an applied code: the summary goes back to the cart total and the checkout is made without it', async () => {
    const { calls, user } = renderCheckout({
      'POST /api/checkout/quote': { body: QUOTE },
      'POST /api/checkout': { status: 201, body: aCheckout() },
    });
    await apply(user, 'SAVE10');
    await within(summary()).findByTestId('discount-line');
    await user.click(screen.getByRole('button', { name: 'Remove discount code SAVE10' }));
    expect(within(summary()).queryByTestId('discount-line')).not.toBeInTheDocument();
    expect(figure('Total')).toBe('£25.00');
    expect(screen.getByLabelText('Discount code')).toHaveValue('');

    await continueToPayment(user);
    await screen.findByTestId('payment-step');
    expect(calls.find((c) => c.method === 'POST' && c.url === '/api/checkout')?.data).not.toHaveProperty(
      'discountCode',
    );
  });

  it("sends the applied code with the checkout; the payment step shows the server's total and discount", async () => {
    const { calls, user } = renderCheckout({
      'POST /api/checkout/quote': { body: QUOTE },
      'POST /api/checkout': { status: 201, body: discounted() },
    });
    await apply(user, 'save10');
    await within(summary()).findByTestId('discount-line');
    await continueToPayment(user);

    const payment = await screen.findByTestId('payment-step');
    expect(calls.find((c) => c.method === 'POST' && c.url === '/api/checkout')?.data).toMatchObject({
      discountCode: 'SAVE10',
      totalPrice: 22.5,
    });
    expect(payment).toHaveTextContent('Total to pay: £22.50');
    expect(within(payment).getByTestId('payment-discount')).toHaveTextContent('Includes discount code SAVE10: −£2.50');
    expect(within(summary()).getByTestId('discount-line')).toHaveTextContent('Discount (SAVE10)−£2.50');
    expect(figure('Total')).toBe('£22.50');
    // the checkout holds the code now: it can no longer be changed
    expect(screen.queryByLabelText('Discount code')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Remove discount code/ })).not.toBeInTheDocument();
  });

  it('when the checkout refuses the code (used up meanwhile), shows why under it; removed, the shopper goes on', async () => {
    let checkouts = 0;
    const { calls, user } = renderCheckout({
      'POST /api/checkout/quote': { body: QUOTE },
      'POST /api/checkout': () =>
        ++checkouts === 1
          ? { status: 400, body: { message: 'This discount code has been used up', statusCode: 400 } }
          : { status: 201, body: aCheckout() },
    });
    await apply(user, 'SAVE10');
    await within(summary()).findByTestId('discount-line');
    await continueToPayment(user);

    const alerts = await screen.findAllByRole('alert');
    expect(alerts).toHaveLength(1);
    expect(within(summary()).getByRole('alert')).toHaveTextContent('This discount code has been used up');
    expect(screen.queryByTestId('payment-step')).not.toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Remove discount code SAVE10' }));
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Continue to Payment' }));
    expect(await screen.findByTestId('payment-step')).toHaveTextContent('Total to pay: £25.00');
    const sent = calls.filter((c) => c.method === 'POST' && c.url === '/api/checkout').map((c) => c.data);
    expect(sent[0]).toMatchObject({ discountCode: 'SAVE10' });
    expect(sent[1]).not.toHaveProperty('discountCode');
  });
});
