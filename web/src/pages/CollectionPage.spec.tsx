import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { aProduct, fakeApi, renderWithProviders } from '@/test/utils';
import CollectionPage, { SETTLE_MS } from './CollectionPage';

const location = () => screen.getByTestId('location').textContent;
const lastProductsCall = (calls: ReturnType<typeof fakeApi>) => calls.filter((c) => c.url === '/api/products').at(-1);

describe('collection page: filters and sort live in the query string', () => {
  it('restores the filters of a shared link and asks the API for them', async () => {
    const calls = fakeApi({ 'GET /api/products': { body: [aProduct()] } });
    renderWithProviders(<CollectionPage />, {
      route: '/collections/all?gender=Women&size=M,L&sortBy=priceDesc',
      path: '/collections/:collection',
    });
    await screen.findAllByText("Green Bay Packers Men's Home Game Jersey");
    expect(lastProductsCall(calls)?.params).toEqual({ gender: 'Women', size: 'M,L', sortBy: 'priceDesc' });
    const sidebar = screen.getAllByTestId('filters')[0];
    expect(sidebar.querySelector<HTMLInputElement>('input[name="gender"][value="Women"]')?.checked).toBe(true);
    expect(sidebar.querySelector<HTMLInputElement>('input[type="checkbox"][value="M"]')?.checked).toBe(true);
    expect(sidebar.querySelector<HTMLInputElement>('input[type="checkbox"][value="XS"]')?.checked).toBe(false);
    expect(screen.getByLabelText('Sort by')).toHaveValue('priceDesc');
  });

  it('writes each choice into the URL and fetches again', async () => {
    const calls = fakeApi({ 'GET /api/products': { body: [] } });
    renderWithProviders(<CollectionPage />, { route: '/collections/all', path: '/collections/:collection' });
    expect(await screen.findByText('No Products found.')).toBeInTheDocument();
    const user = userEvent.setup();
    const sidebar = screen.getAllByTestId('filters')[0];

    await user.click(sidebar.querySelector<HTMLInputElement>('input[type="checkbox"][value="Cotton"]')!);
    await user.click(sidebar.querySelector<HTMLButtonElement>('button[aria-label="Navy"]')!);
    await user.selectOptions(screen.getByLabelText('Sort by'), 'priceAsc');
    expect(location()).toBe('/collections/all?material=Cotton&color=Navy&sortBy=priceAsc');
    await waitFor(() =>
      expect(lastProductsCall(calls)?.params).toEqual({ material: 'Cotton', color: 'Navy', sortBy: 'priceAsc' }),
    );
  });

  it('moves only the maximum price, and never sends the default maximum', async () => {
    const calls = fakeApi({ 'GET /api/products': { body: [] } });
    renderWithProviders(<CollectionPage />, {
      route: '/collections/all?maxPrice=100',
      path: '/collections/:collection',
    });
    await screen.findByText('No Products found.');
    const slider = screen.getAllByLabelText('Price Range')[0];
    expect(slider).toHaveValue('100');
    act(() => {
      fireEvent.change(slider, { target: { value: '500' } });
    });
    expect(location()).toBe('/collections/all');
    await waitFor(() => expect(lastProductsCall(calls)?.params).toEqual({}));
  });

  it('asks for the first list at once, and for a changed one after the filters settle', async () => {
    const calls = fakeApi({ 'GET /api/products': { body: [aProduct()] } });
    const listCalls = () => calls.filter((c) => c.url === '/api/products');
    renderWithProviders(<CollectionPage />, { route: '/collections/all', path: '/collections/:collection' });
    // well before SETTLE_MS: only axios's own promise steps between the first render and the request
    await act(() => new Promise((resolve) => setTimeout(resolve, SETTLE_MS / 6)));
    expect(listCalls()).toHaveLength(1);
    await screen.findAllByText("Green Bay Packers Men's Home Game Jersey");

    fireEvent.change(screen.getByLabelText('Sort by'), { target: { value: 'priceAsc' } });
    await act(() => Promise.resolve());
    expect(listCalls()).toHaveLength(1);
    await waitFor(() => expect(listCalls()).toHaveLength(2));
    expect(listCalls()[1].params).toEqual({ sortBy: 'priceAsc' });
  });

  it('shows the server message of a failed list', async () => {
    fakeApi({ 'GET /api/products': { status: 400, body: { message: 'Invalid filter', statusCode: 400 } } });
    renderWithProviders(<CollectionPage />, { route: '/collections/all', path: '/collections/:collection' });
    expect(await screen.findByText('Error: Invalid filter')).toBeInTheDocument();
  });
});

describe('collection page: the Filters button (small screens)', () => {
  it('says whether the filters panel it controls is open', async () => {
    fakeApi({ 'GET /api/products': { body: [] } });
    renderWithProviders(<CollectionPage />, { route: '/collections/all', path: '/collections/:collection' });
    await screen.findByText('No Products found.');
    const button = screen.getByRole('button', { name: 'Filters' });
    expect(button).toHaveAttribute('aria-expanded', 'false');
    const panelId = button.getAttribute('aria-controls');
    expect(panelId).toBeTruthy();

    const user = userEvent.setup();
    await user.click(button);
    expect(button).toHaveAttribute('aria-expanded', 'true');
    expect(await screen.findByRole('dialog', { name: 'Filters' })).toHaveAttribute('id', panelId);

    await user.click(screen.getByRole('button', { name: 'Close filters' }));
    expect(button).toHaveAttribute('aria-expanded', 'false');
  });
});

describe('collection page: a search that finds nothing', () => {
  it('says "Did you mean …" with a link to that search, the other filters kept', async () => {
    const calls = fakeApi({
      'GET /api/products': (call) => ({ body: call.params?.search === 'packers hoodie' ? [aProduct()] : [] }),
      'GET /api/products/suggest': { body: { suggestions: [], didYouMean: 'packers hoodie' } },
    });
    renderWithProviders(<CollectionPage />, {
      route: '/collections/all?search=pakkers+hodiee&gender=Men',
      path: '/collections/:collection',
    });
    await screen.findByText('No Products found.');
    const link = await screen.findByRole('link', { name: 'packers hoodie' });
    expect(link.closest('p')).toHaveTextContent('Did you mean packers hoodie?');
    expect(calls.find((c) => c.url === '/api/products/suggest')?.params).toEqual({ q: 'pakkers hodiee' });
    await userEvent.setup().click(link);
    expect(location()).toBe('/collections/all?search=packers+hoodie&gender=Men');
    await screen.findAllByText("Green Bay Packers Men's Home Game Jersey");
    expect(screen.queryByText(/Did you mean/)).not.toBeInTheDocument();
  });

  it('says nothing more when the catalog has no better spelling', async () => {
    const calls = fakeApi({
      'GET /api/products': { body: [] },
      'GET /api/products/suggest': { body: { suggestions: [], didYouMean: null } },
    });
    renderWithProviders(<CollectionPage />, {
      route: '/collections/all?search=qqqq',
      path: '/collections/:collection',
    });
    await screen.findByText('No Products found.');
    await waitFor(() => expect(calls.some((c) => c.url === '/api/products/suggest')).toBe(true));
    expect(screen.queryByText(/Did you mean/)).not.toBeInTheDocument();
  });
});
