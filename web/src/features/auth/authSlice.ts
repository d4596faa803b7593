import { createAsyncThunk, createSlice, type PayloadAction } from '@reduxjs/toolkit';
import type { AuthResponse, PublicUser } from '@shop/contracts';
import { api, errorMessage } from '@/api/client';
import { newGuestId, storage } from '@/lib/storage';

export interface AuthState {
  user: PublicUser | null;
  token: string | null;
  guestId: string;
  loading: boolean;
  error: string | null;
  /** True after a logout in this visit: guarded pages then go to a plain /login, not "log in to come back". */
  signedOut?: boolean;
  /** Why the session ended when the shop ended it (the server's message for a revoked token), shown at /login. */
  signedOutReason?: string | null;
}

export function initialAuthState(): AuthState {
  const user = storage.user();
  const token = storage.token();
  // a user without a token (or the reverse) is no session at all
  return {
    user: user && token ? user : null,
    token: user && token ? token : null,
    guestId: storage.guestId(),
    loading: false,
    error: null,
  };
}

export const loginUser = createAsyncThunk<AuthResponse, { email: string; password: string }, { rejectValue: string }>(
  'auth/login',
  async (body, { rejectWithValue }) => {
    try {
      return (await api.post<AuthResponse>('/api/users/login', body)).data;
    } catch (error) {
      return rejectWithValue(errorMessage(error));
    }
  },
);

export const registerUser = createAsyncThunk<
  AuthResponse,
  { name: string; email: string; password: string },
  { rejectValue: string }
>('auth/register', async (body, { rejectWithValue }) => {
  try {
    return (await api.post<AuthResponse>('/api/users/register', body)).data;
  } catch (error) {
    return rejectWithValue(errorMessage(error));
  }
});

/** A new password with the emailed token (`/reset-password?token=…`): signed in exactly as after login. */
export const resetPassword = createAsyncThunk<
  AuthResponse,
  { token: string; password: string },
  { rejectValue: string }
>('auth/resetPassword', async (body, { rejectWithValue }) => {
  try {
    return (await api.post<AuthResponse>('/api/users/reset-password', body)).data;
  } catch (error) {
    return rejectWithValue(errorMessage(error));
  }
});

const authSlice = createSlice({
  name: 'auth',
  initialState: initialAuthState,
  reducers: {
    /**
     * Clears the user and token, makes a new guest id (the cart slice empties the cart;
     * docs/product.md#signing-in-and-out). `reason` is given when the server ended the session (a revoked token, a role
     * taken away): the login page shows it.
     */
    logout: {
      reducer(state, action: PayloadAction<{ guestId: string; reason: string | null }>) {
        state.user = null;
        state.token = null;
        state.guestId = action.payload.guestId;
        state.error = null;
        state.signedOut = true;
        state.signedOutReason = action.payload.reason;
      },
      prepare: (reason?: string) => ({ payload: { guestId: newGuestId(), reason: reason ?? null } }),
    },
    clearAuthError(state) {
      state.error = null;
    },
  },
  extraReducers: (builder) => {
    for (const thunk of [loginUser, registerUser, resetPassword]) {
      builder
        .addCase(thunk.pending, (state) => {
          state.loading = true;
          state.error = null;
        })
        .addCase(thunk.fulfilled, (state, action) => {
          state.loading = false;
          state.user = action.payload.user;
          state.token = action.payload.token;
          state.signedOut = false;
          state.signedOutReason = null;
        })
        .addCase(thunk.rejected, (state, action) => {
          state.loading = false;
          state.error = action.payload ?? action.error.message ?? 'Something went wrong';
        });
    }
  },
});

export const { logout, clearAuthError } = authSlice.actions;
export const authReducer = authSlice.reducer;
