import { createAsyncThunk, createSlice, type WithSlice } from '@reduxjs/toolkit';
import type { Category, Gender, LowStockJson, ProductImageJson, ProductJson, UploadResponse } from '@shop/contracts';
import { api, errorMessage } from '@/api/client';
import { listPageOf, totalOf, type ListPage } from '@/features/admin/listTotal';
import { rootReducer } from '@/app/store';
import { logout } from '@/features/auth/authSlice';
import { remote, type Remote } from '@/lib/remote';

export interface AdminProductsState {
  /** Every product, published or not (GET /api/admin/products), or the page of them the list page asked for. */
  list: Remote<ProductJson[]>;
  /** How many products match the list page's query in all (the X-Total-Count header), once answered. */
  total: number | null;
  /** The page and rows per page of the list shown (what "N–M of T" counts), once answered. */
  shown: ListPage | null;
  /** The product the edit form shows. */
  product: Remote<ProductJson | null>;
  /** True while the edit form is being saved. */
  saving: boolean;
  /** Products a deletion is in flight for. */
  deleting: string[];
  /** The dashboard's variants at or below the low-stock threshold. */
  lowStock: Remote<LowStockJson | null>;
}

export const initialAdminProductsState = (): AdminProductsState => ({
  list: remote<ProductJson[]>([]),
  total: null,
  shown: null,
  product: remote<ProductJson | null>(null),
  saving: false,
  deleting: [],
  lowStock: remote<LowStockJson | null>(null),
});

/** One cell of the stock grid as the server takes it (no SKU: `<product sku>-<size>-<color>`). */
export interface VariantInput {
  size: string | null;
  color: string | null;
  countInStock: number;
  sku?: string;
}

/**
 * What the edit form sends (docs/api.md#products: the create fields; originalPrice null removes it). Stock goes as
 * `variants`, the whole grid; the product's countInStock is their sum, which the server works out.
 */
export interface ProductInput {
  name: string;
  description: string;
  price: number;
  originalPrice: number | null;
  sku?: string;
  category: Category;
  brand: string;
  sizes: string[];
  colors: string[];
  collections: string;
  material: string;
  gender: Gender;
  images: ProductImageJson[];
  isPublished: boolean;
  variants: VariantInput[];
}

type Config = { rejectValue: string };
const productPath = (id: string) => `/api/admin/products/${encodeURIComponent(id)}`;

/**
 * The list: every product without parameters; with them (`page`, `limit`, `q`, `category`, `published`, `lowStock`,
 * `sort`: packages/contracts admin-lists.ts) one page, and the total the server counted.
 */
export const fetchAdminProducts = createAsyncThunk<
  { products: ProductJson[]; total: number },
  Record<string, string> | void,
  Config
>('adminProducts/fetchList', async (params, { rejectWithValue }) => {
  try {
    const res = await api.get<ProductJson[]>('/api/admin/products', params ? { params } : undefined);
    return { products: res.data, total: totalOf(res.headers, res.data.length) };
  } catch (error) {
    return rejectWithValue(errorMessage(error));
  }
});

export const fetchLowStock = createAsyncThunk<LowStockJson, void, Config>(
  'adminProducts/fetchLowStock',
  async (_, { rejectWithValue }) => {
    try {
      return (await api.get<LowStockJson>('/api/admin/products/low-stock')).data;
    } catch (error) {
      return rejectWithValue(errorMessage(error));
    }
  },
);

/** The admin read: unpublished products too (the public GET /api/products/:id shows published ones only). */
export const fetchAdminProduct = createAsyncThunk<ProductJson, string, Config>(
  'adminProducts/fetchOne',
  async (id, { rejectWithValue }) => {
    try {
      return (await api.get<ProductJson>(productPath(id))).data;
    } catch (error) {
      return rejectWithValue(errorMessage(error));
    }
  },
);

export const createProduct = createAsyncThunk<ProductJson, ProductInput, Config>(
  'adminProducts/create',
  async (body, { rejectWithValue }) => {
    try {
      return (await api.post<ProductJson>('/api/admin/products', body)).data;
    } catch (error) {
      return rejectWithValue(errorMessage(error));
    }
  },
);

/** PUT /api/admin/products/:id answers the updated product. */
export const updateProduct = createAsyncThunk<ProductJson, { id: string; changes: Partial<ProductInput> }, Config>(
  'adminProducts/update',
  async ({ id, changes }, { rejectWithValue }) => {
    try {
      return (await api.put<ProductJson>(productPath(id), changes)).data;
    } catch (error) {
      return rejectWithValue(errorMessage(error));
    }
  },
);

/** DELETE /api/products/:id (docs/api.md#products). */
export const deleteProduct = createAsyncThunk<string, string, Config>(
  'adminProducts/delete',
  async (id, { rejectWithValue }) => {
    try {
      await api.delete(`/api/products/${encodeURIComponent(id)}`);
      return id;
    } catch (error) {
      return rejectWithValue(errorMessage(error));
    }
  },
);

/** POST /api/upload, multipart with the file in the `image` field: the URL the product's image list takes. */
export async function uploadImage(file: File): Promise<string> {
  const form = new FormData();
  form.append('image', file);
  // axios leaves the Content-Type of a FormData body to the browser (multipart/form-data with its boundary)
  return (await api.post<UploadResponse>('/api/upload', form)).data.imageUrl;
}

const adminProductsSlice = createSlice({
  name: 'adminProducts',
  initialState: initialAdminProductsState,
  reducers: {},
  extraReducers: (builder) => {
    builder
      .addCase(logout, () => initialAdminProductsState())
      .addCase(fetchAdminProducts.pending, (state, action) => {
        state.list.status = 'loading';
        state.list.error = null;
        state.list.requestId = action.meta.requestId;
      })
      .addCase(fetchAdminProducts.fulfilled, (state, action) => {
        if (state.list.requestId !== action.meta.requestId) return;
        state.list.status = 'succeeded';
        state.list.data = action.payload.products;
        state.total = action.payload.total;
        state.shown = listPageOf(action.meta.arg);
      })
      .addCase(fetchAdminProducts.rejected, (state, action) => {
        if (state.list.requestId !== action.meta.requestId) return;
        state.list.status = 'failed';
        state.list.error = action.payload ?? action.error.message ?? 'Something went wrong';
      })
      .addCase(fetchLowStock.pending, (state, action) => {
        state.lowStock.status = 'loading';
        state.lowStock.error = null;
        state.lowStock.requestId = action.meta.requestId;
      })
      .addCase(fetchLowStock.fulfilled, (state, action) => {
        if (state.lowStock.requestId !== action.meta.requestId) return;
        state.lowStock.status = 'succeeded';
        state.lowStock.data = action.payload;
      })
      .addCase(fetchLowStock.rejected, (state, action) => {
        if (state.lowStock.requestId !== action.meta.requestId) return;
        state.lowStock.status = 'failed';
        state.lowStock.error = action.payload ?? action.error.message ?? 'Something went wrong';
      })
      .addCase(fetchAdminProduct.pending, (state, action) => {
        state.product.status = 'loading';
        state.product.error = null;
        state.product.requestId = action.meta.requestId;
        // never show another product's values in the form while this one loads
        if (state.product.data?._id !== action.meta.arg) {
          state.product.data = state.list.data.find((p) => p._id === action.meta.arg) ?? null;
        }
      })
      .addCase(fetchAdminProduct.fulfilled, (state, action) => {
        if (state.product.requestId !== action.meta.requestId) return;
        state.product.status = 'succeeded';
        state.product.data = action.payload;
      })
      .addCase(fetchAdminProduct.rejected, (state, action) => {
        if (state.product.requestId !== action.meta.requestId) return;
        state.product.status = 'failed';
        state.product.data = null;
        state.product.error = action.payload ?? action.error.message ?? 'Something went wrong';
      })
      .addCase(createProduct.pending, (state) => {
        state.saving = true;
      })
      .addCase(createProduct.fulfilled, (state, action) => {
        state.saving = false;
        state.list.data.unshift(action.payload);
        if (state.total !== null) state.total += 1;
        state.product = { ...remote<ProductJson | null>(action.payload), status: 'succeeded' };
      })
      .addCase(createProduct.rejected, (state) => {
        state.saving = false;
      })
      .addCase(updateProduct.pending, (state) => {
        state.saving = true;
      })
      // the list's entry is replaced, not only the edited product (docs/pitfalls.md#stale-list-after-an-edit)
      .addCase(updateProduct.fulfilled, (state, action) => {
        state.saving = false;
        const i = state.list.data.findIndex((p) => p._id === action.payload._id);
        if (i >= 0) state.list.data[i] = action.payload;
        if (!state.product.data || state.product.data._id === action.payload._id) {
          state.product.data = action.payload;
          state.product.status = 'succeeded';
        }
      })
      .addCase(updateProduct.rejected, (state) => {
        state.saving = false;
      })
      .addCase(deleteProduct.pending, (state, action) => {
        state.deleting.push(action.meta.arg);
      })
      .addCase(deleteProduct.fulfilled, (state, action) => {
        state.deleting = state.deleting.filter((id) => id !== action.meta.arg);
        const before = state.list.data.length;
        state.list.data = state.list.data.filter((p) => p._id !== action.payload);
        if (state.total !== null && state.list.data.length < before) state.total -= 1;
        if (state.product.data?._id === action.payload) state.product = remote<ProductJson | null>(null);
      })
      .addCase(deleteProduct.rejected, (state, action) => {
        state.deleting = state.deleting.filter((id) => id !== action.meta.arg);
      });
  },
});

declare module '@/app/store' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- adds this slice to the store's state type
  export interface LazyLoadedSlices extends WithSlice<typeof adminProductsSlice> {}
}

const injected = adminProductsSlice.injectInto(rootReducer);
export const selectAdminProducts = injected.selectSlice;
export const adminProductsReducer = adminProductsSlice.reducer;
