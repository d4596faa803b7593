import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { IconSearch } from '@/components/icons';
import { reloadForNewBuild } from '@/lib/reload';

/** The open search's code, fetched when the shopper goes for the button (pointer over it, keyboard focus on it). */
export const loadSearchForm = () => import('./SearchForm').catch((error: unknown) => reloadForNewBuild(error));
const SearchForm = lazy(loadSearchForm);

/**
 * The header's expandable search: goes to /collections/all?search=… (docs/product.md#header), suggesting products as the shopper types
 * (SearchForm, whose code is not in the first route's JS: it loads when the button is first pointed at or
 * focused, before it is pressed).
 */
export function SearchBar() {
  const [open, setOpen] = useState(false);
  const opener = useRef<HTMLButtonElement>(null);
  /**
   * Where focus goes when the form closes, rather than to the document with the form's fields: back to the button
   * (Escape, Close search), or to the main area that shows the results (a search, a product).
   */
  const refocus = useRef<'button' | 'results' | null>(null);

  useEffect(() => {
    if (open) return;
    if (refocus.current === 'button') opener.current?.focus();
    else if (refocus.current === 'results') document.getElementById('main')?.focus({ preventScroll: true });
    refocus.current = null;
  }, [open]);

  const closeTo = (target: 'button' | 'results') => () => {
    refocus.current = target;
    setOpen(false);
  };

  if (!open) {
    return (
      <button
        ref={opener}
        type="button"
        onClick={() => setOpen(true)}
        onPointerEnter={() => void loadSearchForm()}
        onFocus={() => void loadSearchForm()}
        className="rounded p-2 text-gray-700 hover:bg-gray-100 hover:text-black"
        aria-label="Search products"
        aria-expanded="false"
      >
        <IconSearch className="h-6 w-6" />
      </button>
    );
  }
  return (
    <Suspense fallback={<div className="absolute inset-x-0 top-0 z-40 h-full bg-white" />}>
      <SearchForm onClose={closeTo('button')} onDone={closeTo('results')} />
    </Suspense>
  );
}
