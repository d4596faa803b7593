import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderWithProviders } from '@/test/utils';
import { SearchBar } from './SearchBar';

function Page() {
  return (
    <>
      <SearchBar />
      <main id="main" tabIndex={-1}>
        results
      </main>
    </>
  );
}

describe('header search by keyboard', () => {
  it('Escape closes it and gives focus back to the Search products button', async () => {
    renderWithProviders(<Page />);
    const user = userEvent.setup();
    await user.tab();
    expect(screen.getByRole('button', { name: 'Search products' })).toHaveFocus();
    await user.keyboard('{Enter}');
    expect(await screen.findByRole('combobox', { name: 'Search products' })).toHaveFocus();

    await user.keyboard('{Escape}');
    expect(screen.queryByRole('combobox')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Search products' })).toHaveFocus();
  });

  it('Close search gives focus back to the Search products button', async () => {
    renderWithProviders(<Page />);
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Search products' }));
    await screen.findByRole('combobox');
    await user.tab(); // the submit button
    await user.tab();
    expect(screen.getByRole('button', { name: 'Close search' })).toHaveFocus();
    await user.keyboard('{Enter}');
    expect(screen.getByRole('button', { name: 'Search products' })).toHaveFocus();
  });

  it('a search goes to the results and puts focus on the main area that shows them', async () => {
    renderWithProviders(<Page />, { route: '/collections/all' });
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Search products' }));
    await screen.findByRole('combobox');
    await user.keyboard('jersey{Enter}');
    expect(screen.getByTestId('location')).toHaveTextContent('/collections/all?search=jersey');
    expect(screen.getByRole('main')).toHaveFocus();
  });
});
