import { createAsyncThunk, createSlice, type WithSlice } from '@reduxjs/toolkit';
import type { PublicUser, Role } from '@shop/contracts';
import { api, errorMessage } from '@/api/client';
import { listPageOf, totalOf, type ListPage } from '@/features/admin/listTotal';
import { rootReducer } from '@/app/store';
import { logout } from '@/features/auth/authSlice';
import { remote, type Remote } from '@/lib/remote';

export interface AdminUsersState {
  /** Every user, or the page of them the list page asked for. */
  list: Remote<PublicUser[]>;
  /** How many users match the list page's query in all (the X-Total-Count header), once answered. */
  total: number | null;
  /** The page and rows per page of the list shown (what "N–M of T" counts), once answered. */
  shown: ListPage | null;
  /** True while the add-user form is being sent. */
  adding: boolean;
  /** Users a role change or a deletion is in flight for. */
  busy: string[];
}

export const initialAdminUsersState = (): AdminUsersState => ({
  list: remote<PublicUser[]>([]),
  total: null,
  shown: null,
  adding: false,
  busy: [],
});

type Config = { rejectValue: string };

export interface NewUser {
  name: string;
  email: string;
  password: string;
  /** Customer unless chosen otherwise (docs/product.md#validation). */
  role: Role;
}

/**
 * The list: every user without parameters; with them (`page`, `limit`, `q`, `role`, `sort`: packages/contracts
 * admin-lists.ts) one page, and the total the server counted.
 */
export const fetchUsers = createAsyncThunk<
  { users: PublicUser[]; total: number },
  Record<string, string> | void,
  Config
>('adminUsers/fetch', async (params, { rejectWithValue }) => {
  try {
    const res = await api.get<PublicUser[]>('/api/admin/users', params ? { params } : undefined);
    return { users: res.data, total: totalOf(res.headers, res.data.length) };
  } catch (error) {
    return rejectWithValue(errorMessage(error));
  }
});

/** POST /api/admin/users answers `{message, user}`. */
export const addUser = createAsyncThunk<PublicUser, NewUser, Config>(
  'adminUsers/add',
  async (body, { rejectWithValue }) => {
    try {
      return (await api.post<{ message: string; user: PublicUser }>('/api/admin/users', body)).data.user;
    } catch (error) {
      return rejectWithValue(errorMessage(error));
    }
  },
);

/** PUT /api/admin/users/:id: the user is the response's `user` (docs/api.md#users). */
export const updateUser = createAsyncThunk<
  PublicUser,
  { id: string; changes: Partial<Pick<PublicUser, 'name' | 'email' | 'role'>> },
  Config
>('adminUsers/update', async ({ id, changes }, { rejectWithValue }) => {
  try {
    return (await api.put<{ message: string; user: PublicUser }>(`/api/admin/users/${encodeURIComponent(id)}`, changes))
      .data.user;
  } catch (error) {
    return rejectWithValue(errorMessage(error));
  }
});

export const deleteUser = createAsyncThunk<string, string, Config>(
  'adminUsers/delete',
  async (id, { rejectWithValue }) => {
    try {
      await api.delete(`/api/admin/users/${encodeURIComponent(id)}`);
      return id;
    } catch (error) {
      return rejectWithValue(errorMessage(error));
    }
  },
);

const done = (state: AdminUsersState, id: string) => {
  state.busy = state.busy.filter((b) => b !== id);
};

const adminUsersSlice = createSlice({
  name: 'adminUsers',
  initialState: initialAdminUsersState,
  reducers: {},
  extraReducers: (builder) => {
    builder
      .addCase(logout, () => initialAdminUsersState())
      .addCase(fetchUsers.pending, (state, action) => {
        state.list.status = 'loading';
        state.list.error = null;
        state.list.requestId = action.meta.requestId;
      })
      .addCase(fetchUsers.fulfilled, (state, action) => {
        if (state.list.requestId !== action.meta.requestId) return;
        state.list.status = 'succeeded';
        state.list.data = action.payload.users;
        state.total = action.payload.total;
        state.shown = listPageOf(action.meta.arg);
      })
      .addCase(fetchUsers.rejected, (state, action) => {
        if (state.list.requestId !== action.meta.requestId) return;
        state.list.status = 'failed';
        state.list.error = action.payload ?? action.error.message ?? 'Something went wrong';
      })
      .addCase(addUser.pending, (state) => {
        state.adding = true;
      })
      .addCase(addUser.fulfilled, (state, action) => {
        state.adding = false;
        state.list.data = [action.payload, ...state.list.data.filter((u) => u._id !== action.payload._id)];
        if (state.total !== null) state.total += 1;
      })
      .addCase(addUser.rejected, (state) => {
        state.adding = false;
      })
      .addCase(updateUser.pending, (state, action) => {
        state.busy.push(action.meta.arg.id);
      })
      .addCase(updateUser.fulfilled, (state, action) => {
        done(state, action.meta.arg.id);
        const i = state.list.data.findIndex((u) => u._id === action.payload._id);
        if (i >= 0) state.list.data[i] = action.payload;
      })
      .addCase(updateUser.rejected, (state, action) => done(state, action.meta.arg.id))
      .addCase(deleteUser.pending, (state, action) => {
        state.busy.push(action.meta.arg);
      })
      .addCase(deleteUser.fulfilled, (state, action) => {
        done(state, action.meta.arg);
        const before = state.list.data.length;
        state.list.data = state.list.data.filter((u) => u._id !== action.payload);
        if (state.total !== null && state.list.data.length < before) state.total -= 1;
      })
      .addCase(deleteUser.rejected, (state, action) => done(state, action.meta.arg));
  },
});

declare module '@/app/store' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- adds this slice to the store's state type
  export interface LazyLoadedSlices extends WithSlice<typeof adminUsersSlice> {}
}

const injected = adminUsersSlice.injectInto(rootReducer);
/** The slice's state (its initial state until its first action: it joins the store when this code loads). */
export const selectAdminUsers = injected.selectSlice;
export const adminUsersReducer = adminUsersSlice.reducer;
