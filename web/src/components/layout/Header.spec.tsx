import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { fakeApi, renderWithProviders } from '@/test/utils';
import { Header } from './Header';

describe('header: the phone menu button', () => {
  it('says whether the menu it controls is open', async () => {
    fakeApi({});
    renderWithProviders(<Header />);
    const button = screen.getByRole('button', { name: 'Open menu' });
    expect(button).toHaveAttribute('aria-expanded', 'false');
    const panelId = button.getAttribute('aria-controls');
    expect(panelId).toBeTruthy();

    const user = userEvent.setup();
    await user.click(button);
    expect(button).toHaveAttribute('aria-expanded', 'true');
    expect(await screen.findByRole('dialog', { name: 'Menu' })).toHaveAttribute('id', panelId);
    expect(screen.getByRole('button', { name: 'Close menu' })).toHaveFocus();

    await user.keyboard('{Escape}');
    expect(button).toHaveAttribute('aria-expanded', 'false');
    expect(screen.queryByRole('dialog', { name: 'Menu' })).not.toBeInTheDocument();
    expect(button).toHaveFocus();
  });
});

describe('header: the cart button', () => {
  it('opens the cart drawer, whose code loads on the way (Enter from the keyboard), focus inside and back on close', async () => {
    fakeApi({ 'GET /api/cart': { body: { products: [], totalPrice: 0 } } });
    renderWithProviders(<Header />);
    const button = screen.getByRole('button', { name: 'Cart, 0 items' });
    expect(screen.queryByRole('dialog', { name: 'Your Cart' })).not.toBeInTheDocument();

    const user = userEvent.setup();
    button.focus();
    await user.keyboard('{Enter}');
    const drawer = await screen.findByRole('dialog', { name: 'Your Cart' });
    expect(drawer).toHaveTextContent('Your cart is empty.');
    expect(screen.getByRole('button', { name: 'Close your cart' })).toHaveFocus();

    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog', { name: 'Your Cart' })).not.toBeInTheDocument();
    expect(button).toHaveFocus();
  });
});
