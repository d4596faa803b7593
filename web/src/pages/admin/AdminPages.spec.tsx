import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { RevenueDayJson } from '@shop/contracts';
import { selectAdminProducts } from '@/features/admin/adminProductsSlice';
import { initialAuthState } from '@/features/auth/authSlice';
import { aProduct, anOrder, aUser, fakeApi, holdApi, renderWithProviders, someStats, variantsOf } from '@/test/utils';
import AdminArea from './AdminArea';
// the area's pages are lazy: loaded here once, so that each test finds them at once
import './AdminDashboardPage';
import './AdminOrdersPage';
import './AdminProductEditPage';
import './AdminProductsPage';
import './AdminUsersPage';

// Chart.js draws on a canvas, which jsdom has not: the chart is replaced by its summary here (the e2e draws it).
jest.mock('@/features/admin/RevenueChart', () => ({
  __esModule: true,
  default: ({ days }: { days: RevenueDayJson[] }) => <div data-testid="revenue-chart">{days.length} days</div>,
}));

const me = aUser({ _id: '65a0000000000000000000a1', name: 'Ada Admin', email: 'admin@example.com', role: 'admin' });
const asAdmin = { auth: { ...initialAuthState(), user: me, token: 't' } };
const location = () => screen.getByTestId('location').textContent;
const noLowStock = { 'GET /api/admin/products/low-stock': { body: { threshold: 5, variants: [] } } };
const renderAdmin = (route: string) =>
  renderWithProviders(<AdminArea />, { route, path: '/admin/*', preloadedState: asAdmin });

let confirm: jest.SpyInstance;
beforeEach(() => {
  confirm = jest.spyOn(window, 'confirm').mockReturnValue(true);
});
afterEach(() => confirm.mockRestore());

describe('admin layout', () => {
  it('has the sidebar links Users, Products, Orders, Discounts, Shop and Logout; Logout signs out and goes to the shop', async () => {
    fakeApi({ 'GET /api/admin/stats': { body: someStats() }, ...noLowStock });
    const { store } = renderAdmin('/admin');
    const sidebar = screen.getByRole('complementary', { name: 'Admin sidebar' });
    const nav = within(sidebar).getByRole('navigation', { name: 'Admin' });
    expect(
      within(nav)
        .getAllByRole('link')
        .map((l) => [l.textContent, l.getAttribute('href')]),
    ).toEqual([
      ['Users', '/admin/users'],
      ['Products', '/admin/products'],
      ['Orders', '/admin/orders'],
      ['Returns', '/admin/returns'],
      ['Discounts', '/admin/discounts'],
      ['Shop', '/'],
    ]);
    await screen.findByTestId('revenue');
    await userEvent.click(within(sidebar).getByRole('button', { name: 'Logout' }));
    expect(location()).toBe('/');
    expect(store.getState().auth.user).toBeNull();
  });

  it('on a phone the sidebar opens from a toggle, and closes when a link is followed', async () => {
    fakeApi({ 'GET /api/admin/stats': { body: someStats() }, 'GET /api/admin/orders': { body: [] }, ...noLowStock });
    renderAdmin('/admin');
    await userEvent.click(screen.getByRole('button', { name: 'Open admin menu' }));
    const menu = screen.getByRole('dialog', { name: 'Admin menu' });
    await userEvent.click(within(menu).getByRole('link', { name: 'Orders' }));
    // The router commits the navigation in a transition: wait for it rather than read it at once.
    await waitFor(() => expect(location()).toBe('/admin/orders'));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });
});

describe('admin dashboard', () => {
  it('shows the revenue the server computed, the counts, the chart with a table of its figures, recent orders in £', async () => {
    fakeApi({ 'GET /api/admin/stats': { body: someStats() }, ...noLowStock });
    renderAdmin('/admin');
    expect(await screen.findByTestId('revenue')).toHaveTextContent('£1,234.50');
    expect(screen.getByTestId('order-count')).toHaveTextContent('3');
    expect(screen.getByTestId('product-count')).toHaveTextContent('42');
    expect(await screen.findByTestId('revenue-chart')).toHaveTextContent('3 days');
    const days = screen.getByRole('table', { name: 'Revenue by day' });
    expect(within(days).getAllByRole('row')).toHaveLength(4);
    expect(within(days).getByRole('row', { name: /3 Mar 2025/ })).toHaveTextContent('£1,134.51');
    const recent = screen.getByRole('region', { name: 'Recent orders' });
    expect(within(recent).getByText('Jane Fan')).toBeInTheDocument();
    expect(within(recent).getByText('£99.99')).toBeInTheDocument();
    expect(within(recent).queryByText(/\$/)).not.toBeInTheDocument();
  });

  it('says "No recent orders found." and copes with the product count missing', async () => {
    fakeApi({
      'GET /api/admin/stats': { body: someStats({ recentOrders: [], products: null, orders: 0, revenue: 0 }) },
      ...noLowStock,
    });
    renderAdmin('/admin');
    expect(await screen.findByText('No recent orders found.')).toBeInTheDocument();
    expect(screen.getByTestId('revenue')).toHaveTextContent('£0.00');
    expect(screen.getByText('Not available right now')).toBeInTheDocument();
  });

  it("shows the server's message when the figures cannot be had, and tries again", async () => {
    let calls = 0;
    fakeApi({
      'GET /api/admin/stats': () =>
        ++calls === 1
          ? { status: 503, body: { message: 'Orders are unavailable, try again shortly', statusCode: 503 } }
          : { body: someStats() },
      ...noLowStock,
    });
    renderAdmin('/admin');
    expect(await screen.findByRole('alert')).toHaveTextContent('Orders are unavailable, try again shortly');
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByTestId('revenue')).toHaveTextContent('£1,234.50');
  });
});

describe('admin dashboard: payments given back in PayPal', () => {
  it('flags each order refunded or reversed outside the shop, with a link to it; nothing when there are none', async () => {
    const refunded = anOrder({
      _id: '65b0000000000000000000aa',
      totalPrice: 40,
      externalRefunds: [{ id: 'R1', kind: 'refund', amount: 15, currency: 'GBP', at: '2025-03-04T10:00:00.000Z' }],
    });
    const reversed = anOrder({
      _id: '65b0000000000000000000bb',
      totalPrice: 20,
      externalRefunds: [{ id: 'R2', kind: 'reversal', amount: 20, currency: 'GBP', at: '2025-03-05T10:00:00.000Z' }],
    });
    fakeApi({
      'GET /api/admin/stats': { body: someStats({ paymentAlerts: { count: 2, orders: [refunded, reversed] } }) },
      ...noLowStock,
    });
    renderAdmin('/admin');
    const alerts = await screen.findByRole('region', { name: '2 orders were refunded or reversed in PayPal' });
    const items = within(alerts).getAllByTestId('payment-alert');
    expect(items[0]).toHaveTextContent('refunded £15.00 of £40.00');
    expect(items[1]).toHaveTextContent('reversed £20.00 of £20.00');
    expect(within(alerts).getByRole('link', { name: `#${refunded._id}` })).toHaveAttribute(
      'href',
      `/admin/orders/${refunded._id}`,
    );
  });

  it('marks an order reviewed: it leaves the flag; a review refused because PayPal gave more back since says why and shows it', async () => {
    const refund = (id: string) => ({
      id,
      kind: 'refund' as const,
      amount: 5,
      currency: 'GBP',
      at: '2025-03-04T10:00:00.000Z',
    });
    const first = anOrder({ _id: '65b0000000000000000000aa', totalPrice: 40, externalRefunds: [refund('R1')] });
    const second = anOrder({ _id: '65b0000000000000000000bb', totalPrice: 20, externalRefunds: [refund('R2')] });
    const secondNow = { ...second, externalRefunds: [refund('R2'), refund('R3')] };
    let statsReads = 0;
    const calls = fakeApi({
      'GET /api/admin/stats': () => ({
        body: someStats({
          paymentAlerts: statsReads++ ? { count: 1, orders: [secondNow] } : { count: 2, orders: [first, second] },
        }),
      }),
      [`POST /api/admin/orders/${first._id}/payment-alert/review`]: { body: first },
      [`POST /api/admin/orders/${second._id}/payment-alert/review`]: {
        status: 409,
        body: { message: 'PayPal reported another refund or reversal of this order since you looked' },
      },
      ...noLowStock,
    });
    renderAdmin('/admin');
    const alerts = await screen.findByRole('region', { name: '2 orders were refunded or reversed in PayPal' });
    await userEvent.click(within(alerts).getByRole('button', { name: `Mark reviewed: order #${first._id}` }));
    await screen.findByRole('region', { name: '1 order was refunded or reversed in PayPal' });
    expect(screen.getByRole('status')).toHaveTextContent(`Order #${first._id} marked reviewed.`);
    expect(screen.getByRole('status')).toHaveFocus();
    expect(calls.find((c) => c.method === 'POST' && c.url.includes(first._id))?.data).toEqual({ refunds: 1 });
    expect(screen.queryByRole('link', { name: `#${first._id}` })).not.toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: `Mark reviewed: order #${second._id}` }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'PayPal reported another refund or reversal of this order since you looked',
    );
    // read again: the second refund shows, and the order is still flagged
    await waitFor(() =>
      expect(screen.getAllByTestId('payment-alert')[0]).toHaveTextContent('refunded £10.00 of £20.00'),
    );
    expect(calls.find((c) => c.method === 'POST' && c.url.includes(second._id))?.data).toEqual({ refunds: 1 });
  });

  it('shows no flag when nothing was given back', async () => {
    fakeApi({
      'GET /api/admin/stats': { body: someStats({ paymentAlerts: { count: 0, orders: [] } }) },
      ...noLowStock,
    });
    renderAdmin('/admin');
    await screen.findByTestId('revenue');
    expect(screen.queryByTestId('payment-alerts')).not.toBeInTheDocument();
  });
});

describe('admin dashboard: low stock', () => {
  const lowStock = {
    threshold: 5,
    variants: [
      {
        productId: '65a000000000000000000001',
        name: 'Packers Home Jersey',
        sku: 'GB-1-M-GREEN',
        size: 'M',
        color: 'Green',
        countInStock: 0,
      },
      {
        productId: '65a000000000000000000002',
        name: 'Eagles Beanie',
        sku: 'PHI-2',
        size: null,
        color: null,
        countInStock: 3,
      },
    ],
  };

  it('lists the low-stock variants: name, size, colour, SKU and units, each linking to its product', async () => {
    fakeApi({ 'GET /api/admin/stats': { body: someStats() }, 'GET /api/admin/products/low-stock': { body: lowStock } });
    renderAdmin('/admin');
    const panel = await screen.findByRole('region', { name: 'Low-stock variants' });
    const rows = within(panel).getAllByTestId('low-stock-row');
    expect(rows.map((r) => r.textContent)).toEqual([
      expect.stringMatching(/Packers Home Jersey.*M.*Green.*GB-1-M-GREEN.*0 \(sold out\)/),
      expect.stringMatching(/Eagles Beanie.*—.*—.*PHI-2.*3/),
    ]);
    expect(within(rows[0]).getByRole('link', { name: 'Packers Home Jersey' })).toHaveAttribute(
      'href',
      '/admin/products/65a000000000000000000001/edit',
    );
    expect(screen.getByText('Variants with 5 units or fewer')).toBeInTheDocument();
  });

  it('says "No low-stock variants" when none is low', async () => {
    fakeApi({ 'GET /api/admin/stats': { body: someStats() }, ...noLowStock });
    renderAdmin('/admin');
    expect(await screen.findByText('No low-stock variants')).toBeInTheDocument();
  });

  it("shows the server's message when the list cannot be had, and tries again; the rest of the dashboard stays", async () => {
    let calls = 0;
    fakeApi({
      'GET /api/admin/stats': { body: someStats() },
      'GET /api/admin/products/low-stock': () =>
        ++calls === 1
          ? { status: 503, body: { message: 'Catalog is unavailable', statusCode: 503 } }
          : { body: lowStock },
    });
    renderAdmin('/admin');
    const section = await screen.findByRole('region', { name: 'Low stock' });
    expect(await within(section).findByRole('alert')).toHaveTextContent('Catalog is unavailable');
    expect(await screen.findByTestId('revenue')).toHaveTextContent('£1,234.50');
    await userEvent.click(within(section).getByRole('button', { name: 'Try again' }));
    expect(await within(section).findAllByTestId('low-stock-row')).toHaveLength(2);
  });

  it('shows that it is loading until the list comes', async () => {
    fakeApi({ 'GET /api/admin/stats': { body: someStats() }, ...noLowStock });
    const release = holdApi((config) => config.url === '/api/admin/products/low-stock');
    renderAdmin('/admin');
    expect(await screen.findByText('Loading low-stock variants...')).toBeInTheDocument();
    release();
    expect(await screen.findByText('No low-stock variants')).toBeInTheDocument();
  });
});

describe('admin users', () => {
  const fan = aUser({ _id: '65a0000000000000000000a2', name: 'Jane Fan', email: 'jane@example.com' });

  it('the add-user form requires name, email and password; the role defaults to customer', async () => {
    const made = aUser({ _id: '65a0000000000000000000a3', name: 'New Fan', email: 'new@example.com' });
    const calls = fakeApi({
      'GET /api/admin/users': { body: [me, fan] },
      'POST /api/admin/users': { status: 201, body: { message: 'User created', user: made } },
    });
    renderAdmin('/admin/users');
    const form = await screen.findByRole('form', { name: 'Add New User' });
    for (const label of ['Name', 'Email', 'Password']) expect(within(form).getByLabelText(label)).toBeRequired();
    expect(within(form).getByLabelText('Role')).toHaveValue('customer');
    await userEvent.type(within(form).getByLabelText('Name'), 'New Fan');
    await userEvent.type(within(form).getByLabelText('Email'), 'new@example.com');
    await userEvent.type(within(form).getByLabelText('Password'), 'Touchdown!1');
    await userEvent.click(within(form).getByRole('button', { name: 'Add User' }));
    expect(await screen.findByRole('row', { name: /New Fan/ })).toBeInTheDocument();
    expect(calls.find((c) => c.method === 'POST')?.data).toEqual({
      name: 'New Fan',
      email: 'new@example.com',
      password: 'Touchdown!1',
      role: 'customer',
    });
    expect(within(form).getByLabelText('Name')).toHaveValue('');
  });

  it("shows the server's message when adding fails", async () => {
    fakeApi({
      'GET /api/admin/users': { body: [me] },
      'POST /api/admin/users': { status: 400, body: { message: 'User already exists', statusCode: 400 } },
    });
    renderAdmin('/admin/users');
    const form = await screen.findByRole('form', { name: 'Add New User' });
    await userEvent.type(within(form).getByLabelText('Name'), 'Ada');
    await userEvent.type(within(form).getByLabelText('Email'), 'admin@example.com');
    await userEvent.type(within(form).getByLabelText('Password'), 'Touchdown!1');
    await userEvent.click(within(form).getByRole('button', { name: 'Add User' }));
    expect(await within(form).findByRole('alert')).toHaveTextContent('User already exists');
  });

  it("changes a role; a refused change shows the server's message and keeps the old role", async () => {
    const calls = fakeApi({
      'GET /api/admin/users': { body: [me, fan] },
      [`PUT /api/admin/users/${fan._id}`]: { body: { message: 'User updated', user: { ...fan, role: 'admin' } } },
      [`PUT /api/admin/users/${me._id}`]: {
        status: 400,
        body: { message: 'You cannot remove your own admin role', statusCode: 400 },
      },
    });
    renderAdmin('/admin/users');
    await userEvent.selectOptions(await screen.findByLabelText('Role of Jane Fan'), 'admin');
    await waitFor(() => expect(screen.getByLabelText('Role of Jane Fan')).toHaveValue('admin'));
    expect(calls.find((c) => c.method === 'PUT')?.data).toEqual({ role: 'admin' });
    await userEvent.selectOptions(screen.getByLabelText('Role of Ada Admin'), 'customer');
    expect(await screen.findByText('You cannot remove your own admin role')).toBeInTheDocument();
    expect(screen.getByLabelText('Role of Ada Admin')).toHaveValue('admin');
  });

  it('deletes a user only after "Are you sure you want to delete this user?"', async () => {
    const calls = fakeApi({
      'GET /api/admin/users': { body: [me, fan] },
      [`DELETE /api/admin/users/${fan._id}`]: { body: { message: 'User deleted successfully' } },
    });
    renderAdmin('/admin/users');
    confirm.mockReturnValueOnce(false);
    await userEvent.click(await screen.findByRole('button', { name: 'Delete Jane Fan' }));
    expect(confirm).toHaveBeenLastCalledWith('Are you sure you want to delete this user?');
    expect(calls.filter((c) => c.method === 'DELETE')).toHaveLength(0);
    await userEvent.click(screen.getByRole('button', { name: 'Delete Jane Fan' }));
    await waitFor(() => expect(screen.queryByRole('row', { name: /Jane Fan/ })).not.toBeInTheDocument());
    expect(calls.filter((c) => c.method === 'DELETE')).toHaveLength(1);
  });
});

describe('admin products', () => {
  const jersey = aProduct({ _id: '65a000000000000000000001', name: 'Packers Home Jersey', price: 99.99, sku: 'GB-1' });
  const beanie = aProduct({
    _id: '65a000000000000000000002',
    name: 'Eagles Beanie',
    price: 19.99,
    sku: 'PHI-2',
    countInStock: 0,
    isPublished: false,
    images: [],
  });

  it('lists image, name, price in £, SKU and stock, with Edit and Add product', async () => {
    fakeApi({ 'GET /api/admin/products': { body: [jersey, beanie] } });
    renderAdmin('/admin/products');
    const row = await screen.findByRole('row', { name: /Packers Home Jersey/ });
    expect(row).toHaveTextContent('£99.99');
    expect(row).toHaveTextContent('GB-1');
    expect(row).toHaveTextContent('20');
    expect(within(row).getByRole('link', { name: 'Edit Packers Home Jersey' })).toHaveAttribute(
      'href',
      `/admin/products/${jersey._id}/edit`,
    );
    expect(within(row).getByRole('cell', { name: '0 of 6' })).toBeInTheDocument();
    const draft = screen.getByRole('row', { name: /Eagles Beanie/ });
    expect(draft).toHaveTextContent('Draft');
    expect(draft).toHaveTextContent('Out of stock');
    expect(within(draft).getByRole('cell', { name: '6 of 6' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Add product' })).toHaveAttribute('href', '/admin/products/new');
  });

  it("shows each product's total stock and how many of its variants are sold out", async () => {
    const some = aProduct({
      _id: '65a000000000000000000003',
      name: 'Ravens Hoodie',
      variants: variantsOf(aProduct(), [0, 5, 0, 2, 1, 0]),
    });
    fakeApi({ 'GET /api/admin/products': { body: [some] } });
    renderAdmin('/admin/products');
    const row = await screen.findByRole('row', { name: /Ravens Hoodie/ });
    expect(within(row).getByRole('cell', { name: '8' })).toBeInTheDocument();
    expect(within(row).getByRole('cell', { name: '3 of 6' })).toBeInTheDocument();
    expect(screen.getByRole('columnheader', { name: 'Sold-out variants' })).toBeInTheDocument();
  });

  it('says "No Products found." when there are none', async () => {
    fakeApi({ 'GET /api/admin/products': { body: [] } });
    renderAdmin('/admin/products');
    expect(await screen.findByText('No Products found.')).toBeInTheDocument();
  });

  it('deletes a product only after "Are you sure you want to delete the Product?"', async () => {
    const calls = fakeApi({
      'GET /api/admin/products': { body: [jersey, beanie] },
      [`DELETE /api/products/${beanie._id}`]: { body: { message: 'Product removed' } },
    });
    renderAdmin('/admin/products');
    await userEvent.click(await screen.findByRole('button', { name: 'Delete Eagles Beanie' }));
    expect(confirm).toHaveBeenCalledWith('Are you sure you want to delete the Product?');
    await waitFor(() => expect(screen.queryByRole('row', { name: /Eagles Beanie/ })).not.toBeInTheDocument());
    expect(calls.filter((c) => c.method === 'DELETE')).toHaveLength(1);
  });

  it('edits a product: sizes typed comma-separated and trimmed; back on the list it shows the new values at once', async () => {
    const updated = { ...jersey, price: 89.5, sizes: ['S', 'M', 'XL'] };
    const calls = fakeApi({
      'GET /api/admin/products': () => ({ body: [calls.some((c) => c.method === 'PUT') ? updated : jersey, beanie] }),
      [`GET /api/admin/products/${jersey._id}`]: { body: jersey },
      [`PUT /api/admin/products/${jersey._id}`]: { body: updated },
    });
    const { store } = renderAdmin('/admin/products');
    await userEvent.click(await screen.findByRole('link', { name: 'Edit Packers Home Jersey' }));
    const form = await screen.findByTestId('product-form');
    expect(within(form).getByLabelText(/^Product Name/)).toHaveValue('Packers Home Jersey');
    for (const label of [/^Product Name/, /^Description/, /^Category/])
      expect(within(form).getByLabelText(label)).toBeRequired();
    expect(within(form).getByLabelText('Gender')).toHaveDisplayValue('Men');
    expect(
      within(form)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(expect.arrayContaining(['Men', 'Women', 'Unisex']));
    expect(within(form).getByRole('checkbox', { name: 'Brown' })).not.toBeChecked();
    expect(within(form).getByRole('checkbox', { name: 'Green' })).toBeChecked();

    const price = within(form).getByLabelText(/^Price/);
    await userEvent.clear(price);
    await userEvent.type(price, '89.50');
    const sizes = within(form).getByLabelText('Sizes (comma-separated)');
    await userEvent.clear(sizes);
    await userEvent.type(sizes, ' S ,M,, XL ');

    // the list's own refresh is held back: what shows on arrival is the slice's updated entry
    const release = holdApi((config) => config.method === 'get' && config.url === '/api/admin/products');
    await userEvent.click(within(form).getByRole('button', { name: 'Update Product' }));
    await waitFor(() => expect(location()).toBe('/admin/products'));
    expect(calls.find((c) => c.method === 'PUT')?.data).toMatchObject({ price: 89.5, sizes: ['S', 'M', 'XL'] });
    expect(screen.getByRole('row', { name: /Packers Home Jersey/ })).toHaveTextContent('£89.50');
    expect(selectAdminProducts(store.getState()).list.status).toBe('loading');
    release();
    await waitFor(() => expect(selectAdminProducts(store.getState()).list.status).toBe('succeeded'));
    expect(screen.getByRole('row', { name: /Packers Home Jersey/ })).toHaveTextContent('£89.50');
  });

  it('edits stock as a grid, sizes down and colours across, each cell labelled with its SKU; sends the whole grid as variants', async () => {
    // S, M, L × Green, White: 4 4 / 3 3 / 3 3
    const calls = fakeApi({
      [`GET /api/admin/products/${jersey._id}`]: { body: jersey },
      [`PUT /api/admin/products/${jersey._id}`]: { body: jersey },
      'GET /api/admin/products': { body: [jersey] },
    });
    renderAdmin(`/admin/products/${jersey._id}/edit`);
    const form = await screen.findByTestId('product-form');
    const grid = within(form).getByTestId('stock-grid');
    expect(within(form).queryByLabelText('Count in stock')).not.toBeInTheDocument();
    expect(
      within(grid)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['Size', 'Green', 'White']);
    expect(
      within(grid)
        .getAllByRole('rowheader')
        .map((h) => h.textContent),
    ).toEqual(['S', 'M', 'L']);
    expect(within(grid).getByLabelText('Stock for M / Green')).toHaveValue(3);
    expect(within(grid).getByLabelText('SKU for M / Green')).toHaveValue('GB-1-M-GREEN');
    expect(within(grid).getByTestId('stock-total')).toHaveTextContent('Total: 20 units in 6 variants');

    // the grid follows the sizes and colours as they are edited: new cells start at 0
    const sizes = within(form).getByLabelText('Sizes (comma-separated)');
    await userEvent.clear(sizes);
    await userEvent.type(sizes, 'S, M, XL');
    await userEvent.click(within(form).getByRole('checkbox', { name: 'Black' }));
    expect(
      within(grid)
        .getAllByRole('rowheader')
        .map((h) => h.textContent),
    ).toEqual(['S', 'M', 'XL']);
    expect(
      within(grid)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['Size', 'Green', 'White', 'Black']);
    expect(within(grid).getByLabelText('Stock for XL / Black')).toHaveValue(0);
    expect(within(grid).getByLabelText('SKU for XL / Black')).toHaveValue('');
    expect(within(grid).getByLabelText('SKU for XL / Black')).toHaveAttribute('placeholder', 'GB-1-XL-Black');
    expect(within(grid).getByLabelText('Stock for M / White')).toHaveValue(3);

    const cell = within(grid).getByLabelText('Stock for XL / Black');
    await userEvent.clear(cell);
    await userEvent.type(cell, '3');
    await userEvent.click(within(form).getByRole('button', { name: 'Update Product' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'PUT')).toBe(true));
    const body = calls.find((c) => c.method === 'PUT')?.data as Record<string, unknown>;
    expect(body).not.toHaveProperty('countInStock');
    expect(body.variants).toEqual([
      { size: 'S', color: 'Green', countInStock: 4, sku: 'GB-1-S-GREEN' },
      { size: 'S', color: 'White', countInStock: 4, sku: 'GB-1-S-WHITE' },
      { size: 'S', color: 'Black', countInStock: 0 },
      { size: 'M', color: 'Green', countInStock: 3, sku: 'GB-1-M-GREEN' },
      { size: 'M', color: 'White', countInStock: 3, sku: 'GB-1-M-WHITE' },
      { size: 'M', color: 'Black', countInStock: 0 },
      { size: 'XL', color: 'Green', countInStock: 0 },
      { size: 'XL', color: 'White', countInStock: 0 },
      { size: 'XL', color: 'Black', countInStock: 3 },
    ]);
  });

  it('sets every cell at once with "Set all to", and an edited SKU goes with its cell', async () => {
    const calls = fakeApi({
      [`GET /api/admin/products/${jersey._id}`]: { body: jersey },
      [`PUT /api/admin/products/${jersey._id}`]: { body: jersey },
      'GET /api/admin/products': { body: [jersey] },
    });
    renderAdmin(`/admin/products/${jersey._id}/edit`);
    const grid = await screen.findByTestId('stock-grid');
    const apply = within(grid).getByRole('button', { name: 'Apply to all' });
    expect(apply).toBeDisabled();
    await userEvent.type(within(grid).getByLabelText('Set all to'), '7{Enter}');
    expect(
      within(grid)
        .getAllByRole('spinbutton', { name: /^Stock for/ })
        .map((i) => (i as HTMLInputElement).value),
    ).toEqual(['7', '7', '7', '7', '7', '7']);
    expect(calls.some((c) => c.method === 'PUT')).toBe(false); // Enter set the grid, it did not save
    await userEvent.clear(within(grid).getByLabelText('Set all to'));
    await userEvent.type(within(grid).getByLabelText('Set all to'), '2');
    await userEvent.click(apply);
    expect(within(grid).getByTestId('stock-total')).toHaveTextContent('Total: 12 units');
    const sku = within(grid).getByLabelText('SKU for L / White');
    await userEvent.clear(sku);
    await userEvent.type(sku, 'GB-1-L-WHT');
    await userEvent.click(screen.getByRole('button', { name: 'Update Product' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'PUT')).toBe(true));
    const variants = (calls.find((c) => c.method === 'PUT')?.data as { variants: Array<Record<string, unknown>> })
      .variants;
    expect(variants.map((v) => v.countInStock)).toEqual([2, 2, 2, 2, 2, 2]);
    expect(variants[5]).toEqual({ size: 'L', color: 'White', countInStock: 2, sku: 'GB-1-L-WHT' });
  });

  it("shows the server's 409 when a size held by a checkout is taken off, and keeps the form", async () => {
    fakeApi({
      [`GET /api/admin/products/${jersey._id}`]: { body: jersey },
      [`PUT /api/admin/products/${jersey._id}`]: {
        status: 409,
        body: { message: 'Size L is held by a checkout: it cannot be removed yet', statusCode: 409 },
      },
    });
    renderAdmin(`/admin/products/${jersey._id}/edit`);
    const form = await screen.findByTestId('product-form');
    const sizes = within(form).getByLabelText('Sizes (comma-separated)');
    await userEvent.clear(sizes);
    await userEvent.type(sizes, 'S, M');
    await userEvent.click(within(form).getByRole('button', { name: 'Update Product' }));
    expect(await within(form).findByRole('alert')).toHaveTextContent('Size L is held by a checkout');
    expect(location()).toBe(`/admin/products/${jersey._id}/edit`);
  });

  it("keeps the form and shows the server's message when saving fails", async () => {
    fakeApi({
      [`GET /api/admin/products/${jersey._id}`]: { body: jersey },
      [`PUT /api/admin/products/${jersey._id}`]: {
        status: 400,
        body: { message: 'SKU already exists', statusCode: 400 },
      },
    });
    renderAdmin(`/admin/products/${jersey._id}/edit`);
    const form = await screen.findByTestId('product-form');
    await userEvent.click(within(form).getByRole('button', { name: 'Update Product' }));
    expect(await within(form).findByRole('alert')).toHaveTextContent('SKU already exists');
    expect(location()).toBe(`/admin/products/${jersey._id}/edit`);
  });

  it('says beside the images that they must be the shop’s own, and shows a refusal of one there', async () => {
    const refusal =
      'Image url must be an image of this shop: upload it, or give its path on the shop (like /uploads/photo.webp)';
    const elsewhere = { ...jersey, images: [{ url: 'https://images.example.net/gb.jpg', altText: 'GB jersey' }] };
    fakeApi({
      [`GET /api/admin/products/${jersey._id}`]: { body: elsewhere },
      [`PUT /api/admin/products/${jersey._id}`]: { status: 400, body: { message: refusal, statusCode: 400 } },
    });
    renderAdmin(`/admin/products/${jersey._id}/edit`);
    const form = await screen.findByTestId('product-form');
    const images = within(form).getByRole('group', { name: 'Images' });
    expect(images).toHaveAccessibleDescription(/shows only its own, so an image hosted on another site is refused/);

    await userEvent.click(within(form).getByRole('button', { name: 'Update Product' }));
    const alert = await within(images).findByRole('alert');
    expect(alert).toHaveTextContent(refusal);
    await waitFor(() => expect(alert).toHaveFocus());
    expect(within(form).getAllByRole('alert')).toHaveLength(1); // said once, beside the images
    expect(location()).toBe(`/admin/products/${jersey._id}/edit`);
  });

  it('adds a product with an uploaded image (POST /api/upload), previewed and removable', async () => {
    const created = aProduct({ _id: '65a000000000000000000009', name: 'Ravens Cap' });
    const calls = fakeApi({
      'POST /api/upload': { status: 201, body: { imageUrl: '/uploads/0123456789abcdef0123456789abcdef.webp' } },
      'POST /api/admin/products': { status: 201, body: created },
      'GET /api/admin/products': { body: [created] },
    });
    Object.assign(URL, { createObjectURL: jest.fn(() => 'blob:preview'), revokeObjectURL: jest.fn() });
    renderAdmin('/admin/products/new');
    const form = await screen.findByTestId('product-form');
    await userEvent.type(within(form).getByLabelText(/^Product Name/), 'Ravens Cap');
    await userEvent.type(within(form).getByLabelText(/^Description/), 'A purple cap.');
    await userEvent.type(within(form).getByLabelText(/^Price/), '24.99');
    await userEvent.selectOptions(within(form).getByLabelText(/^Category/), 'Accessories');
    await userEvent.click(within(form).getByRole('checkbox', { name: 'Purple' }));
    const stock = within(form).getByLabelText('Stock for Purple');
    await userEvent.clear(stock);
    await userEvent.type(stock, '12');

    const file = new File(['png'], 'cap.png', { type: 'image/png' });
    await userEvent.upload(within(form).getByLabelText('Upload image'), file);
    const image = await within(form).findByRole('img', { name: 'Ravens Cap' });
    expect(image).toHaveAttribute('src', '/uploads/0123456789abcdef0123456789abcdef.webp');
    expect(((calls.find((c) => c.url === '/api/upload')?.data as FormData).get('image') as File).name).toBe('cap.png');

    await userEvent.upload(within(form).getByLabelText('Upload image'), file);
    await waitFor(() => expect(within(form).getAllByTestId('product-image')).toHaveLength(2));
    await userEvent.click(within(form).getByRole('button', { name: 'Remove image 2' }));
    expect(within(form).getAllByTestId('product-image')).toHaveLength(1);

    await userEvent.click(within(form).getByRole('button', { name: 'Create Product' }));
    await waitFor(() => expect(location()).toBe('/admin/products'));
    expect(calls.find((c) => c.url === '/api/admin/products' && c.method === 'POST')?.data).toMatchObject({
      name: 'Ravens Cap',
      price: 24.99,
      category: 'Accessories',
      colors: ['Purple'],
      isPublished: true,
      images: [{ url: '/uploads/0123456789abcdef0123456789abcdef.webp', altText: 'Ravens Cap' }],
      // no sizes: one row, "One size", and its stock as typed
      variants: [{ size: null, color: 'Purple', countInStock: 12 }],
    });
  });

  it("shows the server's message when an upload is refused", async () => {
    fakeApi({
      'POST /api/upload': {
        status: 400,
        body: { message: 'Unsupported image type: send a JPEG, PNG, WebP or GIF image', statusCode: 400 },
      },
    });
    Object.assign(URL, { createObjectURL: jest.fn(() => 'blob:preview'), revokeObjectURL: jest.fn() });
    renderAdmin('/admin/products/new');
    const form = await screen.findByTestId('product-form');
    await userEvent.upload(
      within(form).getByLabelText('Upload image'),
      new File(['x'], 'x.png', { type: 'image/png' }),
    );
    expect(await within(form).findByRole('alert')).toHaveTextContent('Unsupported image type');
    expect(within(form).queryAllByTestId('product-image')).toHaveLength(0);
  });
});

describe('admin orders', () => {
  const order = anOrder({ _id: '65b000000000000000000001', totalPrice: 149.5 });

  it('says "No Orders found." when there are none', async () => {
    fakeApi({ 'GET /api/admin/orders': { body: [] } });
    renderAdmin('/admin/orders');
    expect(await screen.findByText('No Orders found.')).toBeInTheDocument();
  });

  it('lists id, customer, date, total in £ and status; the select and Mark as Delivered set the status', async () => {
    const calls = fakeApi({
      'GET /api/admin/orders': { body: [order] },
      [`PUT /api/admin/orders/${order._id}`]: (call) => ({
        body: {
          ...order,
          status: (call.data as { status: string }).status,
          isDelivered: (call.data as { status: string }).status === 'Delivered',
        },
      }),
    });
    renderAdmin('/admin/orders');
    const row = await screen.findByRole('row', { name: new RegExp(order._id) });
    expect(row).toHaveTextContent('Jane Fan');
    expect(row).toHaveTextContent('1 Mar 2025');
    expect(row).toHaveTextContent('£149.50');
    expect(row).not.toHaveTextContent('$');
    const select = within(row).getByLabelText(`Status of order #${order._id}`);
    expect(
      within(select)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['Processing', 'Shipped', 'Delivered', 'Cancelled']);
    // Shipped asks for the parcel first: nothing is sent until the carrier and a number of its format are given
    await userEvent.selectOptions(select, 'Shipped');
    const panel = await screen.findByRole('dialog', { name: 'Ship order #000001' });
    expect(select).toHaveValue('Processing');
    await userEvent.click(within(panel).getByRole('button', { name: 'Mark as Shipped' }));
    expect(within(panel).getByLabelText('Carrier')).toHaveAccessibleDescription(
      'Choose a carrier: Royal Mail, DPD, Evri, DHL, UPS',
    );
    await userEvent.selectOptions(within(panel).getByLabelText('Carrier'), 'Royal Mail');
    const number = within(panel).getByLabelText('Tracking number');
    await userEvent.type(number, 'AB123456789GB');
    await userEvent.click(within(panel).getByRole('button', { name: 'Mark as Shipped' }));
    expect(number).toHaveAttribute('aria-invalid', 'true');
    expect(within(panel).getByText(/mistyped character/)).toBeInTheDocument();
    expect(number).toHaveFocus();
    expect(calls.filter((c) => c.method === 'PUT')).toEqual([]);
    await userEvent.clear(number);
    await userEvent.type(number, 'ab 123456785 gb');
    await userEvent.click(within(panel).getByRole('button', { name: 'Mark as Shipped' }));
    await waitFor(() => expect(select).toHaveValue('Shipped'));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    const deliver = within(row).getByRole('button', { name: `Mark as Delivered, order #${order._id}` });
    await userEvent.click(deliver);
    await waitFor(() => expect(select).toHaveValue('Delivered'));
    expect(deliver).toBeDisabled();
    expect(calls.filter((c) => c.method === 'PUT').map((c) => c.data)).toEqual([
      { status: 'Shipped', carrier: 'Royal Mail', trackingNumber: 'ab 123456785 gb' },
      { status: 'Delivered' },
    ]);
  });

  it("lists each order's items with size, colour and the variant SKU", async () => {
    fakeApi({ 'GET /api/admin/orders': { body: [order] } });
    renderAdmin('/admin/orders');
    const row = await screen.findByRole('row', { name: new RegExp(order._id) });
    await userEvent.click(within(row).getByText('1 item'));
    const items = within(row).getByRole('list', { name: `Items of order #${order._id}` });
    expect(items).toHaveTextContent("1 × Green Bay Packers Men's Home Game Jersey");
    expect(items).toHaveTextContent('Size: M | Color: Green');
    expect(items).toHaveTextContent('SKU: GB-JSY-HOME-M-M-GREEN');
  });

  it('asks before cancelling, and a cancelled order cannot change any more', async () => {
    const calls = fakeApi({
      'GET /api/admin/orders': { body: [order] },
      [`PUT /api/admin/orders/${order._id}`]: { body: { ...order, status: 'Cancelled' } },
    });
    renderAdmin('/admin/orders');
    const select = await screen.findByLabelText(`Status of order #${order._id}`);
    confirm.mockReturnValueOnce(false);
    await userEvent.selectOptions(select, 'Cancelled');
    expect(calls.filter((c) => c.method === 'PUT')).toHaveLength(0);
    await userEvent.selectOptions(select, 'Cancelled');
    await waitFor(() => expect(select).toBeDisabled());
    expect(screen.getByRole('button', { name: `Mark as Delivered, order #${order._id}` })).toBeDisabled();
    expect(confirm).toHaveBeenLastCalledWith(
      'Cancel this order? Its items go back on sale, and a cancelled order cannot change status again.',
    );
  });

  const paid = anOrder({
    ...order,
    paymentDetails: {
      provider: 'paypal',
      id: 'PAYPALORDER1',
      status: 'COMPLETED',
      captureId: 'CAPTURE1',
      captureStatus: 'COMPLETED',
      amount: '149.50',
      currency: 'GBP',
    },
  });

  it('says a paid order will be refunded before cancelling it, and shows why when PayPal refuses, the order unchanged', async () => {
    const refusal = 'Refund refused by PayPal: Capture could not be refunded due to insufficient funds.';
    const calls = fakeApi({
      'GET /api/admin/orders': { body: [paid] },
      [`PUT /api/admin/orders/${paid._id}`]: { status: 502, body: { statusCode: 502, message: refusal } },
    });
    renderAdmin('/admin/orders');
    const select = await screen.findByLabelText(`Status of order #${paid._id}`);
    await userEvent.selectOptions(select, 'Cancelled');
    expect(confirm).toHaveBeenLastCalledWith(
      "Cancel this order and refund £149.50 to the customer's PayPal account? Its items go back on sale, and a cancelled order cannot change status again.",
    );
    expect(await screen.findByText(refusal)).toBeInTheDocument();
    expect(calls.filter((c) => c.method === 'PUT').map((c) => c.data)).toEqual([{ status: 'Cancelled' }]);
    await waitFor(() => expect(select).toHaveValue('Processing'));
    expect(select).toBeEnabled();
  });

  it('offers no cancelling of a delivered order', async () => {
    fakeApi({ 'GET /api/admin/orders': { body: [{ ...paid, status: 'Delivered', isDelivered: true }] } });
    renderAdmin('/admin/orders');
    const select = await screen.findByLabelText(`Status of order #${paid._id}`);
    expect(within(select).getByRole('option', { name: 'Cancelled' })).toBeDisabled();
    expect(within(select).getByRole('option', { name: 'Shipped' })).toBeEnabled();
  });
});
