import { lazy, Suspense, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useParams, useSearchParams } from 'react-router-dom';
import { useAppDispatch, useDeferredSelector } from '@/app/hooks';
import { LazyDrawer, loadDrawer } from '@/components/LazyDrawer';
import { IconFilter } from '@/components/icons';
import { fetchProductsByFilters } from '@/features/catalog/catalogSlice';
import { FilterSidebar } from '@/features/catalog/FilterSidebar';
import {
  activeFilterCount,
  parseFilters,
  toProductQuery,
  toSearchParams,
  type Filters,
} from '@/features/catalog/filters';
import { ProductGrid } from '@/features/catalog/ProductGrid';
import { SortOptions } from '@/features/catalog/SortOptions';
import { reloadForNewBuild } from '@/lib/reload';
import { usePageMeta } from '@/lib/usePageMeta';

const FILTERS_ID = 'filters-panel';
/** Shown only under a search that found nothing: not in the page's first JS. */
const DidYouMean = lazy(() =>
  import('@/features/catalog/DidYouMean').catch((error: unknown) => reloadForNewBuild(error)),
);
/** How long a change of the filters waits before the list is asked for (a moving price slider settles). */
export const SETTLE_MS = 120;

function titleOf(collection: string | undefined, filters: Filters): string {
  if (filters.search) return `Search results for “${filters.search}”`;
  const what = [filters.gender && `${filters.gender}'s`, filters.category || (filters.gender ? 'Collection' : '')]
    .filter(Boolean)
    .join(' ');
  const named = collection && collection.toLowerCase() !== 'all' ? collection : '';
  return [what, named].filter(Boolean).join(' — ') || 'All Collections';
}

/**
 * Filter sidebar (a drawer on small screens), sort select and grid; filters and sort in the query string
 * (docs/product.md#collection-page).
 */
export default function CollectionPage() {
  const { collection } = useParams();
  const [params, setParams] = useSearchParams();
  const dispatch = useAppDispatch();
  const { data: products, status, error } = useDeferredSelector((s) => s.catalog.list);
  const [drawerOpen, setDrawerOpen] = useState(false);
  const closeDrawer = useCallback(() => setDrawerOpen(false), []);

  const filters = useMemo(() => parseFilters(params), [params]);
  const queryKey = JSON.stringify(toProductQuery(collection, filters));
  const title = titleOf(collection, filters);
  usePageMeta(title, `Shop ${title} at Gridiron Store: NFL jerseys, fan wear and equipment, priced in pounds.`);

  // The page's first list is asked for at once: the grid, and the picture a phone counts as the page's largest
  // paint, wait on it. A change after that waits a moment, which lets a moving price slider settle.
  const firstList = useRef(true);
  useEffect(() => {
    // a newer query cancels the older request
    let request: { abort: () => void } | undefined;
    const fetchList = () => {
      request = dispatch(fetchProductsByFilters(JSON.parse(queryKey)));
    };
    const timer = firstList.current ? undefined : setTimeout(fetchList, SETTLE_MS);
    if (firstList.current) fetchList();
    firstList.current = false;
    return () => {
      clearTimeout(timer);
      request?.abort();
    };
  }, [dispatch, queryKey]);

  const change = useCallback(
    (next: Filters, options?: { replace?: boolean }) =>
      setParams(toSearchParams(next, params), { replace: options?.replace, preventScrollReset: true }),
    [params, setParams],
  );
  const active = activeFilterCount(filters);

  return (
    <div className="mx-auto flex max-w-7xl flex-col lg:flex-row">
      <aside className="hidden w-64 shrink-0 border-r border-gray-200 lg:block" aria-label="Filters">
        <FilterSidebar filters={filters} onChange={change} />
      </aside>
      <LazyDrawer open={drawerOpen} onClose={closeDrawer} title="Filters" side="left" hideTitle id={FILTERS_ID}>
        <FilterSidebar filters={filters} onChange={change} />
      </LazyDrawer>
      <div className="flex-1 px-4 py-6 lg:px-8">
        <h1 className="mb-4 text-2xl font-bold uppercase">{title}</h1>
        <div className="mb-6 flex items-center justify-between gap-4">
          <button
            type="button"
            onClick={() => setDrawerOpen(true)}
            onPointerEnter={() => void loadDrawer()}
            onFocus={() => void loadDrawer()}
            className="flex items-center gap-2 rounded-md border border-gray-300 px-3 py-2 text-sm lg:hidden"
            aria-haspopup="dialog"
            aria-expanded={drawerOpen}
            aria-controls={FILTERS_ID}
          >
            <IconFilter className="h-4 w-4" />
            Filters{active > 0 && ` (${active})`}
          </button>
          <p className="hidden text-sm text-gray-600 lg:block" aria-live="polite">
            {status === 'succeeded' && `${products.length} ${products.length === 1 ? 'product' : 'products'}`}
          </p>
          <SortOptions value={filters.sortBy} onChange={(sortBy) => change({ ...filters, sortBy })} />
        </div>
        <ProductGrid
          products={status === 'failed' ? [] : products}
          loading={status === 'loading' || status === 'idle'}
          error={status === 'failed' ? error : null}
          cardHeadingLevel={2}
        />
        {filters.search && status === 'succeeded' && !products.length && (
          <Suspense fallback={null}>
            <DidYouMean search={filters.search} />
          </Suspense>
        )}
      </div>
    </div>
  );
}
