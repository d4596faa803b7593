import { screen } from '@testing-library/react';
import { aProduct, fakeApi, renderWithProviders } from '@/test/utils';
import ProductPage from './ProductPage';

describe('product page: structured data', () => {
  it('tells search engines the product and its offer, and claims no rating (the seed’s are invented)', async () => {
    const product = aProduct({ rating: 4.8, numReviews: 264 });
    fakeApi({
      [`GET /api/products/${product._id}`]: { body: product },
      [`GET /api/products/similar/${product._id}`]: { body: [] },
    });
    const { container } = renderWithProviders(<ProductPage />, {
      route: `/product/${product._id}`,
      path: '/product/:id',
    });
    await screen.findByTestId('product-details');

    const script = container.querySelector('script[type="application/ld+json"]');
    const data = JSON.parse(script?.textContent ?? '{}');
    expect(data).toMatchObject({ '@type': 'Product', name: product.name, offers: { priceCurrency: 'GBP' } });
    expect(data).not.toHaveProperty('aggregateRating');
    expect(script?.textContent).not.toMatch(/rating|review/i);
  });
});
