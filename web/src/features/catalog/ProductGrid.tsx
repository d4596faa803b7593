import { memo, useEffect, useRef, useState, type RefObject } from 'react';
import { Link } from 'react-router-dom';
import type { ProductJson } from '@shop/contracts';
import { Price } from '@/components/Price';
import { LazyWishlistButton } from '@/features/wishlist/LazyWishlistButton';
import { isSoldOut } from './stock';

/** A card's mark for a product none of whose variants has stock left. */
export function SoldOutBadge() {
  return (
    <span className="absolute top-2 left-2 rounded bg-white/90 px-2 py-0.5 text-xs font-semibold tracking-wide text-gray-900 uppercase shadow-sm">
      Sold out
    </span>
  );
}

interface ProductCardProps {
  product: ProductJson;
  eager?: boolean;
  /** The card's name is one level below the heading the grid sits under (h2 under a page's h1, h3 under a section's h2). */
  headingLevel?: 2 | 3;
}

export function ProductCard({ product, eager = false, headingLevel = 3 }: ProductCardProps) {
  const image = product.images[0];
  const Name = headingLevel === 2 ? 'h2' : 'h3';
  const soldOut = isSoldOut(product);
  // the heart is beside the link, not in it: a button inside a link is neither valid nor reachable as itself
  return (
    <div className="relative">
      <Link
        to={`/product/${product._id}`}
        className="group block rounded-lg focus-visible:outline-offset-4"
        data-testid="product-card"
      >
        <div className="relative mb-3 aspect-[4/5] overflow-hidden rounded-lg bg-gray-100">
          {image && (
            <img
              src={image.url}
              alt={image.altText || product.name}
              width={400}
              height={500}
              loading={eager ? 'eager' : 'lazy'}
              decoding="async"
              className={`h-full w-full object-cover transition-transform duration-300 group-hover:scale-105 ${soldOut ? 'opacity-60' : ''}`}
            />
          )}
          {soldOut && <SoldOutBadge />}
        </div>
        <Name className="mb-1 text-sm font-medium text-gray-900 group-hover:underline">{product.name}</Name>
        <Price value={product.price} original={product.originalPrice} className="text-sm font-semibold text-gray-900" />
      </Link>
      <LazyWishlistButton productId={product._id} productName={product.name} className="absolute top-2 right-2" />
    </div>
  );
}

/** How many cards a grid adds in one task: about two phone screens, or a desktop screen and a half. */
export const CARDS_PER_TASK = 12;

/**
 * How many of `products` to show, and the way to show more: a long list starts with CARDS_PER_TASK cards and is added
 * CARDS_PER_TASK cards at a time, each batch in a task after the previous one's commit, while the end of the list
 * (`more`, the "Show more products" button after it) is within a screen's height of the viewport, or when that button
 * is pressed. So no one task renders, lays out and paints the whole list, and a phone opening /collections/all renders
 * the cards it can scroll to, not all 65 (which took ~0.5 s of its main thread at 4× CPU slowdown, most of the page's
 * blocking time, issue 40). Without IntersectionObserver (jsdom) the batches follow one another regardless. A new list
 * starts again from its first batch.
 */
function useCardsShown(products: ProductJson[], more: RefObject<HTMLElement | null>) {
  const [shown, setShown] = useState({ products, count: CARDS_PER_TASK });
  const count = shown.products === products ? shown.count : CARDS_PER_TASK;
  if (shown.products !== products) setShown({ products, count });
  const showMore = () => setShown({ products, count: count + CARDS_PER_TASK });
  useEffect(() => {
    if (count >= products.length) return;
    const next = () => setShown({ products, count: count + CARDS_PER_TASK });
    const end = more.current;
    if (typeof IntersectionObserver === 'undefined' || !end) {
      const timer = setTimeout(next, 0);
      return () => clearTimeout(timer);
    }
    let timer: ReturnType<typeof setTimeout> | undefined;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting) && timer === undefined) timer = setTimeout(next, 0);
      },
      { rootMargin: '100% 0px' },
    );
    observer.observe(end);
    return () => {
      observer.disconnect();
      clearTimeout(timer);
    };
  }, [products, count, more]);
  return { shown: Math.min(count, products.length), showMore };
}

export interface ProductGridProps {
  products: ProductJson[];
  loading?: boolean;
  error?: string | null;
  /** How many of the first cards load at once (above the fold). */
  eager?: number;
  /** The cards' heading level: 2 where the grid is the page's content (a collection), else 3 (a section's grid). */
  cardHeadingLevel?: 2 | 3;
  className?: string;
}

/**
 * A grid of products, with "Loading...", "Error: {message}" and "No Products found." (docs/product.md#messages).
 * Memoised: its pages
 * render it from a deferred value (useDeferredSelector). Busy (aria-busy) while a new list loads; a long list is shown a
 * batch at a time as the shopper nears its end (useCardsShown).
 */
export const ProductGrid = memo(function ProductGrid({
  products,
  loading,
  error,
  eager = 4,
  cardHeadingLevel = 3,
  className = '',
}: ProductGridProps) {
  const more = useRef<HTMLButtonElement>(null);
  const { shown, showMore } = useCardsShown(products, more);
  if (loading && !products.length) return <p className="py-8 text-center text-gray-600">Loading...</p>;
  if (error) return <p className="py-8 text-center text-red-700">Error: {error}</p>;
  if (!products.length) return <p className="py-8 text-center text-gray-600">No Products found.</p>;
  return (
    <>
      <ul
        className={`grid grid-cols-2 gap-x-4 gap-y-8 md:grid-cols-3 lg:grid-cols-4 ${loading ? 'opacity-60' : ''} ${className}`}
        aria-busy={loading || undefined}
        data-testid="product-grid"
      >
        {products.slice(0, shown).map((product, i) => (
          <li key={product._id}>
            <ProductCard product={product} eager={i < eager} headingLevel={cardHeadingLevel} />
          </li>
        ))}
      </ul>
      {shown < products.length && (
        <button
          ref={more}
          type="button"
          onClick={showMore}
          className="mx-auto mt-8 block rounded-lg border border-gray-400 px-5 py-2 text-sm font-semibold hover:bg-gray-100"
        >
          Show more products ({shown} of {products.length} shown)
        </button>
      )}
    </>
  );
});
