import { combineSlices, configureStore } from '@reduxjs/toolkit';
import { authReducer } from '@/features/auth/authSlice';
import { cartReducer } from '@/features/cart/cartSlice';
import { catalogReducer } from '@/features/catalog/catalogSlice';
import { checkoutReducer } from '@/features/checkout/checkoutSlice';
import { ordersReducer } from '@/features/orders/ordersSlice';
import { storage } from '@/lib/storage';

/**
 * Slices that join the store when their code loads (the admin area's: `slice.injectInto(rootReducer)`), so that
 * none of their code is in the shopper's first route. Each declares itself here by module augmentation.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface LazyLoadedSlices {}

export const rootReducer = combineSlices({
  auth: authReducer,
  cart: cartReducer,
  catalog: catalogReducer,
  orders: ordersReducer,
  checkout: checkoutReducer,
}).withLazyLoadedSlices<LazyLoadedSlices>();

export type RootState = ReturnType<typeof rootReducer>;

/** The store (tests pass a preloaded state). Session, guest id and cart are mirrored into local storage. */
export function makeStore(preloadedState?: Partial<RootState>) {
  const store = configureStore({ reducer: rootReducer, preloadedState });
  let last = store.getState();
  store.subscribe(() => {
    const next = store.getState();
    if (next.auth.user !== last.auth.user || next.auth.token !== last.auth.token)
      storage.setSession(next.auth.user, next.auth.token);
    if (next.auth.guestId !== last.auth.guestId) storage.setGuestId(next.auth.guestId);
    if (next.cart.cart !== last.cart.cart) storage.setCart(next.cart.cart.products.length ? next.cart.cart : null);
    last = next;
  });
  return store;
}

export type AppStore = ReturnType<typeof makeStore>;
export type AppDispatch = AppStore['dispatch'];
