import { screen, within } from '@testing-library/react';
import { initialAuthState } from '@/features/auth/authSlice';
import { aUser, anOrder, fakeApi, renderWithProviders } from '@/test/utils';
import OrderDetailsPage from './OrderDetailsPage';

const ORDER_ID = '65b000000000000000000001';
const signedIn = { auth: { ...initialAuthState(), user: aUser(), token: 't' } };
const open = (id = ORDER_ID) =>
  renderWithProviders(<OrderDetailsPage />, { route: `/order/${id}`, path: '/order/:id', preloadedState: signedIn });

describe('order details', () => {
  it('shows a paid order as Approved and, until it is delivered, Pending', async () => {
    fakeApi({ [`GET /api/orders/${ORDER_ID}`]: { body: anOrder({ isPaid: true, isDelivered: false }) } });
    open();
    expect(await screen.findByText(`Order ID: #${ORDER_ID}`)).toBeInTheDocument();
    expect(screen.getByText('Approved')).toBeInTheDocument();
    expect(screen.getByText('Pending')).toBeInTheDocument();
    expect(screen.getByText('Payment Method: PayPal')).toBeInTheDocument();
    expect(screen.getByText('Address: 1 Stadium Way, London, United Kingdom')).toBeInTheDocument();
  });

  it("shows each line's size, colour and variant SKU, and a line from before variants without one", async () => {
    const order = anOrder();
    const older = { ...order.orderItems[0], productId: '65a000000000000000000002', name: 'Old Cap', sku: undefined };
    fakeApi({ [`GET /api/orders/${ORDER_ID}`]: { body: anOrder({ orderItems: [...order.orderItems, older] }) } });
    open();
    await screen.findByText(`Order ID: #${ORDER_ID}`);
    const table = screen.getByRole('table');
    const [jersey, cap] = within(table).getAllByRole('row').slice(1);
    expect(jersey).toHaveTextContent('Size: M | Color: Green');
    expect(jersey).toHaveTextContent('SKU: GB-JSY-HOME-M-M-GREEN');
    expect(cap).toHaveTextContent('Size: M | Color: Green');
    expect(cap).not.toHaveTextContent('SKU');
  });

  it('says "No Order details found" for an order that does not exist (or is not yours)', async () => {
    const missing = '65b0000000000000000000ff';
    fakeApi({ [`GET /api/orders/${missing}`]: { status: 404, body: { message: 'Order not found', statusCode: 404 } } });
    open(missing);
    expect(await screen.findByText('No Order details found')).toBeInTheDocument();
    expect(screen.queryByText('Approved')).not.toBeInTheDocument();
  });

  it("shows the server's message when the order cannot be loaded for another reason", async () => {
    fakeApi({
      [`GET /api/orders/${ORDER_ID}`]: { status: 503, body: { message: 'Orders are unavailable', statusCode: 503 } },
    });
    open();
    expect(await screen.findByText('Error: Orders are unavailable')).toBeInTheDocument();
  });
});
