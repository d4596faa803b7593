import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { initialAuthState } from '@/features/auth/authSlice';
import { aProduct, aUser, fakeApi, holdApi, renderWithProviders, type Call } from '@/test/utils';
import AdminArea from './AdminArea';
// the area's pages are lazy: loaded here once, so that each test finds them at once
import './AdminProductsPage';
import './AdminUsersPage';

const me = aUser({ _id: '65a0000000000000000000a1', name: 'Ada Admin', email: 'admin@example.com', role: 'admin' });
const asAdmin = { auth: { ...initialAuthState(), user: me, token: 't' } };
const location = () => screen.getByTestId('location').textContent;
const renderAdmin = (route: string) =>
  renderWithProviders(<AdminArea />, { route, path: '/admin/*', preloadedState: asAdmin });
const lastGet = (calls: Call[], url: string) => calls.filter((c) => c.method === 'GET' && c.url === url).at(-1);

const jersey = aProduct({ _id: '65a000000000000000000001', name: 'Packers Home Jersey', sku: 'GB-1' });
const beanie = aProduct({ _id: '65a000000000000000000002', name: 'Eagles Beanie', sku: 'PHI-2' });

describe('admin products list: server paging, search, filters and sort in the URL', () => {
  it('opens the view a link names: its parameters are sent, and the pager says N–M of T', async () => {
    const calls = fakeApi({
      'GET /api/admin/products': { body: [jersey, beanie], headers: { 'X-Total-Count': '60' } },
    });
    renderAdmin('/admin/products?q=gb&category=Top+Wear&lowStock=true&sort=-price&page=2');
    await screen.findByRole('row', { name: /Packers Home Jersey/ });
    expect(lastGet(calls, '/api/admin/products')?.params).toEqual({
      page: '2',
      q: 'gb',
      category: 'Top Wear',
      lowStock: 'true',
      sort: '-price',
    });
    const pager = screen.getByRole('navigation', { name: 'Products pages' });
    expect(within(pager).getByTestId('page-range')).toHaveTextContent('26–50 of 60');
    expect(within(pager).getByRole('button', { name: 'Previous' })).toBeEnabled();
    expect(within(pager).getByRole('button', { name: 'Next' })).toBeEnabled();
    expect(screen.getByRole('searchbox', { name: 'Search products' })).toHaveValue('gb');
    expect(screen.getByLabelText('Category')).toHaveValue('Top Wear');
    expect(screen.getByRole('checkbox', { name: 'Low stock' })).toBeChecked();
    expect(screen.getByRole('columnheader', { name: /Price/ })).toHaveAttribute('aria-sort', 'descending');
    expect(screen.getByRole('columnheader', { name: /Name/ })).toHaveAttribute('aria-sort', 'none');
  });

  it('searches on Enter from page 1, filters, sorts by a header and pages with Next and Previous', async () => {
    const calls = fakeApi({
      'GET /api/admin/products': { body: [jersey, beanie], headers: { 'X-Total-Count': '30' } },
    });
    renderAdmin('/admin/products?page=2');
    await screen.findByRole('row', { name: /Eagles Beanie/ });
    expect(screen.getByRole('columnheader', { name: /Added/ })).toHaveAttribute('aria-sort', 'descending');

    await userEvent.type(screen.getByRole('searchbox', { name: 'Search products' }), 'phi-2{Enter}');
    await waitFor(() => expect(location()).toBe('/admin/products?q=phi-2'));
    await waitFor(() => expect(lastGet(calls, '/api/admin/products')?.params).toEqual({ page: '1', q: 'phi-2' }));

    await userEvent.selectOptions(screen.getByLabelText('Status'), 'Draft');
    await waitFor(() => expect(location()).toBe('/admin/products?q=phi-2&published=false'));

    await userEvent.click(screen.getByRole('button', { name: /Name/ }));
    await waitFor(() => expect(location()).toBe('/admin/products?q=phi-2&published=false&sort=name'));
    expect(screen.getByRole('columnheader', { name: /Name/ })).toHaveAttribute('aria-sort', 'ascending');
    await userEvent.click(screen.getByRole('button', { name: /Name/ }));
    await waitFor(() => expect(location()).toContain('sort=-name'));

    expect(await screen.findByTestId('page-range')).toHaveTextContent('1–25 of 30');
    expect(screen.getByRole('button', { name: 'Previous' })).toBeDisabled();
    await userEvent.click(screen.getByRole('button', { name: 'Next' }));
    await waitFor(() => expect(location()).toContain('page=2'));
    await waitFor(() => expect(screen.getByTestId('page-range')).toHaveTextContent('26–30 of 30'));
    expect(screen.getByRole('button', { name: 'Next' })).toBeDisabled();
    expect(lastGet(calls, '/api/admin/products')?.params).toEqual({
      page: '2',
      q: 'phi-2',
      published: 'false',
      sort: '-name',
    });
    await userEvent.click(screen.getByRole('button', { name: 'Previous' }));
    await waitFor(() => expect(location()).not.toContain('page='));
  });

  it('marks the table busy while the rows shown are not those of the view asked for', async () => {
    fakeApi({ 'GET /api/admin/products': { body: [jersey, beanie], headers: { 'X-Total-Count': '30' } } });
    renderAdmin('/admin/products');
    const table = await screen.findByRole('table', { name: 'Products' });
    expect(table).not.toHaveAttribute('aria-busy');
    const release = holdApi();
    await userEvent.click(screen.getByRole('button', { name: 'Next' }));
    await waitFor(() => expect(table).toHaveAttribute('aria-busy', 'true'));
    expect(screen.getByTestId('page-range')).toHaveTextContent('1–25 of 30'); // what is shown, until the page comes
    release();
    await waitFor(() => expect(screen.getByTestId('page-range')).toHaveTextContent('26–30 of 30'));
    expect(table).not.toHaveAttribute('aria-busy');
  });

  it('says "No products match." for a search that finds nothing, and "No Products found." when there are none', async () => {
    fakeApi({ 'GET /api/admin/products': { body: [], headers: { 'X-Total-Count': '0' } } });
    const { unmount } = renderAdmin('/admin/products?q=nothing');
    expect(await screen.findByText('No products match.')).toBeInTheDocument();
    expect(screen.getByTestId('page-range')).toHaveTextContent('0 of 0');
    unmount();
    renderAdmin('/admin/products');
    expect(await screen.findByText('No Products found.')).toBeInTheDocument();
  });

  it("shows the server's message for a bad link, and tries again", async () => {
    let fail = true;
    fakeApi({
      'GET /api/admin/products': () =>
        fail
          ? { status: 400, body: { statusCode: 400, message: 'page must be a whole number from 1 to 1000000' } }
          : { body: [jersey], headers: { 'X-Total-Count': '1' } },
    });
    renderAdmin('/admin/products?page=0');
    expect(await screen.findByRole('alert')).toHaveTextContent('page must be a whole number from 1 to 1000000');
    expect(screen.queryByRole('navigation', { name: 'Products pages' })).not.toBeInTheDocument();
    fail = false;
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('row', { name: /Packers Home Jersey/ })).toBeInTheDocument();
  });
});

describe('admin users list: server paging, search, role filter and sort in the URL', () => {
  const fan = aUser({ _id: '65a0000000000000000000a2', name: 'Jane Fan', email: 'jane@example.com' });

  it('opens the view a link names, then searches, filters by role, sorts by email and pages', async () => {
    const calls = fakeApi({ 'GET /api/admin/users': { body: [me, fan], headers: { 'X-Total-Count': '52' } } });
    renderAdmin('/admin/users?q=fan&page=3');
    await screen.findByRole('row', { name: /Jane Fan/ });
    expect(lastGet(calls, '/api/admin/users')?.params).toEqual({ page: '3', q: 'fan' });
    expect(screen.getByTestId('page-range')).toHaveTextContent('51–52 of 52');
    expect(screen.getByRole('button', { name: 'Next' })).toBeDisabled();
    expect(screen.getByRole('searchbox', { name: 'Search users' })).toHaveValue('fan');

    const search = screen.getByRole('searchbox', { name: 'Search users' });
    await userEvent.clear(search);
    await userEvent.type(search, 'jane');
    await userEvent.click(screen.getByRole('button', { name: 'Search' }));
    await waitFor(() => expect(location()).toBe('/admin/users?q=jane'));
    await userEvent.selectOptions(screen.getByLabelText('Show'), 'admin');
    await waitFor(() => expect(location()).toBe('/admin/users?q=jane&role=admin'));
    await userEvent.click(screen.getByRole('button', { name: /Email/ }));
    await waitFor(() => expect(location()).toBe('/admin/users?q=jane&role=admin&sort=email'));
    expect(screen.getByRole('columnheader', { name: /Email/ })).toHaveAttribute('aria-sort', 'ascending');
    await waitFor(() =>
      expect(lastGet(calls, '/api/admin/users')?.params).toEqual({
        page: '1',
        q: 'jane',
        role: 'admin',
        sort: 'email',
      }),
    );
    await userEvent.click(screen.getByRole('button', { name: 'Next' }));
    await waitFor(() => expect(location()).toBe('/admin/users?q=jane&role=admin&sort=email&page=2'));
  });

  it('says "No users match." when the search finds nobody', async () => {
    fakeApi({ 'GET /api/admin/users': { body: [], headers: { 'X-Total-Count': '0' } } });
    renderAdmin('/admin/users?role=admin&q=zzz');
    expect(await screen.findByText('No users match.')).toBeInTheDocument();
  });
});
