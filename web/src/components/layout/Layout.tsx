import { Suspense, useEffect, useRef } from 'react';
import { Outlet, useLocation } from 'react-router-dom';
import { useStore } from 'react-redux';
import { useAppDispatch } from '@/app/hooks';
import type { RootState } from '@/app/store';
import { fetchCart } from '@/features/cart/cartSlice';
import { Footer } from './Footer';
import { Header } from './Header';

export function PageLoading() {
  return (
    <div className="flex min-h-[50vh] items-center justify-center" role="status">
      <span className="h-8 w-8 animate-spin rounded-full border-4 border-gray-200 border-t-gray-800" />
      <span className="sr-only">Loading page</span>
    </div>
  );
}

/**
 * A new page starts at its top (a filter change on the same page keeps the scroll position), and keyboard focus
 * starts in its main area: the link or button that led there is gone with the old page, which left focus nowhere
 * (on the document) and a screen reader silent. The next Tab then reaches the page's first control instead of the
 * header's. Not on the first page of a visit: focus starts where the browser puts it.
 */
export function NewPageStart() {
  const { pathname } = useLocation();
  const previous = useRef(pathname);
  useEffect(() => {
    // braces: Chromium's scrollTo now returns a promise, which React would take for a cleanup function
    window.scrollTo(0, 0);
    if (previous.current === pathname) return;
    previous.current = pathname;
    document.getElementById('main')?.focus({ preventScroll: true });
  }, [pathname]);
  return null;
}

/** The shop layout (docs/product.md#screens-and-routes): header, main area, footer. */
export function Layout() {
  const dispatch = useAppDispatch();
  const store = useStore<RootState>();

  // The cart shown at once comes from local storage; the server's copy replaces it (once per visit: login and
  // register merge or fetch it themselves, logout empties it).
  useEffect(() => {
    const { user, guestId } = store.getState().auth;
    void dispatch(fetchCart({ userId: user?._id, guestId }));
    // the wishlist's code (and slice) after the page: the hearts and the header's count
    void import('@/features/wishlist/wishlistSlice').then(({ fetchWishlist }) => dispatch(fetchWishlist()));
  }, [dispatch, store]);

  return (
    <div className="flex min-h-screen flex-col">
      <a
        href="#main"
        className="sr-only z-50 rounded bg-white px-4 py-2 focus:not-sr-only focus:absolute focus:top-2 focus:left-2"
      >
        Skip to content
      </a>
      <Header />
      {/* At least a screen tall: while a page and its data load, the footer waits below the fold instead of
          showing and then being pushed down (a layout shift the shopper sees, and Lighthouse's CLS counts) */}
      <main id="main" className="min-h-screen flex-1" tabIndex={-1}>
        <Suspense fallback={<PageLoading />}>
          <Outlet />
        </Suspense>
      </main>
      <Footer />
      <NewPageStart />
    </div>
  );
}
