import { useCallback, useEffect, useRef, useState } from 'react';
import { Link } from 'react-router-dom';
import type { MoveToCartJson, WishlistItemJson, WishlistJson } from '@shop/contracts';
import { api, errorMessage } from '@/api/client';
import { useAppDispatch, useAppSelector } from '@/app/hooks';
import { announce } from '@/components/Announcer';
import { Price } from '@/components/Price';
import { cartReceived } from '@/features/cart/cartSlice';
import { wishlistReceived } from '@/features/wishlist/wishlistSlice';
import { notify } from '@/lib/notify';
import { usePageMeta } from '@/lib/usePageMeta';

/** /back-in-stock/unsubscribe: its code travels with this page's (router.tsx). */
export { default as UnsubscribePage } from './UnsubscribePage';

type Load = { status: 'loading' } | { status: 'failed'; message: string } | { status: 'done'; list: WishlistJson };

/** Stock per size, summed over the colours ("" for a product with no sizes). */
function stockPerSize(item: WishlistItemJson): Array<{ size: string; units: number }> {
  const sizes = item.sizes.length ? item.sizes : [''];
  return sizes.map((size) => ({
    size,
    units: item.variants.filter((v) => (v.size ?? '') === size).reduce((sum, v) => sum + v.countInStock, 0),
  }));
}

const unitsOf = (item: WishlistItemJson, size: string, color: string) =>
  item.variants.find((v) => (v.size ?? '') === size && (v.color ?? '') === color)?.countInStock ?? 0;

function WishlistRow({
  item,
  onChanged,
}: {
  item: WishlistItemJson;
  onChanged: (list: WishlistJson, message: string) => void;
}) {
  const dispatch = useAppDispatch();
  const { guestId, user } = useAppSelector((s) => s.auth);
  const [size, setSize] = useState(item.sizes.length === 1 ? item.sizes[0] : '');
  const [color, setColor] = useState(item.colors.length === 1 ? item.colors[0] : '');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const id = `w-${item.productId}`;
  const owner = { guestId, ...(user ? { userId: user._id } : {}) };
  const picked = (!item.sizes.length || !!size) && (!item.colors.length || !!color);
  const left = picked ? unitsOf(item, size, color) : null;

  const move = async () => {
    if (!picked) {
      setError('Choose a size and a colour first.');
      return;
    }
    setBusy(true);
    setError(null);
    try {
      const { data } = await api.post<MoveToCartJson>(`/api/wishlist/${item.productId}/move`, {
        size,
        color,
        quantity: 1,
        ...owner,
      });
      dispatch(cartReceived(data.cart));
      onChanged(data.wishlist, `${item.name} moved to your cart`);
      notify.success(`${item.name} moved to your cart`, { duration: 1000 });
    } catch (e) {
      const message = errorMessage(e, 'Failed to move to cart');
      setError(message);
      announce(message);
    } finally {
      setBusy(false);
    }
  };

  const remove = async () => {
    setBusy(true);
    try {
      const { data } = await api.delete<WishlistJson>(`/api/wishlist/${item.productId}`, { params: owner });
      onChanged(data, `${item.name} removed from your wishlist`);
    } catch (e) {
      const message = errorMessage(e, 'Failed to remove from wishlist');
      setError(message);
      announce(message);
      setBusy(false);
    }
  };

  return (
    <li className="flex flex-col gap-4 border-b border-gray-200 py-6 sm:flex-row" data-testid="wishlist-item">
      {/* the picture repeats the name's link: out of the tab order and hidden from screen readers */}
      <Link to={`/product/${item.productId}`} className="shrink-0" tabIndex={-1} aria-hidden="true">
        <img
          src={item.image}
          alt=""
          width={120}
          height={150}
          loading="lazy"
          className="h-36 w-28 rounded bg-gray-100 object-cover"
        />
      </Link>
      <div className="flex-1">
        <h2 className="font-semibold">
          <Link to={`/product/${item.productId}`} className="hover:underline">
            {item.name}
          </Link>
        </h2>
        <p className="mb-2 font-semibold">
          <Price value={item.price} />
        </p>
        <p className="mb-3 text-sm text-gray-700">
          {item.countInStock <= 0 ? (
            <span className="font-semibold text-red-700">Sold out in every size</span>
          ) : (
            <>
              <span className="sr-only">Stock: </span>
              {stockPerSize(item)
                .map(({ size: s, units }) => `${s ? `${s}: ` : ''}${units > 0 ? `${units} in stock` : 'sold out'}`)
                .join(' · ')}
            </>
          )}
        </p>
        <div className="flex flex-wrap items-end gap-3">
          {item.sizes.length > 0 && (
            <label className="text-sm">
              <span className="mb-1 block font-medium">Size</span>
              <select
                id={`${id}-size`}
                value={size}
                onChange={(e) => setSize(e.target.value)}
                className="rounded border border-gray-400 px-2 py-1.5"
              >
                <option value="">Choose…</option>
                {item.sizes.map((s) => (
                  <option key={s} value={s}>
                    {s}
                  </option>
                ))}
              </select>
            </label>
          )}
          {item.colors.length > 0 && (
            <label className="text-sm">
              <span className="mb-1 block font-medium">Colour</span>
              <select
                id={`${id}-color`}
                value={color}
                onChange={(e) => setColor(e.target.value)}
                className="rounded border border-gray-400 px-2 py-1.5"
              >
                <option value="">Choose…</option>
                {item.colors.map((c) => (
                  <option key={c} value={c}>
                    {c}
                  </option>
                ))}
              </select>
            </label>
          )}
          <button
            type="button"
            onClick={() => void move()}
            disabled={busy || left === 0}
            aria-label={`${left === 0 ? 'Sold out' : 'Move to cart'}: ${item.name}`}
            className="rounded-lg bg-black px-4 py-2 text-sm font-semibold text-white hover:bg-gray-800 disabled:cursor-not-allowed disabled:bg-gray-500"
          >
            {left === 0 ? 'Sold out' : 'Move to cart'}
          </button>
          <button
            type="button"
            onClick={() => void remove()}
            disabled={busy}
            aria-label={`Remove ${item.name}`}
            className="rounded-lg border border-gray-400 px-4 py-2 text-sm font-semibold hover:bg-gray-100"
          >
            Remove
          </button>
        </div>
        <p className="mt-2 min-h-5 text-sm text-red-700" role="alert">
          {error ?? (left === 0 ? `${[size, color].filter(Boolean).join(' / ')} is sold out` : '')}
        </p>
      </div>
    </li>
  );
}

/** /wishlist: the saved products with their current price and stock per size; move each to the cart, or remove it. */
export default function WishlistPage() {
  usePageMeta('My wishlist');
  const dispatch = useAppDispatch();
  const { guestId, user } = useAppSelector((s) => s.auth);
  const [load, setLoad] = useState<Load>({ status: 'loading' });
  const heading = useRef<HTMLHeadingElement>(null);

  useEffect(() => {
    let live = true;
    setLoad({ status: 'loading' });
    api
      .get<WishlistJson>('/api/wishlist', { params: { guestId, ...(user ? { userId: user._id } : {}) } })
      .then(({ data }) => {
        if (!live) return;
        setLoad({ status: 'done', list: data });
        dispatch(wishlistReceived(data));
      })
      .catch(
        (e: unknown) => live && setLoad({ status: 'failed', message: errorMessage(e, 'Failed to fetch wishlist') }),
      );
    return () => {
      live = false;
    };
  }, [dispatch, guestId, user]);

  const changed = useCallback(
    (list: WishlistJson, message: string) => {
      setLoad({ status: 'done', list });
      dispatch(wishlistReceived(list));
      announce(message);
      // the row (and the button pressed) is gone: focus the heading so the keyboard does not start over at the top
      heading.current?.focus();
    },
    [dispatch],
  );

  return (
    <div className="mx-auto max-w-4xl px-4 py-10">
      <h1 ref={heading} tabIndex={-1} className="mb-2 text-2xl font-bold focus:outline-none">
        My wishlist
      </h1>
      {load.status === 'loading' && (
        <p role="status" className="py-8 text-gray-600">
          Loading your wishlist...
        </p>
      )}
      {load.status === 'failed' && (
        <p role="alert" className="py-8 text-red-700">
          Error: {load.message}
        </p>
      )}
      {load.status === 'done' && load.list.count === 0 && (
        <div className="py-8" data-testid="wishlist-empty">
          <p className="mb-4 text-gray-700">Your wishlist is empty. Tap the heart on a product to save it for later.</p>
          <Link to="/collections/all" className="font-semibold underline">
            Browse the shop
          </Link>
        </div>
      )}
      {load.status === 'done' && load.list.count > 0 && (
        <>
          <p className="text-sm text-gray-600">
            {load.list.count} {load.list.count === 1 ? 'product' : 'products'} saved (up to {load.list.limit})
          </p>
          <ul aria-label="Saved products">
            {load.list.items.map((item) => (
              <WishlistRow key={item.productId} item={item} onChanged={changed} />
            ))}
          </ul>
        </>
      )}
    </div>
  );
}
