import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { REVIEW_MESSAGES, type AdminReviewJson, type ReviewJson } from '@shop/contracts';
import { initialAuthState } from '@/features/auth/authSlice';
import { aProduct, aUser, fakeApi, renderWithProviders } from '@/test/utils';
import ProductReviews from './ProductReviews';

const product = aProduct({ rating: 0, numReviews: 0 });
const url = `/api/products/${product._id}/reviews`;

function aReview(i: number, overrides: Partial<ReviewJson> = {}): ReviewJson {
  return {
    _id: `66a0000000000000000000${String(i).padStart(2, '0')}`,
    productId: product._id,
    author: `Fan ${i}.`,
    rating: 4,
    comment: `Review number ${i}`,
    createdAt: new Date(Date.UTC(2025, 0, 30 - i)).toISOString(),
    ...overrides,
  };
}

const signedIn = (role: 'customer' | 'admin' = 'customer') => ({
  preloadedState: { auth: { ...initialAuthState(), user: aUser({ role }), token: 't' } },
});

describe('product reviews', () => {
  it('says "No reviews yet" for a product without reviews, and shows no form to a guest', async () => {
    const calls = fakeApi({ [`GET ${url}`]: { body: [], headers: { 'x-total-count': '0' } } });
    renderWithProviders(<ProductReviews product={product} />);
    expect(await screen.findByText('No reviews yet')).toBeInTheDocument();
    await screen.findByRole('list', { name: 'Reviews, newest first' });
    expect(screen.queryByRole('form', { name: 'Write a review' })).not.toBeInTheDocument();
    expect(calls.map((c) => c.url)).toEqual([url]); // a guest is not asked about
  });

  it('shows the average with stars as "4.5 out of 5, 12 reviews", newest first, and loads more', async () => {
    const first = Array.from({ length: 10 }, (_, i) => aReview(i));
    const second = [aReview(10), aReview(11, { rating: 1, comment: 'Shrank in the wash' })];
    const calls = fakeApi({
      [`GET ${url}`]: (call) => ({
        body: call.params?.page === 2 ? second : first,
        headers: { 'x-total-count': '12' },
      }),
    });
    renderWithProviders(<ProductReviews product={{ ...product, rating: 4.46, numReviews: 12 }} />);

    expect(screen.getByText('4.5 out of 5, 12 reviews')).toBeInTheDocument();
    expect(await screen.findAllByTestId('review')).toHaveLength(10);
    expect(screen.getAllByTestId('review')[0]).toHaveTextContent('Review number 0');
    expect(within(screen.getAllByTestId('review')[0]).getByText('4 out of 5')).toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'Load more reviews' }));
    expect(await screen.findByText('Shrank in the wash')).toBeInTheDocument();
    expect(screen.getAllByTestId('review')).toHaveLength(12);
    expect(screen.queryByRole('button', { name: 'Load more reviews' })).not.toBeInTheDocument();
    expect(calls.map((c) => c.params)).toEqual([{ page: 1 }, { page: 2 }]);
  });

  it('lets a customer who received it rate and review it, with errors that clear, then shows the new average', async () => {
    const posted = aReview(1, { author: 'Jane F.', rating: 5, comment: 'Perfect fit' });
    const calls = fakeApi({
      [`GET ${url}`]: () =>
        calls.some((c) => c.method === 'POST')
          ? { body: [posted], headers: { 'x-total-count': '1' } }
          : { body: [], headers: { 'x-total-count': '0' } },
      'GET /api/reviews/mine': { body: { canReview: true, review: null } },
      [`POST ${url}`]: { status: 201, body: posted },
      [`GET /api/products/${product._id}`]: { body: { ...product, rating: 5, numReviews: 1 } },
    });
    const user = userEvent.setup();
    renderWithProviders(<ProductReviews product={product} />, signedIn());

    const form = await screen.findByRole('form', { name: 'Write a review' });
    await user.click(within(form).getByRole('button', { name: 'Post review' }));
    expect(within(form).getByRole('alert')).toHaveTextContent(REVIEW_MESSAGES.chooseRating);
    await user.click(within(form).getByRole('radio', { name: '5 stars' }));
    expect(within(form).queryByRole('alert')).not.toBeInTheDocument(); // cleared by the change

    await user.click(within(form).getByRole('button', { name: 'Post review' }));
    expect(within(form).getByRole('alert')).toHaveTextContent(REVIEW_MESSAGES.commentRequired);
    await user.type(within(form).getByLabelText('Your review'), '  Perfect fit  ');
    expect(within(form).queryByRole('alert')).not.toBeInTheDocument();
    await user.click(within(form).getByRole('button', { name: 'Post review' }));

    expect(await screen.findByText('5 out of 5, 1 review')).toBeInTheDocument();
    expect(calls.find((c) => c.method === 'POST')?.data).toEqual({ rating: 5, comment: 'Perfect fit' });
    expect(screen.queryByRole('form', { name: 'Write a review' })).not.toBeInTheDocument();
    expect(await screen.findByText('Perfect fit')).toBeInTheDocument();
    expect(screen.getByText(/You reviewed this product on/)).toBeInTheDocument();
  });

  it("shows the server's refusal in the form", async () => {
    fakeApi({
      [`GET ${url}`]: { body: [], headers: { 'x-total-count': '0' } },
      'GET /api/reviews/mine': { body: { canReview: true, review: null } },
      [`POST ${url}`]: { status: 409, body: { message: REVIEW_MESSAGES.alreadyReviewed, statusCode: 409 } },
    });
    const user = userEvent.setup();
    renderWithProviders(<ProductReviews product={product} />, signedIn());
    const form = await screen.findByRole('form', { name: 'Write a review' });
    await user.click(within(form).getByRole('radio', { name: '3 stars' }));
    await user.type(within(form).getByLabelText('Your review'), 'Fine');
    await user.click(within(form).getByRole('button', { name: 'Post review' }));
    expect(await within(form).findByRole('alert')).toHaveTextContent(REVIEW_MESSAGES.alreadyReviewed);
    expect(within(form).getByRole('button', { name: 'Post review' })).toBeEnabled();
  });

  it('tells a customer without a delivered order why there is no form', async () => {
    fakeApi({
      [`GET ${url}`]: { body: [], headers: { 'x-total-count': '0' } },
      'GET /api/reviews/mine': { body: { canReview: false, reason: 'not-delivered', review: null } },
    });
    renderWithProviders(<ProductReviews product={product} />, signedIn());
    expect(await screen.findByText(`${REVIEW_MESSAGES.notDelivered}.`)).toBeInTheDocument();
    expect(screen.queryByRole('form', { name: 'Write a review' })).not.toBeInTheDocument();
  });

  it('shows an admin every review, hidden ones marked, and hides or unhides one', async () => {
    const adminReview = (i: number, hidden: boolean): AdminReviewJson => ({
      ...aReview(i),
      userId: '65a0000000000000000000bb',
      hidden,
      updatedAt: '2025-02-01T00:00:00.000Z',
    });
    let hiddenNow = false;
    const calls = fakeApi({
      'GET /api/admin/reviews': () => ({
        body: [adminReview(1, hiddenNow), adminReview(2, true)],
        headers: { 'x-total-count': '2' },
      }),
      'GET /api/reviews/mine': { body: { canReview: false, reason: 'not-delivered', review: null } },
      'PUT /api/admin/reviews/66a000000000000000000001': (call) => {
        hiddenNow = (call.data as { hidden: boolean }).hidden;
        return { body: adminReview(1, hiddenNow) };
      },
      [`GET /api/products/${product._id}`]: { body: product },
    });
    const user = userEvent.setup();
    renderWithProviders(<ProductReviews product={product} />, signedIn('admin'));

    expect(await screen.findAllByTestId('review')).toHaveLength(2);
    expect(calls[0]).toMatchObject({ url: '/api/admin/reviews', params: { productId: product._id, page: 1 } });
    expect(screen.getAllByText('Hidden')).toHaveLength(1);
    await user.click(screen.getByRole('button', { name: 'Hide the review by Fan 1.' }));
    expect(await screen.findByRole('button', { name: 'Unhide the review by Fan 1.' })).toBeInTheDocument();
    expect(screen.getAllByText('Hidden')).toHaveLength(2);
    expect(calls.find((c) => c.method === 'PUT')?.data).toEqual({ hidden: true });
  });

  it('says when the reviews cannot be loaded', async () => {
    fakeApi({ [`GET ${url}`]: { status: 503, body: { message: 'Catalog service is unavailable', statusCode: 503 } } });
    renderWithProviders(<ProductReviews product={product} />);
    expect(await screen.findByText('Error: Catalog service is unavailable')).toBeInTheDocument();
  });
});
