import { screen, waitFor, within } from '@testing-library/react';
import { initialAuthState } from '@/features/auth/authSlice';
import { formatDate } from '@/lib/dates';
import { aUser, anOrder, fakeApi, renderWithProviders } from '@/test/utils';
import MyOrdersPage from './MyOrdersPage';

const signedIn = { auth: { ...initialAuthState(), user: aUser(), token: 't' } };
const open = () => renderWithProviders(<MyOrdersPage />, { route: '/my-orders', preloadedState: signedIn });

describe('my orders', () => {
  it("shows each order's status and the day it took it, beside Paid", async () => {
    const shippedAt = '2025-03-04T15:30:00.000Z';
    const shipped = anOrder({
      _id: '65b000000000000000000002',
      status: 'Shipped',
      statusHistory: [
        { status: 'Processing', at: '2025-03-01T10:00:00.000Z' },
        { status: 'Shipped', at: shippedAt },
      ],
    });
    fakeApi({ 'GET /api/orders/my-orders': { body: [shipped, anOrder()] } });
    open();

    const [header, ...rows] = await screen.findAllByRole('row');
    expect(within(header).getByRole('columnheader', { name: 'Payment' })).toBeInTheDocument();
    expect(within(header).getByRole('columnheader', { name: 'Status' })).toBeInTheDocument();
    const statusColumn = within(header).getAllByRole('columnheader').length - 1;
    const statusOf = (row: HTMLElement) => within(row).getAllByRole('cell')[statusColumn];

    expect(rows).toHaveLength(2);
    expect(rows[0]).toHaveTextContent('Paid');
    expect(statusOf(rows[0])).toHaveTextContent(`Shipped ${formatDate(shippedAt)}`);
    expect(statusOf(rows[0]).querySelector('time')).toHaveAttribute('datetime', shippedAt);
    expect(statusOf(rows[1])).toHaveTextContent(`Processing ${formatDate('2025-03-01T10:00:00.000Z')}`);
  });

  it('shows Pending for an unpaid order and Cancelled for a cancelled one', async () => {
    const cancelled = anOrder({
      isPaid: false,
      status: 'Cancelled',
      statusHistory: [
        { status: 'Processing', at: '2025-03-01T10:00:00.000Z' },
        { status: 'Cancelled', at: '2025-03-02T09:00:00.000Z' },
      ],
    });
    fakeApi({ 'GET /api/orders/my-orders': { body: [cancelled] } });
    open();
    const row = await screen.findByTestId('order-row');
    expect(within(row).getByText('Pending')).toBeInTheDocument();
    expect(within(row).getByText('Cancelled')).toBeInTheDocument();
  });

  it('says "You have no orders" when there are none, and shows a failure', async () => {
    fakeApi({ 'GET /api/orders/my-orders': { body: [] } });
    const { unmount } = open();
    expect(await screen.findByText('You have no orders')).toBeInTheDocument();
    unmount();

    fakeApi({
      'GET /api/orders/my-orders': { status: 503, body: { message: 'Orders are unavailable', statusCode: 503 } },
    });
    open();
    expect(await screen.findByText('Error: Orders are unavailable')).toBeInTheDocument();
  });

  it('sends a shopper the server does not know to /login, and back here afterwards (not "Not authorized")', async () => {
    fakeApi({
      'GET /api/orders/my-orders': { status: 401, body: { message: 'Not authorized, no token', statusCode: 401 } },
    });
    renderWithProviders(<MyOrdersPage />, { route: '/my-orders' });
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/login?redirect=my-orders'));
    expect(screen.queryByText(/Not authorized/)).not.toBeInTheDocument();
  });
});
