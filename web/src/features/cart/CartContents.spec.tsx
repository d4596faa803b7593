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

  it("shows the server's message when a change fails, else the default one", async () => {
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

describe('cart lines over their stock', () => {
  it('says "Only N left in stock" and lowers the line to N with the cart update', async () => {
    const before = aCart([
      { name: 'Ravens Hoodie', quantity: 1 },
      { name: 'Packers Cap', quantity: 3, countInStock: 1 },
    ]);
    const after = aCart([
      { name: 'Ravens Hoodie', quantity: 1 },
      { name: 'Packers Cap', quantity: 1, countInStock: 1 },
    ]);
    const calls = fakeApi({ 'PUT /api/cart': { body: after } });
    setup(before);
    const warning = screen.getByTestId('line-stock-warning');
    expect(warning).toHaveTextContent('Only 1 left in stock');
    expect(screen.getAllByTestId('line-stock-warning')).toHaveLength(1);
    expect(screen.getByRole('button', { name: 'Increase quantity of Packers Cap' })).toBeDisabled();

    await userEvent.click(screen.getByRole('button', { name: 'Lower Packers Cap to 1' }));
    expect(calls).toHaveLength(1);
    expect(calls[0]).toMatchObject({
      method: 'PUT',
      url: '/api/cart',
      data: { productId: before.products[1].productId, size: 'M', color: 'Red', quantity: 1 },
    });
    await waitFor(() => expect(screen.queryByTestId('line-stock-warning')).not.toBeInTheDocument());
    expect(screen.getAllByLabelText('Quantity 1')).toHaveLength(2);
  });

  it('says "This item is out of stock" and removes the line at 0', async () => {
    const calls = fakeApi({ 'DELETE /api/cart': { body: aCart([{ name: 'Ravens Hoodie', quantity: 1 }]) } });
    setup(
      aCart([
        { name: 'Ravens Hoodie', quantity: 1 },
        { name: 'Packers Cap', quantity: 2, countInStock: 0 },
      ]),
    );
    expect(screen.getByTestId('line-stock-warning')).toHaveTextContent('This item is out of stock');
    await userEvent.click(screen.getByRole('button', { name: 'Remove Packers Cap, out of stock' }));
    await waitFor(() => expect(screen.queryByText('Packers Cap')).not.toBeInTheDocument());
    expect(calls[0]).toMatchObject({ method: 'DELETE', data: { size: 'M', color: 'Red' } });
  });

  it('says nothing for a line within its stock, or whose stock the cart does not know', () => {
    setup(
      aCart([
        { name: 'Ravens Hoodie', quantity: 2, countInStock: 2 },
        { name: 'Packers Cap', quantity: 3, countInStock: undefined },
      ]),
    );
    expect(screen.queryByTestId('line-stock-warning')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Increase quantity of Ravens Hoodie' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Increase quantity of Packers Cap' })).toBeEnabled();
  });
});
