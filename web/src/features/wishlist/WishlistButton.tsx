import { useAppDispatch, useAppSelector } from '@/app/hooks';
import { announce } from '@/components/Announcer';
import { IconHeart } from '@/components/icons';
import { notify } from '@/lib/notify';
import { selectWishlist, setSaved } from './wishlistSlice';

interface WishlistButtonProps {
  productId: string;
  productName: string;
  className?: string;
  /** A round icon button over a card's picture, or a labelled button beside Add to cart. */
  variant?: 'icon' | 'labelled';
}

/**
 * The heart: a toggle button (aria-pressed, a filled heart) whose name stays "Save to wishlist: <product>" whatever its
 * state (a toggle's name does not change; its visible text is part of it); the live region says what happened.
 */
export default function WishlistButton({
  productId,
  productName,
  className = '',
  variant = 'icon',
}: WishlistButtonProps) {
  const dispatch = useAppDispatch();
  const saved = useAppSelector((s) => selectWishlist(s).ids.includes(productId));
  const busy = useAppSelector((s) => selectWishlist(s).busy.includes(productId));
  const toggle = async () => {
    if (busy) return;
    const result = await dispatch(setSaved({ productId, saved: !saved }));
    if (setSaved.fulfilled.match(result)) {
      announce(saved ? `${productName} removed from your wishlist` : `${productName} saved to your wishlist`);
    } else {
      const message = result.payload ?? 'Failed to update wishlist';
      notify.error(message);
      announce(message);
    }
  };
  const label = `Save to wishlist: ${productName}`;
  return (
    <button
      type="button"
      onClick={() => void toggle()}
      aria-pressed={saved}
      aria-label={label}
      aria-busy={busy || undefined}
      title={saved ? 'Saved to your wishlist' : 'Save to wishlist'}
      data-testid="wishlist-button"
      className={
        variant === 'icon'
          ? `rounded-full bg-white/90 p-2 text-gray-900 shadow-sm hover:bg-white ${className}`
          : `inline-flex items-center gap-2 rounded-lg border border-gray-400 px-4 py-2 text-sm font-semibold hover:bg-gray-100 ${className}`
      }
    >
      <IconHeart className={`h-5 w-5 ${saved ? 'fill-red-600 text-red-600' : ''}`} />
      {variant === 'labelled' && <span>Save to wishlist</span>}
    </button>
  );
}
