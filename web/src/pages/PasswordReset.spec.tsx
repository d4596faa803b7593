import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes } from 'react-router-dom';
import { PASSWORD_RESET_MESSAGES } from '@shop/contracts';
import { initialAuthState } from '@/features/auth/authSlice';
import { initialCartState } from '@/features/cart/cartSlice';
import { aCart, aUser, fakeApi, renderWithProviders } from '@/test/utils';
import ForgotPasswordPage from './ForgotPasswordPage';
import LoginPage from './LoginPage';
import ResetPasswordPage from './ResetPasswordPage';

const location = () => screen.getByTestId('location').textContent;

/** The pages of the journey, as the router mounts them. */
function AuthRoutes() {
  return (
    <Routes>
      <Route path="/login" element={<LoginPage />} />
      <Route path="/forgot-password" element={<ForgotPasswordPage />} />
      <Route path="/reset-password" element={<ResetPasswordPage />} />
      <Route path="/" element={<p>home page</p>} />
    </Routes>
  );
}

describe('forgot password', () => {
  it('is linked from the login page', async () => {
    renderWithProviders(<AuthRoutes />, { route: '/login' });
    await userEvent.click(screen.getByRole('link', { name: 'Forgot password?' }));
    expect(location()).toBe('/forgot-password');
    expect(screen.getByRole('heading', { name: 'Forgot your password?' })).toBeInTheDocument();
  });

  it('sends the email and shows the same confirmation whatever the account, with a way back to login', async () => {
    const calls = fakeApi({
      'POST /api/users/forgot-password': { status: 202, body: { message: PASSWORD_RESET_MESSAGES.requested } },
    });
    renderWithProviders(<AuthRoutes />, { route: '/forgot-password' });
    const email = screen.getByLabelText('Email');
    expect(email).toHaveAttribute('type', 'email');
    expect(email).toBeRequired();
    await userEvent.type(email, '  fan@example.com ');
    await userEvent.click(screen.getByRole('button', { name: 'Send reset link' }));
    const sent = await screen.findByRole('status');
    expect(sent).toHaveTextContent(PASSWORD_RESET_MESSAGES.requested);
    expect(sent).toHaveFocus(); // the form (and its button) gave way to it
    expect(calls.find((c) => c.url === '/api/users/forgot-password')?.data).toEqual({ email: 'fan@example.com' });
    await userEvent.click(screen.getByRole('link', { name: 'Back to login' }));
    expect(location()).toBe('/login');
  });

  it("announces the server's refusal (too many requests) and keeps the form", async () => {
    const message = 'Too many password reset requests, please try again in 42 minutes';
    fakeApi({ 'POST /api/users/forgot-password': { status: 429, body: { statusCode: 429, message } } });
    renderWithProviders(<AuthRoutes />, { route: '/forgot-password' });
    await userEvent.type(screen.getByLabelText('Email'), 'fan@example.com');
    await userEvent.click(screen.getByRole('button', { name: 'Send reset link' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(message);
    expect(screen.getByLabelText('Email')).toHaveValue('fan@example.com');
    expect(screen.getByRole('button', { name: 'Send reset link' })).toHaveFocus();
    expect(screen.queryByRole('status')).not.toBeInTheDocument();
  });
});

describe('reset password', () => {
  const fill = async (password: string, confirm = password) => {
    await userEvent.type(screen.getByLabelText('New password'), password);
    await userEvent.type(screen.getByLabelText('Confirm new password'), confirm);
    await userEvent.click(screen.getByRole('button', { name: 'Set new password' }));
  };

  it('shows the rules and checks them, and the confirmation, before asking the server', async () => {
    const calls = fakeApi({});
    renderWithProviders(<AuthRoutes />, { route: '/reset-password?token=tok' });
    const password = screen.getByLabelText('New password');
    expect(password).toHaveAttribute('minLength', '8');
    expect(password).toHaveAccessibleDescription('At least 8 characters.');
    await fill('short');
    expect(screen.getByRole('alert')).toHaveTextContent('Password must be at least 8 characters');
    expect(password).toHaveAttribute('aria-invalid', 'true');
    await userEvent.clear(password);
    await userEvent.clear(screen.getByLabelText('Confirm new password'));
    await fill('Long-enough-1', 'Long-enough-2');
    expect(screen.getByRole('alert')).toHaveTextContent('The passwords do not match');
    expect(screen.getByLabelText('Confirm new password')).toHaveAttribute('aria-invalid', 'true');
    expect(calls).toHaveLength(0);
  });

  it('signs in as login does (guest cart merged), goes home and says so', async () => {
    const user = aUser({ email: 'fan@example.com' });
    const merged = aCart([{ price: 20, quantity: 1 }]);
    const calls = fakeApi({
      'POST /api/users/reset-password': { body: { user, token: 'jwt-new' } },
      'POST /api/cart/merge': { body: merged },
    });
    const { store } = renderWithProviders(<AuthRoutes />, {
      route: '/reset-password?token=the-token',
      preloadedState: {
        auth: { ...initialAuthState(), guestId: 'guest-1' },
        cart: { ...initialCartState(), cart: aCart([{ price: 20, quantity: 1 }]) },
      },
    });
    await fill('Brand-new-pass9');
    expect(await screen.findByText('home page')).toBeInTheDocument();
    expect(location()).toBe('/');
    expect(calls.find((c) => c.url === '/api/users/reset-password')?.data).toEqual({
      token: 'the-token',
      password: 'Brand-new-pass9',
    });
    expect(calls.find((c) => c.url === '/api/cart/merge')?.data).toEqual({ guestId: 'guest-1' });
    expect(store.getState().auth).toEqual(expect.objectContaining({ user, token: 'jwt-new', error: null }));
    expect(await screen.findByText('Your password has been changed and you are signed in')).toBeInTheDocument();
  });

  it('goes where the login page would after a reset (a redirect of this site only)', async () => {
    fakeApi({
      'POST /api/users/reset-password': { body: { user: aUser(), token: 'jwt-new' } },
      'GET /api/cart': { body: aCart() },
    });
    renderWithProviders(
      <Routes>
        <Route path="/reset-password" element={<ResetPasswordPage />} />
        <Route path="/my-orders" element={<p>my orders</p>} />
      </Routes>,
      { route: '/reset-password?token=t&redirect=my-orders' },
    );
    await fill('Brand-new-pass9');
    expect(await screen.findByText('my orders')).toBeInTheDocument();
  });

  it('shows an invalid or expired link with a way to ask for a new one', async () => {
    fakeApi({
      'POST /api/users/reset-password': {
        status: 400,
        body: { statusCode: 400, message: PASSWORD_RESET_MESSAGES.invalidToken },
      },
    });
    const { store } = renderWithProviders(<AuthRoutes />, { route: '/reset-password?token=used' });
    await fill('Brand-new-pass9');
    expect(await screen.findByRole('alert')).toHaveTextContent(PASSWORD_RESET_MESSAGES.invalidToken);
    expect(store.getState().auth.user).toBeNull();
    await userEvent.click(screen.getByRole('link', { name: 'Request a new link' }));
    expect(location()).toBe('/forgot-password');
  });

  it('says at once that a link without a token cannot work', () => {
    renderWithProviders(<AuthRoutes />, { route: '/reset-password' });
    expect(screen.getByRole('alert')).toHaveTextContent(PASSWORD_RESET_MESSAGES.invalidToken);
    expect(screen.getByRole('link', { name: 'Request a new link' })).toHaveAttribute('href', '/forgot-password');
    expect(screen.queryByLabelText('New password')).not.toBeInTheDocument();
  });

  it("shows the server's password message and keeps the form", async () => {
    const message = 'Password must be at most 128 characters';
    fakeApi({ 'POST /api/users/reset-password': { status: 400, body: { statusCode: 400, message } } });
    renderWithProviders(<AuthRoutes />, { route: '/reset-password?token=tok' });
    await fill('Brand-new-pass9');
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent(message));
    expect(screen.getByLabelText('New password')).toBeInTheDocument();
  });
});
