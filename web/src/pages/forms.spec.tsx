import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { initialAuthState } from '@/features/auth/authSlice';
import { initialCartState } from '@/features/cart/cartSlice';
import { selectCheckout } from '@/features/checkout/checkoutSlice';
import { NewsletterForm } from '@/features/newsletter/NewsletterForm';
import { RouteError } from '@/components/RouteError';
import { aCart, aUser, fakeApi, renderWithProviders } from '@/test/utils';
import CheckoutPage from './CheckoutPage';
import RegisterPage from './RegisterPage';

describe('form validation', () => {
  it('register: name, email (type email) and password (at least 8) are required; the store name shows', () => {
    renderWithProviders(<RegisterPage />, { route: '/register', path: '/register' });
    expect(screen.getByTestId('store-name')).toHaveTextContent('Gridiron Store');
    expect(screen.getByLabelText('Name')).toBeRequired();
    expect(screen.getByLabelText('Email')).toHaveAttribute('type', 'email');
    expect(screen.getByLabelText('Email')).toBeRequired();
    expect(screen.getByLabelText('Password')).toHaveAttribute('minLength', '8');
  });

  it('checkout: the seven address fields are required and the email is the account one, read-only', async () => {
    fakeApi({ 'GET /api/config': { body: { currency: 'GBP', paypal: { clientId: 'x', mode: 'fake' } } } });
    const { store } = renderWithProviders(<CheckoutPage />, {
      route: '/checkout',
      path: '/checkout',
      preloadedState: {
        auth: { ...initialAuthState(), user: aUser({ email: 'jane@example.com' }), token: 't' },
        cart: { ...initialCartState(), cart: aCart([{ price: 12.5, quantity: 2 }]) },
      },
    });
    for (const label of ['First name', 'Last name', 'Address', 'City', 'Postal code', 'Country', 'Phone'])
      expect(screen.getByLabelText(label)).toBeRequired();
    expect(screen.getByLabelText('Email')).toHaveValue('jane@example.com');
    expect(screen.getByLabelText('Email')).toHaveAttribute('readonly');
    expect(screen.getByText('Free')).toBeInTheDocument();
    expect(screen.getAllByText('£25.00').length).toBeGreaterThan(0);
    await waitFor(() => expect(selectCheckout(store.getState()).config?.paypal.mode).toBe('fake'));
  });

  it('checkout: an empty cart goes back to /, once the server says it is empty', async () => {
    fakeApi({ 'GET /api/cart': { body: aCart([]) } });
    renderWithProviders(<CheckoutPage />, {
      route: '/checkout',
      path: '/checkout',
      preloadedState: { auth: { ...initialAuthState(), user: aUser(), token: 't' } },
    });
    expect(screen.getByRole('status')).toHaveTextContent('Loading your cart...');
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/$/));
  });

  it("checkout: a signed-in shopper whose browser remembers no lines checks out the server's cart", async () => {
    fakeApi({
      'GET /api/config': { body: { currency: 'GBP', paypal: { clientId: 'x', mode: 'fake' } } },
      'GET /api/cart': { body: aCart([{ name: 'Packers Cap', price: 12.5, quantity: 2 }]) },
    });
    renderWithProviders(<CheckoutPage />, {
      route: '/checkout',
      path: '/checkout',
      preloadedState: { auth: { ...initialAuthState(), user: aUser(), token: 't' } },
    });
    expect(await screen.findByRole('button', { name: 'Continue to Payment' })).toBeEnabled();
    expect(screen.getByTestId('location')).toHaveTextContent('/checkout');
    expect(screen.getByText('Packers Cap')).toBeInTheDocument();
  });

  it("newsletter: an email-type, required field; the server's message under it, focus kept on Subscribe", async () => {
    const calls = fakeApi({
      'POST /api/subscribe': { status: 400, body: { message: 'Email is already subscribed', statusCode: 400 } },
    });
    renderWithProviders(<NewsletterForm />);
    const input = screen.getByLabelText('Email address');
    expect(input).toHaveAttribute('type', 'email');
    expect(input).toBeRequired();
    await userEvent.type(input, 'fan@example.com');
    await userEvent.click(screen.getByRole('button', { name: 'Subscribe' }));
    expect(await screen.findByRole('status')).toHaveTextContent('Email is already subscribed');
    expect(screen.getByRole('button', { name: 'Subscribe' })).toHaveFocus();
    expect(calls[0].data).toEqual({ email: 'fan@example.com' });
  });

  it('the error screen says "Unexpected Application Error!" with the status', () => {
    renderWithProviders(<RouteError status={404} statusText="Not Found" />);
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Unexpected Application Error!');
    expect(screen.getByText('404 Not Found')).toBeInTheDocument();
  });
});
