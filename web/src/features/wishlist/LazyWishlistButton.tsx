import { lazy, Suspense, useEffect, useState, type ComponentProps } from 'react';
import type WishlistButtonType from './WishlistButton';

/** The heart's code, with the wishlist's slice: its own chunk, loaded once the page has shown (issue 27's budget). */
const WishlistButton = lazy(() => import('./WishlistButton'));

/**
 * The heart, mounted after hydration: the prerendered or server-rendered page has none, so the first render must not
 * either; it then appears where it is placed (absolutely on a card; in a reserved line on the product page).
 */
export function LazyWishlistButton(props: ComponentProps<typeof WishlistButtonType>) {
  const [mounted, setMounted] = useState(false);
  useEffect(() => setMounted(true), []);
  return mounted ? (
    <Suspense fallback={null}>
      <WishlistButton {...props} />
    </Suspense>
  ) : null;
}
