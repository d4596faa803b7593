import { createAsyncThunk, createSlice, isAnyOf, type PayloadAction } from '@reduxjs/toolkit';
import type { CartJson } from '@shop/contracts';
import { api, errorMessage } from '@/api/client';
import { storage } from '@/lib/storage';
import { logout } from '@/features/auth/authSlice';

/** What a failed cart call says when the server sent no message (docs/product.md#messages). */
export const CART_FAILURES = {
  fetch: 'Failed to fetch cart',
  add: 'Failed to add to cart',
  update: 'Failed to update item quantity',
  remove: 'Failed to remove item',
  merge: 'Failed to merge cart',
} as const;

export interface CartState {
  cart: CartJson;
  loading: boolean;
  error: string | null;
  /** The line (productId|size|color) a quantity change or removal is in flight for. */
  busyLine: string | null;
}

/** Cart toasts last one second (docs/product.md#business-constants). */
export const CART_TOAST = { duration: 1000 } as const;

export const EMPTY_CART: CartJson = { products: [], totalPrice: 0 };

export const lineKey = (line: { productId: string; size: string; color: string }) =>
  `${line.productId}|${line.size}|${line.color}`;

export function initialCartState(): CartState {
  return { cart: storage.cart() ?? EMPTY_CART, loading: false, error: null, busyLine: null };
}

/** Whose cart: the signed-in user's (the token decides; userId must match it) or the guest's. */
export interface CartOwner {
  userId?: string;
  guestId?: string;
}

export interface LineChange extends CartOwner {
  productId: string;
  quantity: number;
  size: string;
  color: string;
}

export const fetchCart = createAsyncThunk<CartJson, CartOwner, { rejectValue: string }>(
  'cart/fetch',
  async ({ userId, guestId }, { rejectWithValue }) => {
    try {
      return (await api.get<CartJson>('/api/cart', { params: { userId, guestId } })).data;
    } catch (error) {
      return rejectWithValue(errorMessage(error, CART_FAILURES.fetch));
    }
  },
);

export const addToCart = createAsyncThunk<CartJson, LineChange, { rejectValue: string }>(
  'cart/add',
  async (body, { rejectWithValue }) => {
    try {
      return (await api.post<CartJson>('/api/cart', body)).data;
    } catch (error) {
      return rejectWithValue(errorMessage(error, CART_FAILURES.add));
    }
  },
);

export const updateCartItemQuantity = createAsyncThunk<CartJson, LineChange, { rejectValue: string }>(
  'cart/update',
  async (body, { rejectWithValue }) => {
    try {
      return (await api.put<CartJson>('/api/cart', body)).data;
    } catch (error) {
      return rejectWithValue(errorMessage(error, CART_FAILURES.update));
    }
  },
  // in the cart a change that would give under 1 is ignored, removal needs the remove icon (docs/product.md#validation)
  { condition: (change) => Number.isInteger(change.quantity) && change.quantity >= 1 },
);

export const removeFromCart = createAsyncThunk<CartJson, Omit<LineChange, 'quantity'>, { rejectValue: string }>(
  'cart/remove',
  async (body, { rejectWithValue }) => {
    try {
      return (await api.delete<CartJson>('/api/cart', { data: body })).data;
    } catch (error) {
      return rejectWithValue(errorMessage(error, CART_FAILURES.remove));
    }
  },
);

/** After login/register: the guest's lines into the user's cart (the server uses the token's user). */
export const mergeCart = createAsyncThunk<CartJson, { guestId: string }, { rejectValue: string }>(
  'cart/merge',
  async ({ guestId }, { rejectWithValue }) => {
    try {
      return (await api.post<CartJson>('/api/cart/merge', { guestId })).data;
    } catch (error) {
      return rejectWithValue(errorMessage(error, CART_FAILURES.merge));
    }
  },
);

const cartSlice = createSlice({
  name: 'cart',
  initialState: initialCartState,
  reducers: {
    clearCart(state) {
      state.cart = EMPTY_CART;
      state.error = null;
    },
    /** A cart answered by another call (a wishlist item moved to the cart). */
    cartReceived(state, action: PayloadAction<CartJson>) {
      state.cart = { ...action.payload, products: action.payload.products ?? [] };
      state.error = null;
    },
  },
  extraReducers: (builder) => {
    builder
      .addCase(logout, (state) => {
        state.cart = EMPTY_CART;
        state.error = null;
        state.busyLine = null;
      })
      .addCase(updateCartItemQuantity.pending, (state, action) => {
        state.busyLine = lineKey(action.meta.arg);
      })
      .addCase(removeFromCart.pending, (state, action) => {
        state.busyLine = lineKey(action.meta.arg);
      })
      .addMatcher(
        isAnyOf(
          fetchCart.pending,
          addToCart.pending,
          updateCartItemQuantity.pending,
          removeFromCart.pending,
          mergeCart.pending,
        ),
        (state) => {
          state.loading = true;
          state.error = null;
        },
      )
      .addMatcher(
        isAnyOf(
          fetchCart.fulfilled,
          addToCart.fulfilled,
          updateCartItemQuantity.fulfilled,
          removeFromCart.fulfilled,
          mergeCart.fulfilled,
        ),
        (state, action) => {
          state.loading = false;
          state.busyLine = null;
          state.cart = { ...action.payload, products: action.payload.products ?? [] };
        },
      )
      .addMatcher(
        isAnyOf(
          fetchCart.rejected,
          addToCart.rejected,
          updateCartItemQuantity.rejected,
          removeFromCart.rejected,
          mergeCart.rejected,
        ),
        (state, action) => {
          state.loading = false;
          state.busyLine = null;
          // the known defect fixed: the server's message (or the default one) is kept
          state.error = action.payload ?? action.error.message ?? CART_FAILURES.fetch;
        },
      );
  },
});

export const { clearCart, cartReceived } = cartSlice.actions;
export const cartReducer = cartSlice.reducer;

export const selectCartCount = (state: { cart: CartState }) =>
  state.cart.cart.products.reduce((sum, line) => sum + line.quantity, 0);
