import { screen } from '@testing-library/react';
import { aProduct, fakeApi, renderWithProviders } from '@/test/utils';
import { NewArrivals } from './NewArrivals';

const scrollButtons = () => [
  screen.queryByRole('button', { name: 'Scroll new arrivals left' }),
  screen.queryByRole('button', { name: 'Scroll new arrivals right' }),
];

describe('home: the New Arrivals strip', () => {
  it('shows each new product as a link to its page, with its price', async () => {
    fakeApi({
      'GET /api/products/new-arrivals': {
        body: [aProduct(), aProduct({ _id: '65a000000000000000000002', name: 'Ravens Hoodie', price: 64.5 })],
      },
    });
    renderWithProviders(<NewArrivals />);
    const hoodie = await screen.findByRole('link', { name: /Ravens Hoodie/ });
    expect(hoodie).toHaveAttribute('href', '/product/65a000000000000000000002');
    expect(hoodie).toHaveTextContent('£64.50');
    expect(screen.getAllByRole('link')).toHaveLength(2);
  });

  it('says "Sold out" on a product with nothing left', async () => {
    fakeApi({
      'GET /api/products/new-arrivals': {
        body: [aProduct(), aProduct({ _id: '65a000000000000000000002', name: 'Ravens Hoodie', countInStock: 0 })],
      },
    });
    renderWithProviders(<NewArrivals />);
    expect(await screen.findByRole('link', { name: /Ravens Hoodie/ })).toHaveTextContent('Sold out');
    expect(screen.getByRole('link', { name: /Home Game Jersey/ })).not.toHaveTextContent('Sold out');
  });

  it('says "Failed to load new arrivals" when they cannot be loaded, without a strip to scroll', async () => {
    fakeApi({
      'GET /api/products/new-arrivals': { status: 503, body: { message: 'Catalog is unavailable', statusCode: 503 } },
    });
    renderWithProviders(<NewArrivals />);
    expect(await screen.findByText('Failed to load new arrivals')).toBeInTheDocument();
    expect(screen.queryByTestId('new-arrivals')).not.toBeInTheDocument();
    expect(scrollButtons()).toEqual([null, null]);
  });

  it('says "No new arrivals available at the moment." when there are none', async () => {
    fakeApi({ 'GET /api/products/new-arrivals': { body: [] } });
    renderWithProviders(<NewArrivals />);
    expect(await screen.findByText('No new arrivals available at the moment.')).toBeInTheDocument();
    expect(screen.queryByText('Failed to load new arrivals')).not.toBeInTheDocument();
    expect(scrollButtons()).toEqual([null, null]);
  });
});
