import { createAsyncThunk, createSlice, type ActionReducerMapBuilder, type AsyncThunk } from '@reduxjs/toolkit';
import type { ProductJson } from '@shop/contracts';
import { api, errorMessage } from '@/api/client';
import { remote, type Remote } from '@/lib/remote';
import type { ProductQuery } from './filters';

export interface CatalogState {
  /** The collection page's grid. */
  list: Remote<ProductJson[]>;
  product: Remote<ProductJson | null>;
  similar: Remote<ProductJson[]>;
  newArrivals: Remote<ProductJson[]>;
  bestSeller: Remote<ProductJson | null>;
  topWomen: Remote<ProductJson[]>;
}

export const initialCatalogState = (): CatalogState => ({
  list: remote<ProductJson[]>([]),
  product: remote<ProductJson | null>(null),
  similar: remote<ProductJson[]>([]),
  newArrivals: remote<ProductJson[]>([]),
  bestSeller: remote<ProductJson | null>(null),
  topWomen: remote<ProductJson[]>([]),
});

type Config = { rejectValue: string };

/** GET /api/products with the collection and the filters of the query string (docs/api.md#product-filters). */
export const fetchProductsByFilters = createAsyncThunk<ProductJson[], ProductQuery, Config>(
  'catalog/fetchList',
  async (query, { rejectWithValue, signal }) => {
    try {
      return (await api.get<ProductJson[]>('/api/products', { params: query, signal })).data;
    } catch (error) {
      return rejectWithValue(errorMessage(error));
    }
  },
);

export const fetchProductDetails = createAsyncThunk<ProductJson, string, Config>(
  'catalog/fetchProduct',
  async (id, { rejectWithValue, signal }) => {
    try {
      return (await api.get<ProductJson>(`/api/products/${encodeURIComponent(id)}`, { signal })).data;
    } catch (error) {
      return rejectWithValue(errorMessage(error));
    }
  },
);

export const fetchSimilarProducts = createAsyncThunk<ProductJson[], string, Config>(
  'catalog/fetchSimilar',
  async (id, { rejectWithValue, signal }) => {
    try {
      return (await api.get<ProductJson[]>(`/api/products/similar/${encodeURIComponent(id)}`, { signal })).data;
    } catch (error) {
      return rejectWithValue(errorMessage(error));
    }
  },
);

export const fetchNewArrivals = createAsyncThunk<ProductJson[], void, Config>(
  'catalog/fetchNewArrivals',
  async (_, { rejectWithValue }) => {
    try {
      return (await api.get<ProductJson[]>('/api/products/new-arrivals')).data;
    } catch (error) {
      return rejectWithValue(errorMessage(error));
    }
  },
);

export const fetchBestSeller = createAsyncThunk<ProductJson, void, Config>(
  'catalog/fetchBestSeller',
  async (_, { rejectWithValue }) => {
    try {
      return (await api.get<ProductJson>('/api/products/best-seller')).data;
    } catch (error) {
      return rejectWithValue(errorMessage(error));
    }
  },
);

/** Home: Top Wears for Women, 8 products (docs/product.md#home). */
export const fetchTopWomen = createAsyncThunk<ProductJson[], void, Config>(
  'catalog/fetchTopWomen',
  async (_, { rejectWithValue }) => {
    try {
      const params = { gender: 'Women', category: 'Top Wear', limit: 8 };
      return (await api.get<ProductJson[]>('/api/products', { params })).data;
    } catch (error) {
      return rejectWithValue(errorMessage(error));
    }
  },
);

type RemoteKey = keyof CatalogState;

/** pending → loading; fulfilled → data (only the latest request's); rejected → the server's message kept. */
function track<T, A>(
  builder: ActionReducerMapBuilder<CatalogState>,
  thunk: AsyncThunk<T, A, Config>,
  key: RemoteKey,
  onPending?: (state: CatalogState, arg: A) => void,
) {
  builder
    .addCase(thunk.pending, (state, action) => {
      const slot = state[key] as Remote<unknown>;
      slot.status = 'loading';
      slot.error = null;
      slot.requestId = action.meta.requestId;
      onPending?.(state, action.meta.arg);
    })
    .addCase(thunk.fulfilled, (state, action) => {
      const slot = state[key] as Remote<unknown>;
      if (slot.requestId !== action.meta.requestId) return;
      slot.status = 'succeeded';
      slot.data = action.payload;
    })
    .addCase(thunk.rejected, (state, action) => {
      const slot = state[key] as Remote<unknown>;
      if (slot.requestId !== action.meta.requestId) return;
      if (action.meta.aborted) return; // replaced by a newer request, which is loading
      slot.status = 'failed';
      slot.error = action.payload ?? action.error.message ?? 'Something went wrong';
    });
}

const catalogSlice = createSlice({
  name: 'catalog',
  initialState: initialCatalogState,
  reducers: {},
  extraReducers: (builder) => {
    track(builder, fetchProductsByFilters, 'list');
    track(builder, fetchProductDetails, 'product', (state, id) => {
      if (state.product.data?._id !== id) state.product.data = null;
    });
    track(builder, fetchSimilarProducts, 'similar', (state) => {
      state.similar.data = [];
    });
    track(builder, fetchNewArrivals, 'newArrivals');
    track(builder, fetchBestSeller, 'bestSeller');
    track(builder, fetchTopWomen, 'topWomen');
  },
});

export const catalogReducer = catalogSlice.reducer;
