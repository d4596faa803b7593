import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { initialAuthState } from '@/features/auth/authSlice';
import { formatDateTime } from '@/lib/dates';
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

  it('shows the status history as a timeline, each change dated, the status now marked current', async () => {
    const history = [
      { status: 'Processing', at: '2025-03-01T10:00:00.000Z' },
      { status: 'Shipped', at: '2025-03-03T08:15:00.000Z' },
      { status: 'Delivered', at: '2025-03-06T17:45:00.000Z' },
    ] as const;
    const delivered = anOrder({
      status: 'Delivered',
      isDelivered: true,
      deliveredAt: history[2].at,
      statusHistory: [...history],
    });
    fakeApi({ [`GET /api/orders/${ORDER_ID}`]: { body: delivered } });
    open();
    const section = await screen.findByRole('region', { name: 'Order Status' });
    const steps = within(within(section).getByRole('list')).getAllByRole('listitem');
    expect(steps.map((step) => step.textContent)).toEqual(history.map((h) => `${h.status} ${formatDateTime(h.at)}`));
    expect(steps.map((step) => step.querySelector('time')?.getAttribute('datetime'))).toEqual(history.map((h) => h.at));
    expect(steps.map((step) => step.getAttribute('aria-current'))).toEqual([null, null, 'step']);
    // The Paid/Delivered badges stay as they were.
    expect(screen.getByText('Approved')).toBeInTheDocument();
    expect(screen.getByText('Delivered', { ignore: 'li' })).toHaveClass('rounded-full');
  });

  it('shows the refund of a cancellation, and a note (which admins read) without moving the current step', async () => {
    const history = [
      { status: 'Processing', at: '2025-03-01T10:00:00.000Z' },
      {
        status: 'Processing',
        at: '2025-03-02T09:00:00.000Z',
        by: { _id: '65a0000000000000000000a1', name: 'Ada Admin' },
        note: 'Refund refused by PayPal: Capture could not be refunded due to insufficient funds.',
      },
      {
        status: 'Cancelled',
        at: '2025-03-02T11:30:00.000Z',
        by: { _id: '65a0000000000000000000a1', name: 'Ada Admin' },
        refund: { id: 'REFUND1', amount: 99.99 },
      },
    ] as const;
    fakeApi({
      [`GET /api/orders/${ORDER_ID}`]: { body: anOrder({ status: 'Cancelled', statusHistory: [...history] }) },
    });
    open();
    const section = await screen.findByRole('region', { name: 'Order Status' });
    const steps = within(within(section).getByRole('list')).getAllByRole('listitem');
    expect(steps.map((step) => step.textContent)).toEqual([
      `Processing ${formatDateTime(history[0].at)}`,
      `${history[1].note} ${formatDateTime(history[1].at)}`,
      `Cancelled ${formatDateTime(history[2].at)}Refunded £99.99`,
    ]);
    expect(steps.map((step) => step.getAttribute('aria-current'))).toEqual([null, null, 'step']);
  });

  it('keeps the last change current when a note follows it', async () => {
    const history = [
      { status: 'Shipped', at: '2025-03-01T10:00:00.000Z' },
      { status: 'Shipped', at: '2025-03-02T09:00:00.000Z', note: 'Refund refused by PayPal: Refund not allowed.' },
    ] as const;
    fakeApi({ [`GET /api/orders/${ORDER_ID}`]: { body: anOrder({ status: 'Shipped', statusHistory: [...history] }) } });
    open();
    const section = await screen.findByRole('region', { name: 'Order Status' });
    const steps = within(within(section).getByRole('list')).getAllByRole('listitem');
    expect(steps.map((step) => step.getAttribute('aria-current'))).toEqual(['step', null]);
    expect(steps[1]).toHaveTextContent('Refund refused by PayPal: Refund not allowed.');
  });

  it('shows a shipped order as Shipped while the delivery badge still reads Pending for the delivery', async () => {
    fakeApi({
      [`GET /api/orders/${ORDER_ID}`]: {
        body: anOrder({
          status: 'Shipped',
          statusHistory: [
            { status: 'Processing', at: '2025-03-01T10:00:00.000Z' },
            { status: 'Shipped', at: '2025-03-03T08:15:00.000Z' },
          ],
        }),
      },
    });
    open();
    const section = await screen.findByRole('region', { name: 'Order Status' });
    const current = within(section).getAllByRole('listitem').at(-1)!;
    expect(current).toHaveAttribute('aria-current', 'step');
    expect(current).toHaveTextContent(/^Shipped /);
    expect(screen.getByText('Pending')).toBeInTheDocument();
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

  it('shows the subtotal and the discount line (code and amount) of an order placed with a code', async () => {
    const order = anOrder({ subtotal: 99.99, discount: { code: 'SAVE10', amount: 10 }, totalPrice: 89.99 });
    fakeApi({ [`GET /api/orders/${ORDER_ID}`]: { body: order } });
    open();
    const totals = await screen.findByTestId('order-total');
    expect(within(totals).getByText('Subtotal').nextElementSibling).toHaveTextContent('£99.99');
    expect(within(totals).getByTestId('order-discount')).toHaveTextContent('Discount (SAVE10)−£10.00');
    expect(within(totals).getByText('Total').nextElementSibling).toHaveTextContent('£89.99');
    // the status timeline stays
    expect(screen.getByRole('region', { name: 'Order Status' })).toBeInTheDocument();
  });

  it('shows only the total for an order without a discount, as before', async () => {
    fakeApi({ [`GET /api/orders/${ORDER_ID}`]: { body: anOrder({ totalPrice: 99.99 }) } });
    open();
    expect(await screen.findByText('Total:')).toHaveTextContent('Total: £99.99');
    expect(screen.queryByTestId('order-discount')).not.toBeInTheDocument();
    expect(screen.queryByText('Subtotal')).not.toBeInTheDocument();
  });

  it('says "No Order details found" for an order that does not exist (or is not yours)', async () => {
    const missing = '65b0000000000000000000ff';
    fakeApi({ [`GET /api/orders/${missing}`]: { status: 404, body: { message: 'Order not found', statusCode: 404 } } });
    open(missing);
    expect(await screen.findByText('No Order details found')).toBeInTheDocument();
    expect(screen.queryByText('Approved')).not.toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Order Status' })).not.toBeInTheDocument();
  });

  it("shows the server's message when the order cannot be loaded for another reason", async () => {
    fakeApi({
      [`GET /api/orders/${ORDER_ID}`]: { status: 503, body: { message: 'Orders are unavailable', statusCode: 503 } },
    });
    open();
    expect(await screen.findByText('Error: Orders are unavailable')).toBeInTheDocument();
  });

  it('sends a shopper the server does not know to /login, and back to this order afterwards', async () => {
    fakeApi({
      [`GET /api/orders/${ORDER_ID}`]: { status: 401, body: { message: 'Not authorized, no token', statusCode: 401 } },
    });
    renderWithProviders(<OrderDetailsPage />, { route: `/order/${ORDER_ID}`, path: '/order/:id' });
    await waitFor(() =>
      expect(screen.getByTestId('location')).toHaveTextContent(
        `/login?redirect=${encodeURIComponent(`order/${ORDER_ID}`)}`,
      ),
    );
    expect(screen.queryByText(/Not authorized/)).not.toBeInTheDocument();
  });

  describe('returns', () => {
    const deliveredAt = new Date(Date.now() - 5 * 86_400_000).toISOString();
    const delivered = (extra: object = {}) =>
      anOrder({
        status: 'Delivered',
        isDelivered: true,
        deliveredAt,
        returnableUntil: new Date(Date.parse(deliveredAt) + 45 * 86_400_000).toISOString(),
        ...extra,
      });

    it('asks for a return of the chosen units with a reason, and shows the server’s refusal in an alert', async () => {
      const order = delivered();
      const posted: unknown[] = [];
      fakeApi({
        [`GET /api/orders/${ORDER_ID}`]: { body: order },
        [`POST /api/orders/${ORDER_ID}/returns`]: (call) => {
          posted.push(call.data);
          return posted.length === 1
            ? { status: 400, body: { statusCode: 400, message: 'You can return at most 1 of Jersey' } }
            : { status: 201, body: order };
        },
      });
      open();
      await userEvent.click(await screen.findByRole('button', { name: 'Return items' }));
      // Nothing chosen: said at once, nothing sent.
      await userEvent.click(screen.getByRole('button', { name: 'Request return' }));
      expect(await screen.findByRole('alert')).toHaveTextContent('Choose at least one item to return');
      expect(posted).toEqual([]);
      await userEvent.selectOptions(screen.getByLabelText(new RegExp(order.orderItems[0].name)), '1');
      await userEvent.selectOptions(screen.getByLabelText('Reason'), 'Too small');
      await userEvent.type(screen.getByLabelText(/Anything else/), 'Runs small');
      await userEvent.click(screen.getByRole('button', { name: 'Request return' }));
      expect(await screen.findByText('You can return at most 1 of Jersey')).toHaveAttribute('role', 'alert');
      await userEvent.click(screen.getByRole('button', { name: 'Request return' }));
      await waitFor(() => expect(posted).toHaveLength(2));
      expect(posted[1]).toEqual({ lines: [{ line: 0, quantity: 1 }], reason: 'Too small', comment: 'Runs small' });
      await waitFor(() => expect(screen.queryByRole('button', { name: 'Request return' })).not.toBeInTheDocument());
    });

    it('shows each return with its status and refund, and no form once the 45 days are over', async () => {
      const late = delivered({
        deliveredAt: '2025-01-01T10:00:00.000Z',
        returnableUntil: '2025-02-15T10:00:00.000Z',
        returns: [
          {
            _id: '65c000000000000000000001',
            status: 'Refunded',
            reason: 'Too small',
            lines: [
              {
                line: 0,
                productId: 'p',
                name: 'Jersey',
                image: '',
                size: 'M',
                color: 'Green',
                quantity: 1,
                refund: 18,
              },
            ],
            amount: 18,
            refund: { id: 'R1', amount: 18 },
            steps: [
              { status: 'Requested', at: '2025-01-05T10:00:00.000Z' },
              { status: 'Refunded', at: '2025-01-09T10:00:00.000Z' },
            ],
            createdAt: '2025-01-05T10:00:00.000Z',
            updatedAt: '2025-01-09T10:00:00.000Z',
          },
        ],
      });
      fakeApi({ [`GET /api/orders/${ORDER_ID}`]: { body: late } });
      open();
      const section = await screen.findByTestId('order-returns');
      expect(within(section).getByTestId('return-status')).toHaveTextContent('Refunded');
      expect(within(section).getByTestId('return-refund')).toHaveTextContent('Refunded £18.00 to your PayPal account');
      expect(section).toHaveTextContent('The 45-day return window closed on 15 Feb 2025.');
      expect(screen.queryByRole('button', { name: 'Return items' })).not.toBeInTheDocument();
    });
  });

  it("links a shipped order's parcel to the carrier's tracking page, and shows money PayPal gave back", async () => {
    const url = 'https://www.ups.com/track?loc=en_GB&tracknum=1Z999AA10123456784';
    fakeApi({
      [`GET /api/orders/${ORDER_ID}`]: {
        body: anOrder({
          status: 'Shipped',
          tracking: { carrier: 'UPS', number: '1Z999AA10123456784', url },
          externalRefunds: [{ id: 'R1', kind: 'refund', amount: 15, currency: 'GBP', at: '2025-03-04T10:00:00.000Z' }],
        }),
      },
    });
    open();
    const link = await screen.findByRole('link', { name: /Track your parcel with UPS/ });
    expect(link).toHaveAttribute('href', url);
    expect(link).toHaveAttribute('target', '_blank');
    expect(link).toHaveAttribute('rel', 'noopener noreferrer');
    expect(screen.getByTestId('parcel-tracking')).toHaveTextContent(
      'Sent with UPS, tracking number 1Z999AA10123456784',
    );
    expect(screen.getByTestId('external-refunds')).toHaveTextContent('Refunded through PayPal: £15.00');
  });

  it('shows no tracking for an order without a parcel', async () => {
    fakeApi({ [`GET /api/orders/${ORDER_ID}`]: { body: anOrder({ status: 'Shipped' }) } });
    open();
    await screen.findByText(`Order ID: #${ORDER_ID}`);
    expect(screen.queryByTestId('parcel-tracking')).not.toBeInTheDocument();
  });
});
