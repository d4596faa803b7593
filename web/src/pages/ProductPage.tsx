import { lazy, Suspense, useCallback, useEffect, useMemo, useState, type ComponentType } from 'react';
import { useParams, useSearchParams } from 'react-router-dom';
import type { ProductJson } from '@shop/contracts';
import { useAppDispatch, useAppStore, useDeferredSelector } from '@/app/hooks';
import { cameWithPage } from '@/app/pageData';
import { fetchProductDetails, fetchSimilarProducts } from '@/features/catalog/catalogSlice';
import { ProductDetails } from '@/features/catalog/ProductDetails';
import type { ProductGridProps } from '@/features/catalog/ProductGrid';
import { useOrigin } from '@/lib/origin';
import { STORE_NAME } from '@/lib/shop';
import { usePageMeta } from '@/lib/usePageMeta';

/**
 * The Reviews section: its own chunk (the first route's JS stays as it was: this page imports nothing of it), mounted
 * once the page has hydrated — not in the HTML the gateway renders, where a boundary still waiting for its chunk would
 * be switched to client rendering by the page's first update. Should the chunk fail to load, the section is left out
 * and the rest of the page stays.
 */
const ProductReviews = lazy<ComponentType<{ product: ProductJson }>>(() =>
  import('@/features/reviews/ProductReviews').catch(() => ({ default: () => null })),
);

/** The heart and "Email me when it's back" under Add to cart: their own chunk too, mounted after hydration. */
const ProductExtras = lazy<ComponentType<{ product: ProductJson; size: string; color: string }>>(() =>
  import('@/features/catalog/ProductExtras').catch(() => ({ default: () => null })),
);

/**
 * "You May Also Like" is below the fold: its grid's code (shared with the landing pages) is not in this route's first
 * JS, and loads once the page has hydrated, while the similar products are being fetched.
 */
const SimilarGrid = lazy<ComponentType<ProductGridProps>>(() =>
  import('@/features/catalog/ProductGrid').then(
    (m) => ({ default: m.ProductGrid }),
    () => ({ default: () => null }),
  ),
);
const LOADING = <p className="py-8 text-center text-gray-600">Loading...</p>;

function useHydrated(): boolean {
  const [mounted, setMounted] = useState(false);
  useEffect(() => setMounted(true), []);
  return mounted;
}

function ReviewsSection({ product }: { product: ProductJson }) {
  return useHydrated() ? (
    <Suspense fallback={null}>
      <ProductReviews product={product} />
    </Suspense>
  ) : null;
}

/** schema.org Product data, so a shared link previews and search engines read the price (issue 9 item 10). */
export function productJsonLd(product: ProductJson, origin: string): string {
  const data = {
    '@context': 'https://schema.org',
    '@type': 'Product',
    name: product.name,
    description: product.description,
    sku: product.sku,
    image: product.images.map((img) => new URL(img.url, origin).href),
    brand: { '@type': 'Brand', name: product.brand },
    material: product.material,
    color: product.colors.join(', '),
    // No aggregateRating: the catalog's rating and numReviews are the seed's inventions, not reviews shoppers wrote,
    // and search engines penalise (and shoppers are misled by) review markup that is not true (issue 27). It comes
    // back when ratings come from real reviews.
    offers: {
      '@type': 'Offer',
      url: `${origin}/product/${product._id}`,
      priceCurrency: 'GBP',
      price: product.price.toFixed(2),
      availability: product.countInStock > 0 ? 'https://schema.org/InStock' : 'https://schema.org/OutOfStock',
      seller: { '@type': 'Organization', name: STORE_NAME },
    },
  };
  // "<" escaped so that no text in a product can close the script element
  return JSON.stringify(data).replace(/</g, '\\u003c');
}

export default function ProductPage() {
  const { id = '' } = useParams();
  const dispatch = useAppDispatch();
  const store = useAppStore();
  const { data: product, status, error } = useDeferredSelector((s) => s.catalog.product);
  const similar = useDeferredSelector((s) => s.catalog.similar);
  const origin = useOrigin();
  const [query] = useSearchParams();
  const size = query.get('size');
  const color = query.get('color');
  // the size and colour a link chose (a back-in-stock email's): one object while they stay, for the memoised details
  const initialPick = useMemo(() => ({ size, color }), [size, color]);

  useEffect(() => {
    // a product page opened from a link comes rendered with its product (gateway/src/product-page.ts)
    const fromPage = cameWithPage(store.getState().catalog.product, id);
    const details = fromPage ? undefined : dispatch(fetchProductDetails(id));
    const alike = dispatch(fetchSimilarProducts(id));
    return () => {
      details?.abort();
      alike.abort();
    };
  }, [dispatch, store, id]);

  const shown = product && product._id === id ? product : null;
  const hydrated = useHydrated();
  const extras = useCallback(
    (pick: { size: string; color: string }) =>
      hydrated && shown ? (
        <Suspense fallback={null}>
          <ProductExtras product={shown} {...pick} />
        </Suspense>
      ) : null,
    [hydrated, shown],
  );
  usePageMeta(shown?.name ?? (status === 'failed' ? 'Product not found' : 'Product'), shown?.description);

  return (
    <div className="mx-auto max-w-7xl px-4 py-8">
      {shown ? (
        <>
          <script type="application/ld+json" dangerouslySetInnerHTML={{ __html: productJsonLd(shown, origin) }} />
          <ProductDetails key={shown._id} product={shown} initialPick={initialPick} extras={extras} />
        </>
      ) : status === 'failed' ? (
        <p className="py-16 text-center text-red-700">Error: {error}</p>
      ) : (
        <p className="py-16 text-center text-gray-600">Loading...</p>
      )}
      {shown && <ReviewsSection key={shown._id} product={shown} />}
      {shown && (
        <section className="mt-20" aria-labelledby="similar">
          <h2 id="similar" className="mb-8 text-center text-2xl font-semibold">
            You May Also Like
          </h2>
          {hydrated ? (
            <Suspense fallback={LOADING}>
              <SimilarGrid
                products={similar.data}
                loading={similar.status === 'loading'}
                error={similar.status === 'failed' ? similar.error : null}
                eager={0}
              />
            </Suspense>
          ) : (
            LOADING
          )}
        </section>
      )}
    </div>
  );
}
