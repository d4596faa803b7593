import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { WishlistItemJson, WishlistJson } from '@shop/contracts';
import WishlistPage from '@/pages/WishlistPage';
import { aCart, aProduct, fakeApi, renderWithProviders } from '@/test/utils';
import WishlistButton from './WishlistButton';

const GUEST = 'guest_1700000000000';

function anItem(overrides: Partial<WishlistItemJson> = {}): WishlistItemJson {
  const product = aProduct();
  return {
    productId: product._id,
    name: product.name,
    image: product.images[0].url,
    price: product.price,
    countInStock: product.countInStock,
    sizes: product.sizes,
    colors: product.colors,
    variants: product.variants,
    addedAt: '2026-11-01T10:00:00.000Z',
    ...overrides,
  };
}
const aList = (items: WishlistItemJson[]): WishlistJson => ({ guestId: GUEST, items, count: items.length, limit: 100 });

describe('the heart', () => {
  it('is a toggle button with one name, pressed once saved, and saves then removes with the guest id', async () => {
    const item = anItem();
    const calls = fakeApi({
      'POST /api/wishlist': { status: 201, body: aList([item]) },
      [`DELETE /api/wishlist/${item.productId}`]: { body: aList([]) },
    });
    renderWithProviders(<WishlistButton productId={item.productId} productName={item.name} />);
    const heart = screen.getByRole('button', { name: `Save to wishlist: ${item.name}` });
    expect(heart).toHaveAttribute('aria-pressed', 'false');
    await userEvent.click(heart);
    await waitFor(() => expect(heart).toHaveAttribute('aria-pressed', 'true'));
    await userEvent.click(heart);
    await waitFor(() => expect(heart).toHaveAttribute('aria-pressed', 'false'));
    expect(calls.map((c) => [c.method, c.url, c.data ?? c.params])).toEqual([
      ['POST', '/api/wishlist', { productId: item.productId, guestId: expect.stringMatching(/^guest_/) }],
      ['DELETE', `/api/wishlist/${item.productId}`, { guestId: expect.stringMatching(/^guest_/) }],
    ]);
  });

  it('says why when the list is full, and stays unpressed', async () => {
    const message = 'Your wishlist is full: it holds at most 100 items. Remove one to save another.';
    fakeApi({ 'POST /api/wishlist': { status: 409, body: { message, statusCode: 409 } } });
    renderWithProviders(<WishlistButton productId="65a000000000000000000009" productName="Cap" />);
    await userEvent.click(screen.getByRole('button', { name: 'Save to wishlist: Cap' }));
    expect(await screen.findByText(message)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Save to wishlist: Cap' })).toHaveAttribute('aria-pressed', 'false');
  });
});

describe('/wishlist', () => {
  it('says it is loading, then shows each product with its price and stock per size', async () => {
    const item = anItem({
      variants: [
        { sku: 'A-S-G', size: 'S', color: 'Green', countInStock: 0 },
        { sku: 'A-M-G', size: 'M', color: 'Green', countInStock: 3 },
      ],
      sizes: ['S', 'M'],
      colors: ['Green'],
      countInStock: 3,
    });
    fakeApi({ 'GET /api/wishlist': { body: aList([item]) } });
    renderWithProviders(<WishlistPage />);
    expect(screen.getByRole('status')).toHaveTextContent('Loading your wishlist...');
    const row = await screen.findByTestId('wishlist-item');
    expect(within(row).getByRole('heading', { name: item.name })).toBeInTheDocument();
    expect(row).toHaveTextContent('£99.99');
    expect(row).toHaveTextContent('S: sold out · M: 3 in stock');
  });

  it('moves a product to the cart in the size and colour chosen; the list and the cart follow', async () => {
    const item = anItem();
    const calls = fakeApi({
      'GET /api/wishlist': { body: aList([item]) },
      [`POST /api/wishlist/${item.productId}/move`]: {
        body: { cart: aCart([{ productId: item.productId, size: 'M', color: 'Green' }]), wishlist: aList([]) },
      },
    });
    const { store } = renderWithProviders(<WishlistPage />);
    const row = await screen.findByTestId('wishlist-item');
    await userEvent.click(within(row).getByRole('button', { name: `Move to cart: ${item.name}` }));
    expect(within(row).getByRole('alert')).toHaveTextContent('Choose a size and a colour first.');
    await userEvent.selectOptions(within(row).getByLabelText('Size'), 'M');
    await userEvent.selectOptions(within(row).getByLabelText('Colour'), 'Green');
    await userEvent.click(within(row).getByRole('button', { name: `Move to cart: ${item.name}` }));
    expect(await screen.findByTestId('wishlist-empty')).toHaveTextContent('Your wishlist is empty');
    const move = calls.find((c) => c.method === 'POST')!;
    expect(move.data).toMatchObject({ size: 'M', color: 'Green', quantity: 1 });
    expect(store.getState().cart.cart.products).toHaveLength(1);
    expect(store.getState().wishlist?.ids).toEqual([]);
  });

  it('shows the server’s message when the list cannot be read', async () => {
    fakeApi({
      'GET /api/wishlist': { status: 503, body: { message: 'Cart service is unavailable', statusCode: 503 } },
    });
    renderWithProviders(<WishlistPage />);
    expect(await screen.findByRole('alert')).toHaveTextContent('Error: Cart service is unavailable');
  });
});
