import { createAsyncThunk, createSlice, type WithSlice } from '@reduxjs/toolkit';
import type { OrderJson } from '@shop/contracts';
import { api, failureOf, type Failure } from '@/api/client';
import { rootReducer } from '@/app/store';
import { logout } from '@/features/auth/authSlice';
import { remote, type Remote } from '@/lib/remote';

export interface OrdersState {
  mine: Remote<OrderJson[]>;
  details: Remote<OrderJson | null>;
}

export const initialOrdersState = (): OrdersState => ({
  mine: remote<OrderJson[]>([]),
  details: remote<OrderJson | null>(null),
});

export const fetchUserOrders = createAsyncThunk<OrderJson[], void, { rejectValue: Failure }>(
  'orders/fetchMine',
  async (_, { rejectWithValue }) => {
    try {
      return (await api.get<OrderJson[]>('/api/orders/my-orders')).data;
    } catch (error) {
      return rejectWithValue(failureOf(error));
    }
  },
);

export const fetchOrderDetails = createAsyncThunk<OrderJson, string, { rejectValue: Failure }>(
  'orders/fetchDetails',
  async (id, { rejectWithValue }) => {
    try {
      return (await api.get<OrderJson>(`/api/orders/${encodeURIComponent(id)}`)).data;
    } catch (error) {
      return rejectWithValue(failureOf(error));
    }
  },
);

const ordersSlice = createSlice({
  name: 'orders',
  initialState: initialOrdersState,
  reducers: {},
  extraReducers: (builder) => {
    builder
      .addCase(logout, () => initialOrdersState())
      .addCase(fetchUserOrders.pending, (state, action) => {
        state.mine.status = 'loading';
        state.mine.error = null;
        state.mine.errorStatus = undefined;
        state.mine.requestId = action.meta.requestId;
      })
      .addCase(fetchUserOrders.fulfilled, (state, action) => {
        if (state.mine.requestId !== action.meta.requestId) return;
        state.mine.status = 'succeeded';
        state.mine.data = action.payload;
      })
      .addCase(fetchUserOrders.rejected, (state, action) => {
        if (state.mine.requestId !== action.meta.requestId) return;
        state.mine.status = 'failed';
        state.mine.error = action.payload?.message ?? action.error.message ?? 'Something went wrong';
        state.mine.errorStatus = action.payload?.status;
      })
      .addCase(fetchOrderDetails.pending, (state, action) => {
        state.details.status = 'loading';
        state.details.error = null;
        state.details.errorStatus = undefined;
        state.details.requestId = action.meta.requestId;
        if (state.details.data?._id !== action.meta.arg) state.details.data = null;
      })
      .addCase(fetchOrderDetails.fulfilled, (state, action) => {
        if (state.details.requestId !== action.meta.requestId) return;
        state.details.status = 'succeeded';
        state.details.data = action.payload;
      })
      .addCase(fetchOrderDetails.rejected, (state, action) => {
        if (state.details.requestId !== action.meta.requestId) return;
        state.details.status = 'failed';
        state.details.data = null;
        state.details.error = action.payload?.message ?? action.error.message ?? 'Something went wrong';
        state.details.errorStatus = action.payload?.status;
      });
  },
});

declare module '@/app/store' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- adds this slice to the store's state type
  export interface LazyLoadedSlices extends WithSlice<typeof ordersSlice> {}
}

const injected = ordersSlice.injectInto(rootReducer);
/** The slice's state (its initial state until its first action: it joins the store when this code loads). */
export const selectOrders = injected.selectSlice;

export const ordersReducer = ordersSlice.reducer;
