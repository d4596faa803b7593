import { screen, waitFor, within } from '@testing-library/react';
import { initialCartState } from '@/features/cart/cartSlice';
import { initialCheckoutState } from '@/features/checkout/checkoutSlice';
import { aCart, anOrder, fakeApi, renderWithProviders } from '@/test/utils';
import OrderConfirmationPage from './OrderConfirmationPage';

describe('order confirmation', () => {
  it('thanks the buyer and shows the order, its date and the estimated delivery 10 days later', () => {
    fakeApi({});
    // 25 Feb + 10 days crosses the end of February: 7 March
    const order = anOrder({
      _id: '65b0000000000000000000c1',
      createdAt: '2025-02-25T12:00:00.000Z',
      totalPrice: 99.99,
    });
    renderWithProviders(<OrderConfirmationPage />, {
      route: '/order-confirmation',
      path: '/order-confirmation',
      preloadedState: { checkout: { ...initialCheckoutState(), order } },
    });
    expect(screen.getByRole('heading', { name: 'Thank You for Your Order!' })).toBeInTheDocument();
    expect(screen.getByTestId('order-id')).toHaveTextContent('Order ID: 65b0000000000000000000c1');
    expect(screen.getByText('Order date: 25 Feb 2025')).toBeInTheDocument();
    expect(screen.getByText('Estimated delivery: 7 Mar 2025')).toBeInTheDocument();
    // the items: one card per line on phones, the table on wider screens
    expect(screen.getAllByText("Green Bay Packers Men's Home Game Jersey").length).toBeGreaterThan(0);
    expect(screen.getAllByText('Size: M | Color: Green').length).toBeGreaterThan(0);
    expect(screen.getAllByTestId('line-sku').map((sku) => sku.textContent)).toEqual([
      'SKU: GB-JSY-HOME-M-M-GREEN',
      'SKU: GB-JSY-HOME-M-M-GREEN',
    ]);
    expect(screen.getByText(/1 Stadium Way/)).toBeInTheDocument();
    expect(screen.getByText(/London, N17 0BX, United Kingdom/)).toBeInTheDocument();
  });

  it('shows the subtotal and the discount line when the order was placed with a code', () => {
    fakeApi({});
    const order = anOrder({ subtotal: 99.99, discount: { code: 'WELCOME-7KQ2M9', amount: 10 }, totalPrice: 89.99 });
    renderWithProviders(<OrderConfirmationPage />, {
      route: '/order-confirmation',
      path: '/order-confirmation',
      preloadedState: { checkout: { ...initialCheckoutState(), order } },
    });
    const totals = screen.getByTestId('order-total');
    expect(within(totals).getByText('Subtotal').nextElementSibling).toHaveTextContent('£99.99');
    expect(within(totals).getByTestId('order-discount')).toHaveTextContent('Discount (WELCOME-7KQ2M9)−£10.00');
    expect(within(totals).getByText('Total').nextElementSibling).toHaveTextContent('£89.99');
  });

  it('shows only the total when the order has no discount', () => {
    fakeApi({});
    renderWithProviders(<OrderConfirmationPage />, {
      route: '/order-confirmation',
      path: '/order-confirmation',
      preloadedState: { checkout: { ...initialCheckoutState(), order: anOrder({ totalPrice: 99.99 }) } },
    });
    expect(screen.getByText('Total:')).toHaveTextContent('Total: £99.99');
    expect(screen.queryByTestId('order-discount')).not.toBeInTheDocument();
  });

  it('empties the cart, which the order now holds', async () => {
    fakeApi({});
    const { store } = renderWithProviders(<OrderConfirmationPage />, {
      route: '/order-confirmation',
      path: '/order-confirmation',
      preloadedState: {
        checkout: { ...initialCheckoutState(), order: anOrder() },
        cart: { ...initialCartState(), cart: aCart([{ quantity: 2 }]) },
      },
    });
    await waitFor(() => expect(store.getState().cart.cart.products).toEqual([]));
  });

  it('sends a visitor with no checkout just completed to My Orders', () => {
    fakeApi({});
    const { store } = renderWithProviders(<OrderConfirmationPage />, {
      route: '/order-confirmation',
      path: '/order-confirmation',
      preloadedState: { cart: { ...initialCartState(), cart: aCart([{ quantity: 1 }]) } },
    });
    expect(screen.getByTestId('location')).toHaveTextContent(/^\/my-orders$/);
    expect(screen.queryByText('Thank You for Your Order!')).not.toBeInTheDocument();
    expect(store.getState().cart.cart.products).toHaveLength(1);
  });
});
