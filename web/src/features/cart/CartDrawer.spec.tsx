import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { initialAuthState } from '@/features/auth/authSlice';
import { aCart, fakeApi, renderWithProviders } from '@/test/utils';
import { CartDrawer } from './CartDrawer';
import { initialCartState } from './cartSlice';

describe('cart drawer: stock that fell after the add', () => {
  it('reads the cart again when opened, says which line is short and lowers it through the cart update', async () => {
    const added = aCart([{ name: 'Packers Cap', quantity: 3 }]);
    const now = aCart([{ name: 'Packers Cap', quantity: 3, countInStock: 2 }]);
    const lowered = aCart([{ name: 'Packers Cap', quantity: 2, countInStock: 2 }]);
    const calls = fakeApi({ 'GET /api/cart': { body: now }, 'PUT /api/cart': { body: lowered } });
    renderWithProviders(<CartDrawer open onClose={() => undefined} />, {
      preloadedState: {
        auth: { ...initialAuthState(), guestId: 'guest_1700000000000' },
        cart: { ...initialCartState(), cart: added },
      },
    });
    expect(await screen.findByTestId('line-stock-warning')).toHaveTextContent('Only 2 left in stock');
    expect(calls[0]).toMatchObject({ method: 'GET', url: '/api/cart', params: { guestId: 'guest_1700000000000' } });
    expect(screen.getByText(/less stock than you asked for/)).toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'Lower Packers Cap to 2' }));
    await waitFor(() => expect(screen.queryByTestId('line-stock-warning')).not.toBeInTheDocument());
    expect(calls.find((c) => c.method === 'PUT')?.data).toMatchObject({ quantity: 2, guestId: 'guest_1700000000000' });
    expect(screen.queryByText(/less stock than you asked for/)).not.toBeInTheDocument();
  });
});
