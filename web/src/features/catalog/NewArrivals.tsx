import { useCallback, useEffect, useRef, useState, type MouseEvent, type PointerEvent } from 'react';
import { Link } from 'react-router-dom';
import { useAppDispatch, useDeferredSelector } from '@/app/hooks';
import { IconChevronLeft, IconChevronRight } from '@/components/icons';
import { Price } from '@/components/Price';
import { fetchNewArrivals } from './catalogSlice';
import { SoldOutBadge } from './ProductGrid';
import { isSoldOut } from './stock';

/** Each button scrolls 300 px (docs/product.md#business-constants). */
export const SCROLL_STEP = 300;

/** Home's New Arrivals strip: drag (or swipe) to scroll, left/right buttons each disabled at its end. */
export function NewArrivals() {
  const dispatch = useAppDispatch();
  const { data: products, status } = useDeferredSelector((s) => s.catalog.newArrivals);
  const strip = useRef<HTMLUListElement>(null);
  const drag = useRef<{ x: number; left: number; moved: boolean } | null>(null);
  const [canLeft, setCanLeft] = useState(false);
  const [canRight, setCanRight] = useState(false);

  useEffect(() => {
    void dispatch(fetchNewArrivals());
  }, [dispatch]);

  const update = useCallback(() => {
    const el = strip.current;
    if (!el) return;
    setCanLeft(el.scrollLeft > 0);
    setCanRight(el.scrollLeft + el.clientWidth < el.scrollWidth - 1);
  }, []);

  useEffect(() => {
    update();
    window.addEventListener('resize', update);
    return () => window.removeEventListener('resize', update);
  }, [update, products]);

  const scroll = (direction: -1 | 1) => strip.current?.scrollBy({ left: direction * SCROLL_STEP, behavior: 'smooth' });

  // Mouse drag to scroll (touch scrolls natively); a drag is not a click on the card under the pointer.
  const onPointerDown = (e: PointerEvent) => {
    if (e.pointerType !== 'mouse' || !strip.current) return;
    drag.current = { x: e.clientX, left: strip.current.scrollLeft, moved: false };
  };
  const onPointerMove = (e: PointerEvent) => {
    const d = drag.current;
    if (!d || !strip.current) return;
    const dx = e.clientX - d.x;
    if (Math.abs(dx) > 5) d.moved = true;
    strip.current.scrollLeft = d.left - dx;
  };
  const endDrag = () => {
    setTimeout(() => (drag.current = null), 0);
  };
  const onClickCapture = (e: MouseEvent) => {
    if (drag.current?.moved) {
      e.preventDefault();
      e.stopPropagation();
    }
  };

  return (
    <section className="mx-auto max-w-7xl px-4 py-12" aria-labelledby="new-arrivals">
      <div className="mb-8 text-center">
        <h2 id="new-arrivals" className="mb-3 text-3xl font-bold">
          Explore New Arrivals
        </h2>
        <p className="text-gray-600">The latest kits, fleeces and match-day gear, fresh in for the new season.</p>
      </div>
      {status === 'failed' ? (
        <p className="text-center text-red-700">Failed to load new arrivals</p>
      ) : status === 'succeeded' && !products.length ? (
        <p className="text-center text-gray-600">No new arrivals available at the moment.</p>
      ) : (
        <div className="relative">
          <div className="mb-4 flex justify-end gap-2">
            <button
              type="button"
              onClick={() => scroll(-1)}
              disabled={!canLeft}
              aria-label="Scroll new arrivals left"
              className="rounded border border-gray-300 bg-white p-2 text-black disabled:cursor-not-allowed disabled:text-gray-300"
            >
              <IconChevronLeft className="h-5 w-5" />
            </button>
            <button
              type="button"
              onClick={() => scroll(1)}
              disabled={!canRight}
              aria-label="Scroll new arrivals right"
              className="rounded border border-gray-300 bg-white p-2 text-black disabled:cursor-not-allowed disabled:text-gray-300"
            >
              <IconChevronRight className="h-5 w-5" />
            </button>
          </div>
          {status === 'loading' && !products.length && <p className="text-center text-gray-600">Loading...</p>}
          <ul
            ref={strip}
            onScroll={update}
            onPointerDown={onPointerDown}
            onPointerMove={onPointerMove}
            onPointerUp={endDrag}
            onPointerLeave={endDrag}
            onClickCapture={onClickCapture}
            onDragStart={(e) => e.preventDefault()}
            className="scrollbar-none flex cursor-grab snap-x gap-6 overflow-x-auto select-none active:cursor-grabbing"
            data-testid="new-arrivals"
          >
            {products.map((product) => (
              <li key={product._id} className="relative w-[70%] shrink-0 snap-start sm:w-[45%] lg:w-[30%]">
                <Link to={`/product/${product._id}`} className="block">
                  <img
                    src={product.images[0]?.url}
                    alt={product.images[0]?.altText || product.name}
                    width={400}
                    height={500}
                    loading="lazy"
                    draggable={false}
                    className="aspect-[4/5] w-full rounded-lg bg-gray-100 object-cover"
                  />
                  {isSoldOut(product) && <SoldOutBadge />}
                  <div className="absolute inset-x-0 bottom-0 rounded-b-lg bg-black/60 p-4 text-white backdrop-blur-sm">
                    <h3 className="font-medium">{product.name}</h3>
                    <Price value={product.price} className="mt-1 block" />
                  </div>
                </Link>
              </li>
            ))}
          </ul>
        </div>
      )}
    </section>
  );
}
