import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { aCart, aProduct, fakeApi, holdApi, renderWithProviders, variantsOf } from '@/test/utils';
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

describe('product details: stock per size and colour', () => {
  // sizes down (S, M, L), colours across (Green, White)
  const jersey = () => {
    const bare = aProduct();
    return aProduct({ variants: variantsOf(bare, [2, 0, 0, 4, 3, 1]) });
  };

  it('marks the sizes sold out in the colour picked, visibly and by name, and will not take one', async () => {
    const calls = fakeApi({});
    renderWithProviders(<ProductDetails product={jersey()} />);
    const user = userEvent.setup();
    // no colour yet: M has stock in White, so it is offered
    expect(screen.getByRole('button', { name: 'M' })).not.toHaveAttribute('aria-disabled');

    await user.click(screen.getByRole('button', { name: 'Green' }));
    const m = screen.getByRole('button', { name: 'M, sold out' });
    expect(m).toHaveAttribute('aria-disabled', 'true');
    // not only a faint strike-through: dark text on grey, a dashed edge, and the words
    expect(m).toHaveClass('text-gray-700', 'bg-gray-100', 'border-dashed');
    expect(m).toHaveTextContent('M sold out');
    expect(screen.getByRole('button', { name: 'S' })).not.toHaveAttribute('aria-disabled');

    await user.click(m);
    expect(m).toHaveAttribute('aria-pressed', 'false');
    await user.click(screen.getByRole('button', { name: 'Add to cart' }));
    expect(await screen.findByText('Please select a size and color before adding to cart.')).toBeInTheDocument();
    expect(calls).toHaveLength(0);
  });

  it('marks the colours sold out in the size picked', async () => {
    renderWithProviders(<ProductDetails product={jersey()} />);
    await userEvent.click(screen.getByRole('button', { name: 'S' }));
    expect(screen.getByRole('button', { name: 'White, sold out' })).toHaveAttribute('aria-disabled', 'true');
    expect(screen.getByRole('button', { name: 'Green' })).not.toHaveAttribute('aria-disabled');
  });

  it('says "Only 3 left" for a variant with 3, and the quantity stops at 3', async () => {
    const calls = fakeApi({ 'POST /api/cart': { body: aCart([{ quantity: 3 }]) } });
    renderWithProviders(<ProductDetails product={jersey()} />);
    const user = userEvent.setup();
    expect(screen.getByTestId('stock-note')).toBeEmptyDOMElement();
    await user.click(screen.getByRole('button', { name: 'Green' }));
    await user.click(screen.getByRole('button', { name: 'L' }));
    expect(screen.getByTestId('stock-note')).toHaveTextContent('Only 3 left in stock');
    const more = screen.getByRole('button', { name: 'Increase quantity' });
    for (let i = 0; i < 4; i++) if (!(more as HTMLButtonElement).disabled) await user.click(more);
    expect(screen.getByTestId('quantity')).toHaveTextContent('3');
    expect(more).toBeDisabled();

    // a variant with less stock lowers the quantity chosen
    await user.click(screen.getByRole('button', { name: 'White' }));
    expect(screen.getByTestId('stock-note')).toHaveTextContent('Only 1 left in stock');
    expect(screen.getByTestId('quantity')).toHaveTextContent('1');
    await user.click(screen.getByRole('button', { name: 'Add to cart' }));
    await screen.findByText('Product added to cart!');
    expect(calls[0].data).toMatchObject({ quantity: 1, size: 'L', color: 'White' });
  });

  it('says nothing about stock for a variant with more than 5', async () => {
    const bare = aProduct();
    renderWithProviders(<ProductDetails product={aProduct({ variants: variantsOf(bare, [6, 6, 6, 6, 6, 6]) })} />);
    await userEvent.click(screen.getByRole('button', { name: 'Green' }));
    await userEvent.click(screen.getByRole('button', { name: 'M' }));
    expect(screen.getByTestId('stock-note')).toBeEmptyDOMElement();
  });

  it('a product with every variant sold out cannot be added at all', () => {
    renderWithProviders(<ProductDetails product={aProduct({ countInStock: 0 })} />);
    expect(screen.getByRole('button', { name: 'Out of stock' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'M, sold out' })).toHaveAttribute('aria-disabled', 'true');
    expect(screen.getByRole('button', { name: 'Green, sold out' })).toHaveAttribute('aria-disabled', 'true');
  });
});
