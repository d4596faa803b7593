import { combineSlices, configureStore } from '@reduxjs/toolkit';
import { authReducer } from '@/features/auth/authSlice';
import { cartReducer, EMPTY_CART } from '@/features/cart/cartSlice';
import { catalogReducer } from '@/features/catalog/catalogSlice';
import { storage } from '@/lib/storage';

/**
 * Slices that join the store when their code loads (`slice.injectInto(rootReducer)`: checkout and orders with their
 * pages, the admin area's with it), so that none of their code is in a shopper's first route (issues 10 and 27).
 * Each declares itself here by module augmentation.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface LazyLoadedSlices {}

export const rootReducer = combineSlices({
  auth: authReducer,
  cart: cartReducer,
  catalog: catalogReducer,
}).withLazyLoadedSlices<LazyLoadedSlices>();

export type RootState = ReturnType<typeof rootReducer>;

/**
 * `state` as a first visit sees it: no session, an empty cart (everything else as it is, by reference). The build
 * prerenders the landing pages from it (web/prerender.mjs), and the browser hydrates them with it (src/app/boot.tsx:
 * react-redux's `serverState`), so the first render matches the HTML whoever opens the page; the stored session
 * and cart show right after, re-rendering only what differs.
 */
export function asFirstVisit(state: RootState): RootState {
  return { ...state, auth: { ...state.auth, user: null, token: null }, cart: { ...state.cart, cart: EMPTY_CART } };
}

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
