import { memo, useEffect, useState } from 'react';
import { Link } from 'react-router-dom';
import type { ProductJson } from '@shop/contracts';
import { Price } from '@/components/Price';
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
  return (
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
  );
}

/** How many cards a grid adds in one task: about two phone screens, or a desktop screen and a half. */
export const CARDS_PER_TASK = 12;

/**
 * How many of `products` to show: a long list is added CARDS_PER_TASK cards a task, each batch in a task after the
 * previous one's commit, so that no one task renders, lays out and paints the whole list (the 65 cards of
 * /collections/all were one task of ~95 ms of style, layout and paint at 4× CPU slowdown, right where Lighthouse
 * counts blocking time). A new list starts again from its first batch.
 */
function useCardsShown(products: ProductJson[]): number {
  const [shown, setShown] = useState({ products, count: CARDS_PER_TASK });
  const count = shown.products === products ? shown.count : CARDS_PER_TASK;
  if (shown.products !== products) setShown({ products, count });
  useEffect(() => {
    if (count >= products.length) return;
    const timer = setTimeout(() => setShown({ products, count: count + CARDS_PER_TASK }), 0);
    return () => clearTimeout(timer);
  }, [products, count]);
  return Math.min(count, products.length);
}

interface ProductGridProps {
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
 * A grid of products, with SPEC §8's "Loading...", "Error: {message}" and "No Products found.". Memoised: its pages
 * render it from a deferred value (useDeferredSelector). Busy (aria-busy) while a new list loads, and while a long
 * list is still being added (useCardsShown).
 */
export const ProductGrid = memo(function ProductGrid({
  products,
  loading,
  error,
  eager = 4,
  cardHeadingLevel = 3,
  className = '',
}: ProductGridProps) {
  const shown = useCardsShown(products);
  if (loading && !products.length) return <p className="py-8 text-center text-gray-600">Loading...</p>;
  if (error) return <p className="py-8 text-center text-red-700">Error: {error}</p>;
  if (!products.length) return <p className="py-8 text-center text-gray-600">No Products found.</p>;
  return (
    <ul
      className={`grid grid-cols-2 gap-x-4 gap-y-8 md:grid-cols-3 lg:grid-cols-4 ${loading ? 'opacity-60' : ''} ${className}`}
      aria-busy={loading || shown < products.length || undefined}
      data-testid="product-grid"
    >
      {products.slice(0, shown).map((product, i) => (
        <li key={product._id}>
          <ProductCard product={product} eager={i < eager} headingLevel={cardHeadingLevel} />
        </li>
      ))}
    </ul>
  );
});
