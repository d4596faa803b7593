import { createAsyncThunk, createSlice, type WithSlice } from '@reduxjs/toolkit';
import {
  TOTAL_COUNT_HEADER,
  type AdminOrderListQuery,
  type AdminStatsJson,
  type Carrier,
  type OrderJson,
  type OrderStatus,
  type ReviewPaymentAlertBody,
} from '@shop/contracts';
import { api, errorMessage, failureOf, type Failure } from '@/api/client';
import { rootReducer } from '@/app/store';
import { logout } from '@/features/auth/authSlice';
import { remote, type Remote } from '@/lib/remote';

export interface AdminOrdersState {
  /** Every order, newest first (GET /api/admin/orders). */
  list: Remote<OrderJson[]>;
  /** The dashboard's figures (GET /api/admin/stats). */
  stats: Remote<AdminStatsJson | null>;
  /** One page of a search, filters and sort (GET /api/admin/orders?page=…), and the total of every page. */
  page: Remote<{ orders: OrderJson[]; total: number }>;
  /** The order the admin's order page shows (GET /api/admin/orders/:id). */
  order: Remote<OrderJson | null>;
  /** Orders a status change is in flight for. */
  busy: string[];
}

export const initialAdminOrdersState = (): AdminOrdersState => ({
  list: remote<OrderJson[]>([]),
  stats: remote<AdminStatsJson | null>(null),
  page: remote({ orders: [], total: 0 }),
  order: remote<OrderJson | null>(null),
  busy: [],
});

type Config = { rejectValue: string };

export const fetchAllOrders = createAsyncThunk<OrderJson[], void, Config>(
  'adminOrders/fetchList',
  async (_, { rejectWithValue }) => {
    try {
      return (await api.get<OrderJson[]>('/api/admin/orders')).data;
    } catch (error) {
      return rejectWithValue(errorMessage(error));
    }
  },
);

export const fetchAdminStats = createAsyncThunk<AdminStatsJson, void, Config>(
  'adminOrders/fetchStats',
  async (_, { rejectWithValue }) => {
    try {
      return (await api.get<AdminStatsJson>('/api/admin/stats')).data;
    } catch (error) {
      return rejectWithValue(errorMessage(error));
    }
  },
);

/** A page of orders; the total of every page comes in X-Total-Count (the body stays a bare array). */
export const fetchOrderPage = createAsyncThunk<{ orders: OrderJson[]; total: number }, AdminOrderListQuery, Config>(
  'adminOrders/fetchPage',
  async (params, { rejectWithValue, signal }) => {
    try {
      const res = await api.get<OrderJson[]>('/api/admin/orders', { params, signal });
      const total = Number(res.headers[TOTAL_COUNT_HEADER.toLowerCase()]);
      return { orders: res.data, total: Number.isFinite(total) ? total : res.data.length };
    } catch (error) {
      return rejectWithValue(errorMessage(error));
    }
  },
);

/** One order with its whole history, for the admin's order page; a 404 or 400 keeps its status (not found). */
export const fetchAdminOrder = createAsyncThunk<OrderJson, string, { rejectValue: Failure }>(
  'adminOrders/fetchOrder',
  async (id, { rejectWithValue }) => {
    try {
      return (await api.get<OrderJson>(`/api/admin/orders/${encodeURIComponent(id)}`)).data;
    } catch (error) {
      return rejectWithValue(failureOf(error));
    }
  },
);

/**
 * PUT /api/admin/orders/:id `{status}` answers the updated order (Delivered also sets isDelivered); Shipped may carry
 * the parcel's `carrier` and `trackingNumber`.
 */
export const updateOrderStatus = createAsyncThunk<
  OrderJson,
  { id: string; status: OrderStatus; carrier?: Carrier; trackingNumber?: string },
  Config
>('adminOrders/updateStatus', async ({ id, status, carrier, trackingNumber }, { rejectWithValue }) => {
  try {
    const body = carrier ? { status, carrier, trackingNumber } : { status };
    return (await api.put<OrderJson>(`/api/admin/orders/${encodeURIComponent(id)}`, body)).data;
  } catch (error) {
    return rejectWithValue(errorMessage(error));
  }
});

/**
 * POST /api/admin/orders/:id/payment-alert/review `{refunds}`: the refunds and reversals the admin saw, reviewed; the
 * order leaves the dashboard's payment alerts. A 409 (another one recorded since) keeps it there.
 */
export const reviewPaymentAlert = createAsyncThunk<OrderJson, { id: string; refunds: number }, Config>(
  'adminOrders/reviewPaymentAlert',
  async ({ id, refunds }, { rejectWithValue }) => {
    try {
      const body: ReviewPaymentAlertBody = { refunds };
      return (await api.post<OrderJson>(`/api/admin/orders/${encodeURIComponent(id)}/payment-alert/review`, body)).data;
    } catch (error) {
      return rejectWithValue(errorMessage(error));
    }
  },
);

const replace = (orders: OrderJson[], order: OrderJson) => {
  const i = orders.findIndex((o) => o._id === order._id);
  if (i >= 0) orders[i] = order;
};

const adminOrdersSlice = createSlice({
  name: 'adminOrders',
  initialState: initialAdminOrdersState,
  reducers: {},
  extraReducers: (builder) => {
    builder
      .addCase(logout, () => initialAdminOrdersState())
      .addCase(fetchAllOrders.pending, (state, action) => {
        state.list.status = 'loading';
        state.list.error = null;
        state.list.requestId = action.meta.requestId;
      })
      .addCase(fetchAllOrders.fulfilled, (state, action) => {
        if (state.list.requestId !== action.meta.requestId) return;
        state.list.status = 'succeeded';
        state.list.data = action.payload;
      })
      .addCase(fetchAllOrders.rejected, (state, action) => {
        if (state.list.requestId !== action.meta.requestId) return;
        state.list.status = 'failed';
        state.list.error = action.payload ?? action.error.message ?? 'Something went wrong';
      })
      .addCase(fetchAdminStats.pending, (state, action) => {
        state.stats.status = 'loading';
        state.stats.error = null;
        state.stats.requestId = action.meta.requestId;
      })
      .addCase(fetchAdminStats.fulfilled, (state, action) => {
        if (state.stats.requestId !== action.meta.requestId) return;
        state.stats.status = 'succeeded';
        state.stats.data = action.payload;
      })
      .addCase(fetchAdminStats.rejected, (state, action) => {
        if (state.stats.requestId !== action.meta.requestId) return;
        state.stats.status = 'failed';
        state.stats.error = action.payload ?? action.error.message ?? 'Something went wrong';
      })
      .addCase(fetchOrderPage.pending, (state, action) => {
        state.page.status = 'loading';
        state.page.error = null;
        state.page.requestId = action.meta.requestId;
      })
      .addCase(fetchOrderPage.fulfilled, (state, action) => {
        if (state.page.requestId !== action.meta.requestId) return;
        state.page.status = 'succeeded';
        state.page.data = action.payload;
      })
      .addCase(fetchOrderPage.rejected, (state, action) => {
        // a newer view's request replaced this one: not an error to show
        if (state.page.requestId !== action.meta.requestId || action.meta.aborted) return;
        state.page.status = 'failed';
        state.page.error = action.payload ?? action.error.message ?? 'Something went wrong';
      })
      .addCase(fetchAdminOrder.pending, (state, action) => {
        state.order.status = 'loading';
        state.order.error = null;
        state.order.errorStatus = undefined;
        state.order.requestId = action.meta.requestId;
      })
      .addCase(fetchAdminOrder.fulfilled, (state, action) => {
        if (state.order.requestId !== action.meta.requestId) return;
        state.order.status = 'succeeded';
        state.order.data = action.payload;
      })
      .addCase(fetchAdminOrder.rejected, (state, action) => {
        if (state.order.requestId !== action.meta.requestId) return;
        state.order.status = 'failed';
        state.order.data = null;
        state.order.error = action.payload?.message ?? action.error.message ?? 'Something went wrong';
        state.order.errorStatus = action.payload?.status;
      })
      .addCase(updateOrderStatus.pending, (state, action) => {
        state.busy.push(action.meta.arg.id);
      })
      .addCase(updateOrderStatus.fulfilled, (state, action) => {
        state.busy = state.busy.filter((id) => id !== action.meta.arg.id);
        replace(state.list.data, action.payload);
        replace(state.page.data.orders, action.payload);
        if (state.stats.data) replace(state.stats.data.recentOrders, action.payload);
        if (state.order.data?._id === action.payload._id) state.order.data = action.payload;
      })
      .addCase(updateOrderStatus.rejected, (state, action) => {
        state.busy = state.busy.filter((id) => id !== action.meta.arg.id);
      })
      .addCase(reviewPaymentAlert.pending, (state, action) => {
        state.busy.push(action.meta.arg.id);
      })
      .addCase(reviewPaymentAlert.fulfilled, (state, action) => {
        state.busy = state.busy.filter((id) => id !== action.meta.arg.id);
        const alerts = state.stats.data?.paymentAlerts;
        if (alerts?.orders.some((o) => o._id === action.payload._id)) {
          alerts.orders = alerts.orders.filter((o) => o._id !== action.payload._id);
          alerts.count = Math.max(0, alerts.count - 1);
        }
        if (state.order.data?._id === action.payload._id) state.order.data = action.payload;
      })
      .addCase(reviewPaymentAlert.rejected, (state, action) => {
        state.busy = state.busy.filter((id) => id !== action.meta.arg.id);
      });
  },
});

declare module '@/app/store' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- adds this slice to the store's state type
  export interface LazyLoadedSlices extends WithSlice<typeof adminOrdersSlice> {}
}

const injected = adminOrdersSlice.injectInto(rootReducer);
export const selectAdminOrders = injected.selectSlice;
export const adminOrdersReducer = adminOrdersSlice.reducer;
