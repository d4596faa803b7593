import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Link, useSearchParams } from 'react-router-dom';
import { renderWithProviders } from '@/test/utils';
import { NewPageStart } from './Layout';

function Page() {
  const [params, setParams] = useSearchParams();
  return (
    <>
      <nav>
        <Link to="/product/1">Open the product</Link>
        <button type="button" onClick={() => setParams({ sortBy: 'priceAsc' })}>
          Sort {params.get('sortBy') ?? ''}
        </button>
      </nav>
      <main id="main" tabIndex={-1}>
        page
      </main>
      <NewPageStart />
    </>
  );
}

describe('a new page takes keyboard focus into its main area', () => {
  it('not on the first page of the visit', () => {
    renderWithProviders(<Page />, { route: '/' });
    expect(screen.getByRole('main')).not.toHaveFocus();
  });

  it('when a link (Enter) opens another page: focus leaves the gone link for the new main area', async () => {
    renderWithProviders(<Page />, { route: '/' });
    const user = userEvent.setup();
    await user.tab();
    expect(screen.getByRole('link', { name: 'Open the product' })).toHaveFocus();
    await user.keyboard('{Enter}');
    expect(screen.getByTestId('location')).toHaveTextContent('/product/1');
    expect(screen.getByRole('main')).toHaveFocus();
  });

  it('not when only the query changes (a filter or a sort on the same page keeps focus where it is)', async () => {
    renderWithProviders(<Page />, { route: '/collections/all' });
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: /^Sort/ }));
    expect(screen.getByTestId('location')).toHaveTextContent('/collections/all?sortBy=priceAsc');
    expect(screen.getByRole('button', { name: /^Sort priceAsc/ })).toHaveFocus();
  });
});
