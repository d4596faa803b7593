import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { OrderJson } from '@shop/contracts';
import { initialAuthState } from '@/features/auth/authSlice';
import { formatDateTime } from '@/lib/dates';
import { anOrder, aUser, fakeApi, holdApi, renderWithProviders, type Call } from '@/test/utils';
import AdminArea from './AdminArea';
// the area's pages are lazy: loaded here once, so that each test finds them at once
import './AdminOrderPage';
import './AdminOrdersPage';

const me = aUser({ _id: '65a0000000000000000000a1', name: 'Ada Admin', email: 'admin@example.com', role: 'admin' });
const asAdmin = { auth: { ...initialAuthState(), user: me, token: 't' } };
const location = () => screen.getByTestId('location').textContent;
const renderAdmin = (route: string) =>
  renderWithProviders(<AdminArea />, { route, path: '/admin/*', preloadedState: asAdmin });

/** 25 orders of a page: ids …001 to …025 (or from `first`). */
const someOrders = (count: number, first = 1): OrderJson[] =>
  Array.from({ length: count }, (_, i) =>
    anOrder({
      _id: `65b0000000000000000${String(first + i).padStart(5, '0')}`,
      user: { _id: '65a0000000000000000000aa', name: `Fan ${first + i}`, email: `fan${first + i}@example.com` },
    }),
  );
const lastList = (calls: Call[]) => calls.filter((c) => c.url === '/api/admin/orders').at(-1)?.params;

describe('admin orders: the paged list', () => {
  it('opens the view its URL names, asks for that page, and says which rows show', async () => {
    const calls = fakeApi({
      'GET /api/admin/orders': { body: someOrders(10, 51), headers: { 'X-Total-Count': '60' } },
    });
    renderAdmin('/admin/orders?status=Shipped&sort=totalPrice&page=3');
    expect(await screen.findByTestId('order-range')).toHaveTextContent('51–60 of 60');
    expect(lastList(calls)).toEqual({ status: 'Shipped', sort: 'totalPrice', page: 3, limit: 25 });
    expect(screen.getByLabelText('Status')).toHaveValue('Shipped');
    expect(screen.getByRole('columnheader', { name: 'Total Price' })).toHaveAttribute('aria-sort', 'ascending');
    expect(screen.getByRole('columnheader', { name: 'Date' })).toHaveAttribute('aria-sort', 'none');
    expect(screen.getByRole('button', { name: 'Next' })).toBeDisabled();
    expect(screen.getByText('Page 3 of 3')).toBeInTheDocument();
  });

  it('pages with Previous and Next, the page in the URL; each row links to its order page', async () => {
    const calls = fakeApi({
      'GET /api/admin/orders': (call) => ({
        body: someOrders(25, ((call.params?.page as number) - 1) * 25 + 1),
        headers: { 'X-Total-Count': '120' },
      }),
    });
    renderAdmin('/admin/orders');
    expect(await screen.findByTestId('order-range')).toHaveTextContent('1–25 of 120');
    expect(screen.getByRole('button', { name: 'Previous' })).toBeDisabled();
    await userEvent.click(screen.getByRole('button', { name: 'Next' }));
    await waitFor(() => expect(screen.getByTestId('order-range')).toHaveTextContent('26–50 of 120'));
    expect(location()).toBe('/admin/orders?page=2');
    expect(lastList(calls)).toMatchObject({ page: 2, limit: 25 });
    const row = screen.getByRole('row', { name: /Fan 26/ });
    expect(within(row).getByRole('link', { name: '#65b000000000000000000026' })).toHaveAttribute(
      'href',
      '/admin/orders/65b000000000000000000026',
    );
    expect(row).toHaveTextContent('fan26@example.com');
  });

  it('searches on submit, filters at once, sorts by a header, each back on page 1 and in the URL', async () => {
    const calls = fakeApi({ 'GET /api/admin/orders': { body: someOrders(3), headers: { 'X-Total-Count': '3' } } });
    renderAdmin('/admin/orders?page=2');
    await screen.findByTestId('order-range');
    await userEvent.type(screen.getByLabelText('Search orders'), 'Fan1@Example.com{Enter}');
    await waitFor(() => expect(location()).toBe('/admin/orders?q=Fan1%40Example.com'));
    expect(lastList(calls)).toEqual({ q: 'Fan1@Example.com', sort: '-createdAt', page: 1, limit: 25 });

    await userEvent.selectOptions(screen.getByLabelText('Payment'), 'false');
    await waitFor(() => expect(lastList(calls)).toMatchObject({ q: 'Fan1@Example.com', paid: 'false', page: 1 }));
    // keyboard: the header's button sorts, then sorts the other way
    const date = screen.getByRole('button', { name: 'Date' });
    date.focus();
    await userEvent.keyboard('{Enter}');
    await waitFor(() => expect(lastList(calls)).toMatchObject({ sort: 'createdAt' }));
    expect(screen.getByRole('columnheader', { name: 'Date' })).toHaveAttribute('aria-sort', 'ascending');
    await userEvent.click(screen.getByRole('button', { name: 'Customer' }));
    await waitFor(() => expect(location()).toContain('sort=customer'));
    expect(screen.getByRole('columnheader', { name: 'Customer' })).toHaveAttribute('aria-sort', 'ascending');

    await userEvent.click(screen.getByRole('button', { name: 'Clear filters' }));
    await waitFor(() => expect(location()).toBe('/admin/orders?sort=customer'));
  });

  it('says "No Orders found." for a search that finds none, and shows the server’s message for a bad one', async () => {
    fakeApi({
      'GET /api/admin/orders': (call) =>
        call.params?.from
          ? { status: 400, body: { message: 'from must not be after to', statusCode: 400 } }
          : { body: [], headers: { 'X-Total-Count': '0' } },
    });
    renderAdmin('/admin/orders?q=nobody');
    expect(await screen.findByText('No Orders found.')).toBeInTheDocument();
    expect(screen.getByTestId('order-range')).toHaveTextContent('0 of 0');
    renderAdmin('/admin/orders?from=2025-03-02&to=2025-03-01');
    expect(await screen.findByRole('alert')).toHaveTextContent('from must not be after to');
  });

  it('shows that it is loading until the page comes', async () => {
    fakeApi({ 'GET /api/admin/orders': { body: someOrders(1), headers: { 'X-Total-Count': '1' } } });
    const release = holdApi((config) => config.url === '/api/admin/orders');
    renderAdmin('/admin/orders');
    expect(await screen.findByText('Loading orders...')).toBeInTheDocument();
    release();
    expect(await screen.findByTestId('order-range')).toHaveTextContent('1–1 of 1');
  });
});

describe('admin orders: the CSV export', () => {
  let created: jest.Mock;
  let clicked: string[];
  beforeEach(() => {
    clicked = [];
    created = jest.fn(() => 'blob:orders');
    Object.assign(URL, { createObjectURL: created, revokeObjectURL: jest.fn() });
    jest.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push(`${this.download} ${this.getAttribute('href')}`);
    });
  });
  afterEach(() => {
    jest.restoreAllMocks();
    localStorage.removeItem('userToken');
  });

  it('downloads the CSV of the current filters with the admin’s token', async () => {
    const csv = new Blob(['\uFEFFOrder ID\r\n'], { type: 'text/csv' });
    const calls = fakeApi({
      'GET /api/admin/orders': { body: someOrders(1), headers: { 'X-Total-Count': '1' } },
      'GET /api/admin/orders/export.csv': {
        body: csv,
        headers: { 'Content-Disposition': 'attachment; filename="orders-2025-03-01.csv"' },
      },
    });
    localStorage.setItem('userToken', 'admin-token');
    renderAdmin('/admin/orders?status=Delivered&q=jane&page=2&sort=customer');
    await screen.findByTestId('order-range');
    await userEvent.click(screen.getByRole('button', { name: 'Export CSV' }));
    await waitFor(() => expect(clicked).toEqual(['orders-2025-03-01.csv blob:orders']));
    const exported = calls.find((c) => c.url === '/api/admin/orders/export.csv')!;
    expect(exported.params).toEqual({ q: 'jane', status: 'Delivered' });
    expect(exported.headers.Authorization).toBe('Bearer admin-token');
    expect(created).toHaveBeenCalledWith(csv);
    expect(await screen.findByText('Downloaded orders-2025-03-01.csv')).toBeInTheDocument();
  });

  it('shows the server’s message when the export is refused', async () => {
    fakeApi({
      'GET /api/admin/orders': { body: someOrders(1), headers: { 'X-Total-Count': '1' } },
      'GET /api/admin/orders/export.csv': {
        status: 503,
        body: new Blob([JSON.stringify({ message: 'Orders are unavailable, try again shortly', statusCode: 503 })]),
      },
    });
    renderAdmin('/admin/orders');
    await screen.findByTestId('order-range');
    await userEvent.click(screen.getByRole('button', { name: 'Export CSV' }));
    expect(await screen.findByText('Orders are unavailable, try again shortly')).toBeInTheDocument();
    expect(clicked).toEqual([]);
  });
});

describe('admin orders: the order page', () => {
  const ID = '65b000000000000000000001';
  const order = anOrder({
    _id: ID,
    user: { _id: '65a0000000000000000000aa', name: 'Jane Fan', email: 'jane@example.com' },
    status: 'Cancelled',
    subtotal: 119.99,
    discount: { code: 'KICKOFF', amount: 20 },
    totalPrice: 99.99,
    paymentDetails: {
      provider: 'paypal',
      id: 'PAYPAL-ORDER-1',
      status: 'COMPLETED',
      captureId: 'CAPTURE-1',
      captureStatus: 'COMPLETED',
      amount: '99.99',
      currency: 'GBP',
      payerEmail: 'jane@example.com',
      capturedAt: '2025-03-01T10:00:05.000Z',
    },
    statusHistory: [
      { status: 'Processing', at: '2025-03-01T10:00:00.000Z' },
      { status: 'Shipped', at: '2025-03-02T09:00:00.000Z', by: { _id: me._id, name: 'Ada Admin' } },
      {
        status: 'Shipped',
        at: '2025-03-03T09:00:00.000Z',
        by: { _id: me._id, name: 'Ada Admin' },
        note: 'Refund refused by PayPal: try again',
      },
      {
        status: 'Cancelled',
        at: '2025-03-04T09:00:00.000Z',
        by: { _id: me._id, name: 'Ada Admin' },
        refund: { id: 'REFUND-1', amount: 99.99 },
      },
    ],
  });

  it('shows the lines, customer, address, payment, discount and every change: who, when, refund, note', async () => {
    fakeApi({ [`GET /api/admin/orders/${ID}`]: { body: order } });
    renderAdmin(`/admin/orders/${ID}`);
    expect(await screen.findByRole('heading', { name: `Order #${ID}`, level: 1 })).toBeInTheDocument();
    const items = screen.getByTestId('order-items');
    expect(items).toHaveTextContent("Green Bay Packers Men's Home Game Jersey");
    expect(items).toHaveTextContent('Size: M | Color: Green');
    expect(items).toHaveTextContent('SKU: GB-JSY-HOME-M-M-GREEN');
    expect(within(items).getByTestId('order-discount')).toHaveTextContent('Discount (KICKOFF)−£20.00');
    expect(screen.getByRole('region', { name: 'Customer' })).toHaveTextContent('Jane Fan');
    expect(screen.getByRole('region', { name: 'Customer' })).toHaveTextContent('jane@example.com');
    expect(screen.getByTestId('shipping-address')).toHaveTextContent('1 Stadium Way');
    expect(screen.getByTestId('shipping-address')).toHaveTextContent('N17 0BX');
    const payment = screen.getByTestId('payment');
    for (const text of ['PAYPAL-ORDER-1', 'CAPTURE-1', '99.99 GBP', formatDateTime('2025-03-01T10:00:05.000Z')])
      expect(payment).toHaveTextContent(text);
    expect(payment).toHaveTextContent('Refunded£99.99');

    const steps = within(screen.getByTestId('order-timeline')).getAllByRole('listitem');
    expect(steps.map((s) => s.textContent)).toEqual([
      `Order placed: Processing${formatDateTime('2025-03-01T10:00:00.000Z')} · by the shop`,
      `Payment captured: £99.99${formatDateTime('2025-03-01T10:00:05.000Z')} · PayPal`,
      `Status set to Shipped${formatDateTime('2025-03-02T09:00:00.000Z')} · by Ada Admin`,
      `Note (still Shipped)${formatDateTime('2025-03-03T09:00:00.000Z')} · by Ada AdminRefund refused by PayPal: try again`,
      `Status set to Cancelled${formatDateTime('2025-03-04T09:00:00.000Z')} · by Ada AdminRefunded £99.99 (PayPal refund REFUND-1)`,
    ]);
    expect(screen.getByLabelText(`Status of order #${ID}`)).toBeDisabled();
    await userEvent.click(screen.getByRole('link', { name: '← All orders' }));
    await waitFor(() => expect(location()).toBe('/admin/orders'));
  });

  it('says "No Order details found" for an unknown or malformed id', async () => {
    fakeApi({
      [`GET /api/admin/orders/${ID}`]: { status: 404, body: { message: 'Order not found', statusCode: 404 } },
    });
    renderAdmin(`/admin/orders/${ID}`);
    expect(await screen.findByText('No Order details found')).toBeInTheDocument();
  });

  it("shows the server's message when the order cannot be had, and tries again", async () => {
    let calls = 0;
    fakeApi({
      [`GET /api/admin/orders/${ID}`]: () =>
        ++calls === 1 ? { status: 503, body: { message: 'Orders are unavailable', statusCode: 503 } } : { body: order },
    });
    renderAdmin(`/admin/orders/${ID}`);
    expect(await screen.findByRole('alert')).toHaveTextContent('Orders are unavailable');
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByTestId('order-timeline')).toBeInTheDocument();
  });
});
