import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { initialAuthState } from '@/features/auth/authSlice';
import { initialCartState } from '@/features/cart/cartSlice';
import LoginPage from '@/pages/LoginPage';
import { aCart, aUser, fakeApi, renderWithProviders } from '@/test/utils';
import { redirectTarget, RequireAdmin, RequireAuth } from './guards';

const location = () => screen.getByTestId('location').textContent;
const signedIn = (role: 'customer' | 'admin' = 'customer') => ({
  auth: { ...initialAuthState(), user: aUser({ role }), token: 't' },
});

describe('guards', () => {
  it('sends a guest from /profile to /login, coming back afterwards', () => {
    renderWithProviders(<RequireAuth>secret</RequireAuth>, { route: '/profile', path: '/profile' });
    expect(location()).toBe('/login?redirect=profile');
  });

  it('lets a signed-in customer see their profile', () => {
    renderWithProviders(<RequireAuth>my profile</RequireAuth>, { route: '/profile', preloadedState: signedIn() });
    expect(screen.getByText('my profile')).toBeInTheDocument();
  });

  it('sends anyone but an admin from /admin to /login', () => {
    renderWithProviders(<RequireAdmin>admin</RequireAdmin>, {
      route: '/admin',
      path: '/admin',
      preloadedState: signedIn(),
    });
    expect(location()).toBe('/login');
  });

  it('lets an admin in', () => {
    renderWithProviders(<RequireAdmin>admin area</RequireAdmin>, {
      route: '/admin',
      preloadedState: signedIn('admin'),
    });
    expect(screen.getByText('admin area')).toBeInTheDocument();
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
    expect(calls.map((c) => `${c.method} ${c.url}`)).toEqual(['POST /api/users/login', 'GET /api/cart']);
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
