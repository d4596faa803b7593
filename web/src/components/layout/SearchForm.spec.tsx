import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { InternalAxiosRequestConfig, AxiosResponse } from 'axios';
import type { ProductSuggestionJson, ProductSuggestionsJson } from '@shop/contracts';
import { api } from '@/api/client';
import { fakeApi, renderWithProviders } from '@/test/utils';
import { SearchBar } from './SearchBar';

jest.setTimeout(20_000);

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

const suggestion = (name: string, id: string): ProductSuggestionJson => ({
  name,
  team: 'Green Bay Packers',
  price: 64.99,
  thumbnail: `/uploads/seed/${id}.svg`,
  url: `/product/${id}`,
});
const HOODIES = [suggestion('Packers Fleece Hoodie', 'a1'), suggestion('Packers Cropped Hoodie', 'a2')];

async function openSearch() {
  const user = userEvent.setup();
  await user.click(screen.getByRole('button', { name: 'Search products' }));
  const box = await screen.findByRole('combobox', { name: 'Search products' });
  return { user, box };
}

describe('header search suggestions (combobox)', () => {
  it('asks from the second character, once typing pauses, and shows the suggestions as a listbox', async () => {
    const calls = fakeApi({
      'GET /api/products/suggest': { body: { suggestions: HOODIES, didYouMean: null } },
    });
    renderWithProviders(<Page />);
    const { user, box } = await openSearch();
    expect(box).toHaveAttribute('aria-expanded', 'false');
    expect(box).toHaveAttribute('aria-controls', 'search-suggestions');
    await user.keyboard('p');
    await new Promise((r) => setTimeout(r, 300));
    expect(calls).toHaveLength(0); // one character: nothing asked
    await user.keyboard('akers hod');
    const options = await screen.findAllByRole('option');
    expect(calls).toHaveLength(1); // debounced: one request for the whole word
    expect(calls[0].params).toEqual({ q: 'pakers hod' });
    expect(options.map((o) => o.textContent)).toEqual([
      expect.stringContaining('Packers Fleece Hoodie'),
      expect.stringContaining('Packers Cropped Hoodie'),
    ]);
    expect(options[0]).toHaveTextContent('£64.99');
    expect(box).toHaveAttribute('aria-expanded', 'true');
    expect(screen.getByRole('listbox', { name: 'Suggested products' })).toHaveAttribute('id', 'search-suggestions');
    expect(screen.getByRole('status')).toHaveTextContent('2 products suggested');
  });

  it('moves with ArrowDown/ArrowUp (wrapping), opens the chosen product with Enter', async () => {
    fakeApi({ 'GET /api/products/suggest': { body: { suggestions: HOODIES, didYouMean: null } } });
    renderWithProviders(<Page />);
    const { user, box } = await openSearch();
    await user.keyboard('packers');
    await screen.findAllByRole('option');
    expect(box).not.toHaveAttribute('aria-activedescendant');
    await user.keyboard('{ArrowDown}');
    expect(box).toHaveAttribute('aria-activedescendant', 'search-suggestions-0');
    expect(screen.getAllByRole('option')[0]).toHaveAttribute('aria-selected', 'true');
    await user.keyboard('{ArrowDown}');
    expect(box).toHaveAttribute('aria-activedescendant', 'search-suggestions-1');
    await user.keyboard('{ArrowDown}');
    expect(box).toHaveAttribute('aria-activedescendant', 'search-suggestions-0');
    await user.keyboard('{ArrowUp}');
    expect(box).toHaveAttribute('aria-activedescendant', 'search-suggestions-1');
    await user.keyboard('{Enter}');
    expect(screen.getByTestId('location')).toHaveTextContent('/product/a2');
    expect(screen.queryByRole('combobox')).not.toBeInTheDocument();
    expect(screen.getByRole('main')).toHaveFocus();
  });

  it('searches with Enter when no suggestion is chosen', async () => {
    fakeApi({ 'GET /api/products/suggest': { body: { suggestions: HOODIES, didYouMean: null } } });
    renderWithProviders(<Page />, { route: '/' });
    const { user } = await openSearch();
    await user.keyboard('packers');
    await screen.findAllByRole('option');
    await user.keyboard('{Enter}');
    expect(screen.getByTestId('location')).toHaveTextContent('/collections/all?search=packers');
  });

  it('Escape closes the list first, keeping the text, then the search', async () => {
    fakeApi({ 'GET /api/products/suggest': { body: { suggestions: HOODIES, didYouMean: null } } });
    renderWithProviders(<Page />);
    const { user, box } = await openSearch();
    await user.keyboard('packers');
    await screen.findAllByRole('option');
    await user.keyboard('{ArrowDown}{Escape}');
    expect(box).toHaveAttribute('aria-expanded', 'false');
    expect(box).not.toHaveAttribute('aria-activedescendant');
    expect(box).toHaveValue('packers');
    expect(screen.queryByRole('option')).not.toBeInTheDocument();
    await user.keyboard('{ArrowDown}'); // opens it again
    expect(box).toHaveAttribute('aria-expanded', 'true');
    await user.keyboard('{Escape}{Escape}');
    expect(screen.queryByRole('combobox')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Search products' })).toHaveFocus();
  });

  it('shows the last answer: a request overtaken by newer typing is aborted and never replaces the newer list', async () => {
    const pending: Array<{ q: string; signal: AbortSignal; resolve: (body: ProductSuggestionsJson) => void }> = [];
    api.defaults.adapter = (config: InternalAxiosRequestConfig) =>
      new Promise<AxiosResponse>((resolve) => {
        pending.push({
          q: (config.params as { q: string }).q,
          signal: config.signal as AbortSignal,
          resolve: (data) => resolve({ data, status: 200, statusText: 'OK', headers: {}, config }),
        });
      });
    renderWithProviders(<Page />);
    const { user } = await openSearch();
    await user.keyboard('pa');
    await waitFor(() => expect(pending).toHaveLength(1));
    await user.keyboard('c');
    await waitFor(() => expect(pending).toHaveLength(2));
    expect(pending[0]).toMatchObject({ q: 'pa' });
    expect(pending[0].signal.aborted).toBe(true);
    expect(pending[1]).toMatchObject({ q: 'pac' });
    await act(async () => pending[1].resolve({ suggestions: [suggestion('Newer Answer', 'n1')], didYouMean: null }));
    await screen.findByRole('option', { name: /Newer Answer/ });
    // the old answer arrives late: ignored
    await act(async () => pending[0].resolve({ suggestions: [suggestion('Stale Answer', 's1')], didYouMean: null }));
    expect(screen.getAllByRole('option').map((o) => o.textContent)).toEqual([expect.stringContaining('Newer Answer')]);
  });

  it('says so when nothing matches, offering the spelling it may have meant', async () => {
    const calls = fakeApi({
      'GET /api/products/suggest': (call) =>
        call.params?.q === 'packers hoodie'
          ? { body: { suggestions: HOODIES, didYouMean: null } }
          : { body: { suggestions: [], didYouMean: 'packers hoodie' } },
    });
    renderWithProviders(<Page />);
    const { user, box } = await openSearch();
    await user.keyboard('pakkers hodiee');
    expect(await screen.findByText(/No products match “pakkers hodiee”/, { selector: 'p' })).toBeVisible();
    expect(box).toHaveAttribute('aria-expanded', 'false'); // no listbox to show
    expect(screen.getByRole('status')).toHaveTextContent(
      'No products match “pakkers hodiee”. Did you mean packers hoodie?',
    );
    await user.click(screen.getByRole('button', { name: 'packers hoodie' }));
    expect(box).toHaveValue('packers hoodie');
    await screen.findAllByRole('option');
    expect(calls.at(-1)?.params).toEqual({ q: 'packers hoodie' });
  });

  it('shows that it is searching, and an error that still lets Enter search', async () => {
    let answer: (() => void) | undefined;
    api.defaults.adapter = (config: InternalAxiosRequestConfig) =>
      new Promise<AxiosResponse>((_resolve, reject) => {
        answer = () => reject(Object.assign(new Error('Network Error'), { config }));
      });
    renderWithProviders(<Page />);
    const { user } = await openSearch();
    await user.keyboard('packers');
    expect(await screen.findByText('Searching…')).toBeVisible();
    expect(screen.getByRole('combobox')).toHaveAttribute('aria-expanded', 'false');
    await waitFor(() => expect(answer).toBeDefined());
    await act(async () => answer!());
    expect(
      await screen.findByText('Suggestions are unavailable. Press Enter to search.', { selector: 'p' }),
    ).toBeVisible();
    expect(screen.getByRole('status')).toHaveTextContent('Suggestions are unavailable');
    await user.keyboard('{Enter}');
    expect(screen.getByTestId('location')).toHaveTextContent('/collections/all?search=packers');
  });
});
