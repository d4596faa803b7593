import { act, render, screen } from '@testing-library/react';
import type { ReactNode } from 'react';
import { Provider } from 'react-redux';
import { MemoryRouter } from 'react-router-dom';
import { makeStore } from '@/app/store';
import type { ProductJson } from '@shop/contracts';
import { aProduct, variantsOf } from '@/test/utils';
import { CARDS_PER_TASK, ProductGrid } from './ProductGrid';

const products = (n: number, tag = 'p'): ProductJson[] =>
  Array.from({ length: n }, (_, i) => aProduct({ _id: `${tag}${i}`, name: `Product ${tag}${i}` }));
/** The cards' hearts read the store: a store and a router around the grid. */
function Shop({ children }: { children: ReactNode }) {
  return (
    <Provider store={makeStore()}>
      <MemoryRouter>{children}</MemoryRouter>
    </Provider>
  );
}
const cards = () => screen.queryAllByTestId('product-card');
const grid = () => screen.getByTestId('product-grid');
/** Runs the grid's batches until none is left (each batch schedules the next once it is committed). */
const addEveryBatch = () => {
  while (jest.getTimerCount()) act(() => jest.runOnlyPendingTimers());
};

describe('product grid: a long list is added a batch a task', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('shows a short list whole at once, not busy', () => {
    render(<ProductGrid products={products(8)} />, { wrapper: Shop });
    expect(cards()).toHaveLength(8);
    expect(grid()).not.toHaveAttribute('aria-busy');
  });

  it('adds a long list a batch a task (no IntersectionObserver here), in order, then no Show more', () => {
    const list = products(2 * CARDS_PER_TASK + 5);
    render(<ProductGrid products={list} />, { wrapper: Shop });
    expect(cards()).toHaveLength(CARDS_PER_TASK);
    expect(grid()).not.toHaveAttribute('aria-busy');
    act(() => jest.advanceTimersToNextTimer());
    expect(cards()).toHaveLength(2 * CARDS_PER_TASK);
    act(() => jest.advanceTimersToNextTimer());
    expect(cards()).toHaveLength(list.length);
    expect(screen.queryByRole('button', { name: /Show more products/ })).not.toBeInTheDocument();
    expect(cards().map((c) => c.textContent)).toEqual(list.map((p) => expect.stringContaining(p.name)));
  });

  describe('with IntersectionObserver', () => {
    let near = false;
    const observers: Array<{ fire: () => void }> = [];
    beforeEach(() => {
      near = false;
      observers.length = 0;
      (globalThis as { IntersectionObserver?: unknown }).IntersectionObserver = class {
        constructor(private readonly callback: (entries: Array<{ isIntersecting: boolean }>) => void) {
          observers.push(this);
        }
        fire() {
          this.callback([{ isIntersecting: near }]);
        }
        observe() {
          this.fire();
        }
        disconnect() {}
      };
    });
    afterEach(() => delete (globalThis as { IntersectionObserver?: unknown }).IntersectionObserver);

    it('adds a batch only as the end of the list nears the screen, or when Show more is pressed', () => {
      const list = products(3 * CARDS_PER_TASK);
      render(<ProductGrid products={list} />, { wrapper: Shop });
      act(() => jest.runOnlyPendingTimers());
      expect(cards()).toHaveLength(CARDS_PER_TASK); // far from the screen: nothing more
      const more = screen.getByRole('button', {
        name: `Show more products (${CARDS_PER_TASK} of ${list.length} shown)`,
      });
      act(() => more.click());
      expect(cards()).toHaveLength(2 * CARDS_PER_TASK);
      near = true; // scrolled near the end
      act(() => observers.at(-1)!.fire());
      act(() => jest.runOnlyPendingTimers());
      expect(cards()).toHaveLength(list.length);
      expect(screen.queryByRole('button', { name: /Show more products/ })).not.toBeInTheDocument();
    });
  });

  it('starts a new list from its first batch', () => {
    const { rerender } = render(<ProductGrid products={products(30)} />, { wrapper: Shop });
    addEveryBatch();
    expect(cards()).toHaveLength(30);
    rerender(<ProductGrid products={products(20, 'q')} />);
    expect(cards()).toHaveLength(CARDS_PER_TASK);
    expect(cards()[0]).toHaveTextContent('Product q0');
    addEveryBatch();
    expect(cards()).toHaveLength(20);
    expect(grid()).not.toHaveAttribute('aria-busy');
  });
});

describe('product card: sold out', () => {
  it('says "Sold out" on a product whose every variant is at 0, and only there', () => {
    const bare = aProduct();
    const gone = aProduct({ _id: 'gone', name: 'Gone Jersey', countInStock: 0 });
    const lastOne = aProduct({ _id: 'last', name: 'Last Jersey', variants: variantsOf(bare, [0, 0, 0, 0, 0, 1]) });
    render(<ProductGrid products={[gone, lastOne]} />, { wrapper: Shop });
    const [goneCard, lastCard] = cards();
    expect(goneCard).toHaveTextContent('Sold out');
    expect(screen.getByRole('link', { name: /Gone Jersey/ })).toHaveAccessibleName(expect.stringContaining('Sold out'));
    expect(lastCard).not.toHaveTextContent('Sold out');
  });
});
