import type { ReactNode } from 'react';
import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes } from 'react-router-dom';
import { initialAuthState, logout } from '@/features/auth/authSlice';
import { fetchCart, initialCartState } from '@/features/cart/cartSlice';
import AdminUsersPage from '@/pages/admin/AdminUsersPage';
import LoginPage from '@/pages/LoginPage';
import { aCart, aUser, fakeApi, renderWithProviders } from '@/test/utils';
import { redirectTarget, RequireAdmin, RequireAuth } from './guards';
import { watchSession } from './session';

const location = () => screen.getByTestId('location').textContent;
const signedIn = (role: 'customer' | 'admin' = 'customer') => ({
  auth: { ...initialAuthState(), user: aUser({ role }), token: 't' },
});

/** The admin area behind its guard, and the login page it sends people to. */
function AdminRoutes({ page = <p>admin area</p> }: { page?: ReactNode }) {
  return (
    <Routes>
      <Route path="/admin/*" element={<RequireAdmin>{page}</RequireAdmin>} />
      <Route path="/login" element={<LoginPage />} />
    </Routes>
  );
}

describe('guards', () => {
  it('sends a guest from /profile to /login, coming back afterwards', () => {
    renderWithProviders(<RequireAuth>secret</RequireAuth>, { route: '/profile', path: '/profile' });
    expect(location()).toBe('/login?redirect=profile');
  });

  it('lets a signed-in customer see their profile', () => {
    renderWithProviders(<RequireAuth>my profile</RequireAuth>, { route: '/profile', preloadedState: signedIn() });
    expect(screen.getByText('my profile')).toBeInTheDocument();
  });

  it('sends a guest from /admin to /login, coming back afterwards', () => {
    renderWithProviders(<AdminRoutes />, { route: '/admin/users' });
    expect(location()).toBe('/login?redirect=admin%2Fusers');
    expect(screen.queryByText('admin area')).not.toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('sends a signed-in customer from /admin to /login, which says why and stays (an admin may log in there)', async () => {
    const admin = aUser({ _id: '65a0000000000000000000a1', role: 'admin', email: 'admin@example.com' });
    fakeApi({
      'POST /api/users/login': { body: { user: admin, token: 'jwt-admin' } },
      'GET /api/cart': { body: aCart() },
    });
    renderWithProviders(<AdminRoutes />, { route: '/admin', preloadedState: signedIn() });
    expect(location()).toBe('/login?redirect=admin');
    expect(screen.getByRole('alert')).toHaveTextContent('Not authorized as an admin');
    expect(
      screen.getByText('You are signed in as jane@example.com. Log in with an admin account to go on.'),
    ).toBeVisible();
    expect(screen.queryByText('admin area')).not.toBeInTheDocument();

    await userEvent.type(screen.getByLabelText('Email'), 'admin@example.com');
    await userEvent.type(screen.getByLabelText('Password'), 'Admin!2345');
    await userEvent.click(screen.getByRole('button', { name: 'Sign In' }));
    expect(await screen.findByText('admin area')).toBeInTheDocument();
    expect(location()).toBe('/admin');
  });

  it('lets an admin in', () => {
    renderWithProviders(<AdminRoutes />, { route: '/admin/orders', preloadedState: signedIn('admin') });
    expect(screen.getByText('admin area')).toBeInTheDocument();
    expect(location()).toBe('/admin/orders');
  });

  it('after a logout, /admin goes to a plain /login', () => {
    const { store } = renderWithProviders(<AdminRoutes />, { route: '/admin', preloadedState: signedIn('admin') });
    act(() => {
      store.dispatch(logout());
    });
    expect(location()).toBe('/login');
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it.each([
    [401, 'Not authorized, token failed'],
    [403, 'Not authorized as an admin'],
  ])(
    "an admin the server turns away (%p) is signed out and sent to /login with the server's message",
    async (status, message) => {
      fakeApi({ 'GET /api/admin/users': { status, body: { message, statusCode: status } } });
      window.localStorage.setItem('userToken', 't'); // the client sends the stored token
      const { store } = renderWithProviders(<AdminRoutes page={<AdminUsersPage />} />, {
        route: '/admin/users',
        preloadedState: signedIn('admin'),
      });
      const stop = watchSession(store);
      try {
        await waitFor(() => expect(location()).toBe('/login?redirect=admin%2Fusers'));
        expect(screen.getByRole('alert')).toHaveTextContent(message);
        expect(store.getState().auth).toMatchObject({ user: null, token: null, signedOutReason: message });
        expect(window.localStorage.getItem('userToken')).toBeNull();
      } finally {
        stop();
      }
    },
  );

  it('a 403 outside the admin area (someone else’s cart) does not sign anyone out', async () => {
    fakeApi({
      'GET /api/cart': { status: 403, body: { message: 'Not authorized to use this cart', statusCode: 403 } },
    });
    window.localStorage.setItem('userToken', 't');
    const { store } = renderWithProviders(<p>shop</p>, { preloadedState: signedIn() });
    const stop = watchSession(store);
    try {
      await store.dispatch(fetchCart({ userId: 'someone-else' }));
      expect(store.getState().auth.user).not.toBeNull();
    } finally {
      stop();
    }
  });

  it.each([
    [null, '/'],
    ['checkout', '/checkout'],
    ['/checkout?step=2', '/checkout'],
    ['profile', '/profile'],
    ['//evil.example', '/'],
    ['https://evil.example', '/'],
    ['login', '/'],
  ])('after login, redirect=%p goes to %p', (redirect, target) => {
    expect(redirectTarget(redirect)).toBe(target);
  });
});

describe('login', () => {
  it('redirects a visitor who is already signed in at once', () => {
    renderWithProviders(<LoginPage />, {
      route: '/login?redirect=checkout',
      path: '/login',
      preloadedState: signedIn(),
    });
    expect(location()).toBe('/checkout');
  });

  it('merges a non-empty guest cart once, then goes to /checkout when the redirect says checkout', async () => {
    const user = aUser();
    const calls = fakeApi({
      'POST /api/users/login': { body: { user, token: 'jwt-1' } },
      'POST /api/cart/merge': { body: aCart([{ quantity: 2 }]) },
    });
    const { store } = renderWithProviders(<LoginPage />, {
      route: '/login?redirect=checkout',
      path: '/login',
      preloadedState: {
        auth: { ...initialAuthState(), guestId: 'guest_1700000000000' },
        cart: { ...initialCartState(), cart: aCart([{ quantity: 2 }]) },
      },
    });
    await userEvent.type(screen.getByLabelText('Email'), 'jane@example.com');
    await userEvent.type(screen.getByLabelText('Password'), 'secret-123');
    await userEvent.click(screen.getByRole('button', { name: 'Sign In' }));
    await waitFor(() => expect(location()).toBe('/checkout'));
    const merges = calls.filter((c) => c.url === '/api/cart/merge');
    expect(merges).toHaveLength(1);
    expect(merges[0].data).toEqual({ guestId: 'guest_1700000000000' });
    expect(merges[0].headers.Authorization).toBe('Bearer jwt-1');
    // the guest's wishlist joins the account's at the same moment, with the same guest id and token
    const wishlistMerges = calls.filter((c) => c.url === '/api/wishlist/merge');
    expect(wishlistMerges.map((c) => [c.data, c.headers.Authorization])).toEqual([
      [{ guestId: 'guest_1700000000000' }, 'Bearer jwt-1'],
    ]);
    expect(store.getState().auth.user).toEqual(user);
    expect(window.localStorage.getItem('userToken')).toBe('jwt-1');
  });

  it('fetches the user cart instead when the guest cart is empty, and goes to /', async () => {
    const calls = fakeApi({
      'POST /api/users/login': { body: { user: aUser(), token: 'jwt-2' } },
      'GET /api/cart': { body: aCart([{ quantity: 1 }]) },
    });
    renderWithProviders(<LoginPage />, { route: '/login', path: '/login' });
    await userEvent.type(screen.getByLabelText('Email'), 'jane@example.com');
    await userEvent.type(screen.getByLabelText('Password'), 'secret-123');
    await userEvent.click(screen.getByRole('button', { name: 'Sign In' }));
    await waitFor(() => expect(location()).toBe('/'));
    expect(calls.map((c) => `${c.method} ${c.url}`)).toEqual([
      'POST /api/users/login',
      'POST /api/wishlist/merge',
      'GET /api/cart',
    ]);
  });

  it("shows the server's message when the login fails", async () => {
    fakeApi({
      'POST /api/users/login': { status: 401, body: { message: 'Invalid email or password', statusCode: 401 } },
    });
    renderWithProviders(<LoginPage />, { route: '/login', path: '/login' });
    await userEvent.type(screen.getByLabelText('Email'), 'jane@example.com');
    await userEvent.type(screen.getByLabelText('Password'), 'wrong-password');
    await userEvent.click(screen.getByRole('button', { name: 'Sign In' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Invalid email or password');
    expect(location()).toBe('/login');
  });
});

describe('logout', () => {
  it('clears the session, empties the cart, makes a new guest id and goes to a plain /login', async () => {
    const ProfilePage = (await import('@/pages/ProfilePage')).default;
    fakeApi({ 'GET /api/orders/my-orders': { body: [] } });
    const { store } = renderWithProviders(
      <RequireAuth>
        <ProfilePage />
      </RequireAuth>,
      {
        route: '/profile',
        path: '/profile',
        preloadedState: {
          auth: { ...initialAuthState(), user: aUser(), token: 't', guestId: 'guest_1' },
          cart: { ...initialCartState(), cart: aCart([{ quantity: 1 }]) },
        },
      },
    );
    expect(await screen.findByText('You have no orders')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Logout' }));
    expect(location()).toBe('/login');
    const { auth, cart } = store.getState();
    expect(auth.user).toBeNull();
    expect(auth.token).toBeNull();
    expect(auth.guestId).toMatch(/^guest_\d{13}$/);
    expect(cart.cart.products).toEqual([]);
    expect(window.localStorage.getItem('userToken')).toBeNull();
    expect(window.localStorage.getItem('guestId')).toBe(auth.guestId);
  });
});
