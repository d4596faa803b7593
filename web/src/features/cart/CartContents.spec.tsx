import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { initialAuthState } from '@/features/auth/authSlice';
import { aCart, fakeApi, renderWithProviders } from '@/test/utils';
import { CartContents } from './CartContents';
import { initialCartState } from './cartSlice';

function setup(
  cart = aCart([
    { name: 'Ravens Hoodie', quantity: 1 },
    { name: 'Packers Cap', quantity: 3 },
  ]),
) {
  return renderWithProviders(<CartContents />, {
    preloadedState: {
      auth: { ...initialAuthState(), guestId: 'guest_1700000000000' },
      cart: { ...initialCartState(), cart },
    },
  });
}

describe('cart quantity rules', () => {
  it('ignores a change below 1 (removal needs the remove icon)', async () => {
    const calls = fakeApi({});
    setup();
    const decrease = screen.getByRole('button', { name: 'Decrease quantity of Ravens Hoodie' });
    expect(decrease).toBeDisabled();
    await userEvent.click(decrease);
    expect(calls).toHaveLength(0);
  });

  it('sends the new quantity of the line and shows the cart the server returns', async () => {
    const after = aCart([
      { name: 'Ravens Hoodie', quantity: 1 },
      { name: 'Packers Cap', quantity: 2 },
    ]);
    const calls = fakeApi({ 'PUT /api/cart': { body: after } });
    setup();
    await userEvent.click(screen.getByRole('button', { name: 'Decrease quantity of Packers Cap' }));
    expect(calls[0]).toMatchObject({
      method: 'PUT',
      data: {
        productId: after.products[1].productId,
        size: 'M',
        color: 'Red',
        quantity: 2,
        guestId: 'guest_1700000000000',
      },
    });
    expect(await screen.findByLabelText('Quantity 2')).toBeInTheDocument();
  });

  it('removes a line with the remove icon', async () => {
    const calls = fakeApi({ 'DELETE /api/cart': { body: aCart([{ name: 'Packers Cap', quantity: 3 }]) } });
    setup();
    await userEvent.click(screen.getByRole('button', { name: 'Remove Ravens Hoodie from cart' }));
    await waitFor(() => expect(screen.queryByText('Ravens Hoodie')).not.toBeInTheDocument());
    expect(calls[0].method).toBe('DELETE');
  });

  it("shows the server's message when a change fails, else SPEC §8's default", async () => {
    fakeApi({ 'PUT /api/cart': { status: 409, body: { message: 'Only 3 left in stock', statusCode: 409 } } });
    setup();
    await userEvent.click(screen.getByRole('button', { name: 'Increase quantity of Packers Cap' }));
    expect(await screen.findByText('Only 3 left in stock')).toBeInTheDocument();

    fakeApi({ 'DELETE /api/cart': { status: 500, body: 'oops' } });
    await userEvent.click(screen.getByRole('button', { name: 'Remove Packers Cap from cart' }));
    expect(await screen.findByText('Failed to remove item')).toBeInTheDocument();
  });

  it('says so when the cart is empty', () => {
    setup(aCart([]));
    expect(screen.getByText('Your cart is empty.')).toBeInTheDocument();
  });
});
