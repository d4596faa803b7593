import { combineReducers, configureStore } from '@reduxjs/toolkit';
import { authReducer } from '@/features/auth/authSlice';
import { cartReducer } from '@/features/cart/cartSlice';
import { catalogReducer } from '@/features/catalog/catalogSlice';
import { checkoutReducer } from '@/features/checkout/checkoutSlice';
import { ordersReducer } from '@/features/orders/ordersSlice';
import { storage } from '@/lib/storage';

const rootReducer = combineReducers({
  auth: authReducer,
  cart: cartReducer,
  catalog: catalogReducer,
  orders: ordersReducer,
  checkout: checkoutReducer,
});

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
