import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { aCart, aProduct, fakeApi, holdApi, renderWithProviders } from '@/test/utils';
import { ProductDetails } from './ProductDetails';

describe('product details: add to cart', () => {
  it('asks for a size and a colour first', async () => {
    const calls = fakeApi({});
    renderWithProviders(<ProductDetails product={aProduct()} />);
    await userEvent.click(screen.getByRole('button', { name: 'Add to cart' }));
    expect(await screen.findByText('Please select a size and color before adding to cart.')).toBeInTheDocument();
    expect(calls).toHaveLength(0);
  });

  it('reads "Adding..." and is disabled until the add is done, then says it was added', async () => {
    const calls = fakeApi({ 'POST /api/cart': { body: aCart([{ quantity: 2 }]) } });
    const answer = holdApi();

    const { store } = renderWithProviders(<ProductDetails product={aProduct()} />);
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Green' }));
    await user.click(screen.getByRole('button', { name: 'M' }));
    await user.click(screen.getByRole('button', { name: 'Increase quantity' }));
    await user.click(screen.getByRole('button', { name: 'Add to cart' }));

    const button = screen.getByRole('button', { name: 'Adding...' });
    expect(button).toBeDisabled();
    expect(screen.queryByText('Product added to cart!')).not.toBeInTheDocument();
    answer();
    expect(await screen.findByText('Product added to cart!')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Add to cart' })).toBeEnabled();
    expect(calls[0].data).toMatchObject({ productId: aProduct()._id, quantity: 2, size: 'M', color: 'Green' });
    expect(store.getState().cart.cart.products[0].quantity).toBe(2);
  });

  it('never lets the quantity go below 1', async () => {
    renderWithProviders(<ProductDetails product={aProduct()} />);
    expect(screen.getByRole('button', { name: 'Decrease quantity' })).toBeDisabled();
    expect(screen.getByTestId('quantity')).toHaveTextContent('1');
  });

  it('says why an add failed and does not claim success', async () => {
    fakeApi({ 'POST /api/cart': { status: 409, body: { message: 'Only 1 left in stock', statusCode: 409 } } });
    renderWithProviders(<ProductDetails product={aProduct()} />);
    await userEvent.click(screen.getByRole('button', { name: 'White' }));
    await userEvent.click(screen.getByRole('button', { name: 'L' }));
    await userEvent.click(screen.getByRole('button', { name: 'Add to cart' }));
    expect(await screen.findByText('Only 1 left in stock')).toBeInTheDocument();
    expect(screen.queryByText('Product added to cart!')).not.toBeInTheDocument();
  });

  it('shows the original price struck through beside the price, in pounds', () => {
    renderWithProviders(<ProductDetails product={aProduct({ price: 99.99, originalPrice: 119.99 })} />);
    const price = screen.getByTestId('product-price');
    expect(price.querySelector('s')).toHaveTextContent('£119.99');
    expect(price).toHaveTextContent('£99.99');
  });
});
