import { createAsyncThunk, createSlice, type WithSlice } from '@reduxjs/toolkit';
import type {
  CartLineJson,
  CheckoutJson,
  OrderJson,
  PaymentMethod,
  ShippingAddress,
  ShopConfigJson,
} from '@shop/contracts';
import { api, errorMessage } from '@/api/client';
import { rootReducer, type RootState } from '@/app/store';
import { logout } from '@/features/auth/authSlice';

export interface CheckoutState {
  config: ShopConfigJson | null;
  /** The checkout being paid (kept in memory only: docs/product.md#a-purchase). */
  checkout: CheckoutJson | null;
  /** The order the paid checkout became; the confirmation page shows it. */
  order: OrderJson | null;
  creating: boolean;
  error: string | null;
}

export const initialCheckoutState = (): CheckoutState => ({
  config: null,
  checkout: null,
  order: null,
  creating: false,
  error: null,
});

type Config = { rejectValue: string };

/** GET /api/config: real PayPal (client id) or the fake (its base URL), so one build serves every environment. */
export const fetchShopConfig = createAsyncThunk<ShopConfigJson, void, Config>(
  'checkout/config',
  async (_, { rejectWithValue }) => {
    try {
      return (await api.get<ShopConfigJson>('/api/config')).data;
    } catch (error) {
      return rejectWithValue(errorMessage(error));
    }
  },
  { condition: (_, { getState }) => !selectCheckout(getState() as RootState).config },
);

export interface CreateCheckoutBody {
  checkoutItems: CartLineJson[];
  shippingAddress: ShippingAddress;
  paymentMethod: PaymentMethod;
  totalPrice: number;
  /** A code the shopper applied (the server checks it again: a 400 with its message when refused). */
  discountCode?: string;
}

export const createCheckout = createAsyncThunk<CheckoutJson, CreateCheckoutBody, Config>(
  'checkout/create',
  async (body, { rejectWithValue }) => {
    try {
      return (await api.post<CheckoutJson>('/api/checkout', body)).data;
    } catch (error) {
      return rejectWithValue(errorMessage(error));
    }
  },
);

/** PUT /api/checkout/:id/pay with PayPal's order id; the server verifies it with PayPal before it says paid. */
export const payCheckout = createAsyncThunk<
  CheckoutJson,
  { id: string; paymentDetails: { id: string } & Record<string, unknown> },
  Config
>('checkout/pay', async ({ id, paymentDetails }, { rejectWithValue }) => {
  try {
    return (
      await api.put<CheckoutJson>(`/api/checkout/${encodeURIComponent(id)}/pay`, {
        paymentStatus: 'paid',
        paymentDetails,
      })
    ).data;
  } catch (error) {
    return rejectWithValue(errorMessage(error));
  }
});

export const finalizeCheckout = createAsyncThunk<OrderJson, string, Config>(
  'checkout/finalize',
  async (id, { rejectWithValue }) => {
    try {
      return (await api.post<OrderJson>(`/api/checkout/${encodeURIComponent(id)}/finalize`)).data;
    } catch (error) {
      return rejectWithValue(errorMessage(error));
    }
  },
);

const checkoutSlice = createSlice({
  name: 'checkout',
  initialState: initialCheckoutState,
  reducers: {
    resetCheckout(state) {
      state.checkout = null;
      state.error = null;
    },
  },
  extraReducers: (builder) => {
    builder
      .addCase(logout, (state) => ({ ...initialCheckoutState(), config: state.config }))
      .addCase(fetchShopConfig.fulfilled, (state, action) => {
        state.config = action.payload;
      })
      .addCase(createCheckout.pending, (state) => {
        state.creating = true;
        state.error = null;
      })
      .addCase(createCheckout.fulfilled, (state, action) => {
        state.creating = false;
        state.checkout = action.payload;
        state.order = null;
      })
      .addCase(createCheckout.rejected, (state, action) => {
        state.creating = false;
        state.error = action.payload ?? action.error.message ?? 'Something went wrong';
      })
      .addCase(payCheckout.fulfilled, (state, action) => {
        state.checkout = action.payload;
      })
      .addCase(finalizeCheckout.fulfilled, (state, action) => {
        state.order = action.payload;
      });
  },
});

declare module '@/app/store' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- adds this slice to the store's state type
  export interface LazyLoadedSlices extends WithSlice<typeof checkoutSlice> {}
}

const injected = checkoutSlice.injectInto(rootReducer);
/** The slice's state (its initial state until its first action: it joins the store when this code loads). */
export const selectCheckout = injected.selectSlice;

export const { resetCheckout } = checkoutSlice.actions;
export const checkoutReducer = checkoutSlice.reducer;
