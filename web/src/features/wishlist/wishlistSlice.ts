import { createAsyncThunk, createSlice, isAnyOf, type PayloadAction, type WithSlice } from '@reduxjs/toolkit';
import type { WishlistJson } from '@shop/contracts';
import { api, errorMessage } from '@/api/client';
import { rootReducer } from '@/app/store';
import { logout } from '@/features/auth/authSlice';

/**
 * What every page needs of the wishlist: which products are saved (the hearts, the header's count). The slice joins the
 * store when this code loads (after the first page has shown: Layout, the hearts), so none of it is in a shopper's
 * first route (issue 27's 100 KB).
 */
export interface WishlistState {
  ids: string[];
  /** The products a save or removal is under way for (their hearts wait). */
  busy: string[];
}

export const initialWishlistState = (): WishlistState => ({ ids: [], busy: [] });

interface Owner {
  guestId: string;
  userId?: string;
}

const ownerOf = (state: { auth: { guestId: string; user: { _id: string } | null } }): Owner => ({
  guestId: state.auth.guestId,
  ...(state.auth.user ? { userId: state.auth.user._id } : {}),
});

type Thunk = { state: { auth: { guestId: string; user: { _id: string } | null } }; rejectValue: string };

/** The saved products (the token's user's, or the guest's). */
export const fetchWishlist = createAsyncThunk<WishlistJson, void, Thunk>(
  'wishlist/fetch',
  async (_, { getState, rejectWithValue }) => {
    try {
      return (await api.get<WishlistJson>('/api/wishlist', { params: ownerOf(getState()) })).data;
    } catch (error) {
      return rejectWithValue(errorMessage(error, 'Failed to fetch wishlist'));
    }
  },
);

/** The heart: saves the product, or takes it out when `saved` is false. */
export const setSaved = createAsyncThunk<WishlistJson, { productId: string; saved: boolean }, Thunk>(
  'wishlist/setSaved',
  async ({ productId, saved }, { getState, rejectWithValue }) => {
    const owner = ownerOf(getState());
    try {
      const answer = saved
        ? await api.post<WishlistJson>('/api/wishlist', { productId, ...owner })
        : await api.delete<WishlistJson>(`/api/wishlist/${productId}`, { params: owner });
      return answer.data;
    } catch (error) {
      return rejectWithValue(
        errorMessage(error, saved ? 'Failed to save to wishlist' : 'Failed to remove from wishlist'),
      );
    }
  },
);

/** After login or registration: the guest's saved products join the account's, each once (the token's user). */
export const mergeWishlist = createAsyncThunk<WishlistJson, { guestId: string }, Thunk>(
  'wishlist/merge',
  async ({ guestId }, { rejectWithValue }) => {
    try {
      return (await api.post<WishlistJson>('/api/wishlist/merge', { guestId })).data;
    } catch (error) {
      return rejectWithValue(errorMessage(error, 'Failed to merge wishlist'));
    }
  },
);

const wishlistSlice = createSlice({
  name: 'wishlist',
  initialState: initialWishlistState,
  reducers: {
    /** A wishlist answered elsewhere (the wishlist page's read, a move to the cart). */
    wishlistReceived(state, action: PayloadAction<WishlistJson>) {
      state.ids = action.payload.items.map((i) => i.productId);
    },
  },
  extraReducers: (builder) => {
    builder
      .addCase(logout, () => initialWishlistState())
      .addCase(setSaved.pending, (state, action) => {
        state.busy.push(action.meta.arg.productId);
      })
      .addCase(setSaved.rejected, (state, action) => {
        state.busy = state.busy.filter((id) => id !== action.meta.arg.productId);
      })
      .addCase(setSaved.fulfilled, (state, action) => {
        state.busy = state.busy.filter((id) => id !== action.meta.arg.productId);
        state.ids = action.payload.items.map((i) => i.productId);
      })
      .addMatcher(isAnyOf(fetchWishlist.fulfilled, mergeWishlist.fulfilled), (state, action) => {
        state.ids = action.payload.items.map((i) => i.productId);
      });
  },
});

declare module '@/app/store' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- adds this slice to the store's state type
  export interface LazyLoadedSlices extends WithSlice<typeof wishlistSlice> {}
}

const injected = wishlistSlice.injectInto(rootReducer);
/** The slice's state (its initial state until its first action). */
export const selectWishlist = injected.selectSlice;

export const { wishlistReceived } = wishlistSlice.actions;
