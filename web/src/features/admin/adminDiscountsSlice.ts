import { createAsyncThunk, createSlice, type WithSlice } from '@reduxjs/toolkit';
import type { DiscountCodeBody, DiscountCodeJson } from '@shop/contracts';
import { api, errorMessage } from '@/api/client';
import { rootReducer } from '@/app/store';
import { logout } from '@/features/auth/authSlice';
import { remote, type Remote } from '@/lib/remote';

export interface AdminDiscountsState {
  /** Every code, newest first (GET /api/admin/discounts). */
  list: Remote<DiscountCodeJson[]>;
  /** True while the form is being sent. */
  saving: boolean;
  /** Codes a deactivation is in flight for. */
  busy: string[];
}

export const initialAdminDiscountsState = (): AdminDiscountsState => ({
  list: remote<DiscountCodeJson[]>([]),
  saving: false,
  busy: [],
});

type Config = { rejectValue: string };
const path = (id: string) => `/api/admin/discounts/${encodeURIComponent(id)}`;

export const fetchDiscounts = createAsyncThunk<DiscountCodeJson[], void, Config>(
  'adminDiscounts/fetch',
  async (_, { rejectWithValue }) => {
    try {
      return (await api.get<DiscountCodeJson[]>('/api/admin/discounts')).data;
    } catch (error) {
      return rejectWithValue(errorMessage(error));
    }
  },
);

/** POST /api/admin/discounts answers 201 with the code. */
export const createDiscount = createAsyncThunk<DiscountCodeJson, DiscountCodeBody, Config>(
  'adminDiscounts/create',
  async (body, { rejectWithValue }) => {
    try {
      return (await api.post<DiscountCodeJson>('/api/admin/discounts', body)).data;
    } catch (error) {
      return rejectWithValue(errorMessage(error));
    }
  },
);

/** PUT /api/admin/discounts/:id takes every field, as created, and answers the code. */
export const updateDiscount = createAsyncThunk<DiscountCodeJson, { id: string; body: DiscountCodeBody }, Config>(
  'adminDiscounts/update',
  async ({ id, body }, { rejectWithValue }) => {
    try {
      return (await api.put<DiscountCodeJson>(path(id), body)).data;
    } catch (error) {
      return rejectWithValue(errorMessage(error));
    }
  },
);

/** DELETE /api/admin/discounts/:id deactivates the code (orders keep it) and answers `{message}`. */
export const deactivateDiscount = createAsyncThunk<string, string, Config>(
  'adminDiscounts/deactivate',
  async (id, { rejectWithValue }) => {
    try {
      await api.delete(path(id));
      return id;
    } catch (error) {
      return rejectWithValue(errorMessage(error));
    }
  },
);

const done = (state: AdminDiscountsState, id: string) => {
  state.busy = state.busy.filter((b) => b !== id);
};

const adminDiscountsSlice = createSlice({
  name: 'adminDiscounts',
  initialState: initialAdminDiscountsState,
  reducers: {},
  extraReducers: (builder) => {
    builder
      .addCase(logout, () => initialAdminDiscountsState())
      .addCase(fetchDiscounts.pending, (state, action) => {
        state.list.status = 'loading';
        state.list.error = null;
        state.list.requestId = action.meta.requestId;
      })
      .addCase(fetchDiscounts.fulfilled, (state, action) => {
        if (state.list.requestId !== action.meta.requestId) return;
        state.list.status = 'succeeded';
        state.list.data = action.payload;
      })
      .addCase(fetchDiscounts.rejected, (state, action) => {
        if (state.list.requestId !== action.meta.requestId) return;
        state.list.status = 'failed';
        state.list.error = action.payload ?? action.error.message ?? 'Something went wrong';
      })
      .addCase(createDiscount.pending, (state) => {
        state.saving = true;
      })
      .addCase(createDiscount.fulfilled, (state, action) => {
        state.saving = false;
        state.list.data = [action.payload, ...state.list.data.filter((d) => d._id !== action.payload._id)];
      })
      .addCase(createDiscount.rejected, (state) => {
        state.saving = false;
      })
      .addCase(updateDiscount.pending, (state) => {
        state.saving = true;
      })
      .addCase(updateDiscount.fulfilled, (state, action) => {
        state.saving = false;
        const i = state.list.data.findIndex((d) => d._id === action.payload._id);
        if (i >= 0) state.list.data[i] = action.payload;
      })
      .addCase(updateDiscount.rejected, (state) => {
        state.saving = false;
      })
      .addCase(deactivateDiscount.pending, (state, action) => {
        state.busy.push(action.meta.arg);
      })
      .addCase(deactivateDiscount.fulfilled, (state, action) => {
        done(state, action.meta.arg);
        const code = state.list.data.find((d) => d._id === action.payload);
        if (code) {
          code.active = false;
          code.status = 'inactive';
        }
      })
      .addCase(deactivateDiscount.rejected, (state, action) => done(state, action.meta.arg));
  },
});

declare module '@/app/store' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- adds this slice to the store's state type
  export interface LazyLoadedSlices extends WithSlice<typeof adminDiscountsSlice> {}
}

const injected = adminDiscountsSlice.injectInto(rootReducer);
/** The slice's state (its initial state until its first action: it joins the store when this code loads). */
export const selectAdminDiscounts = injected.selectSlice;
export const adminDiscountsReducer = adminDiscountsSlice.reducer;
