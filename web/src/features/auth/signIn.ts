import type { ThunkAction, UnknownAction } from '@reduxjs/toolkit';
import { notify } from '@/lib/notify';
import type { RootState } from '@/app/store';
import { fetchCart, mergeCart } from '@/features/cart/cartSlice';

/**
 * After a login or registration (docs/product.md#signing-in-and-out): a non-empty guest cart is merged into the user's
 * cart — once, from the submit that signed in — otherwise the user's own cart is fetched. The guest's wishlist is
 * merged the same way (always: the answer is the account's list). A failed merge says so and goes on.
 */
export function syncCartAfterSignIn(): ThunkAction<Promise<void>, RootState, unknown, UnknownAction> {
  return async (dispatch, getState) => {
    const { auth, cart } = getState();
    if (!auth.user) return;
    // the guest's saved products join the account's (the answer is the account's list, merged or not)
    const { mergeWishlist } = await import('@/features/wishlist/wishlistSlice');
    const wishlist = dispatch(mergeWishlist({ guestId: auth.guestId }));
    if (cart.cart.products.length > 0 && auth.guestId) {
      const result = await dispatch(mergeCart({ guestId: auth.guestId }));
      if (mergeCart.rejected.match(result)) notify.error(result.payload ?? 'Failed to merge cart');
    } else {
      await dispatch(fetchCart({ userId: auth.user._id, guestId: auth.guestId }));
    }
    const merged = await wishlist;
    if (mergeWishlist.rejected.match(merged)) notify.error(merged.payload ?? 'Failed to merge wishlist');
  };
}
