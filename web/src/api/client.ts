// The one HTTP client of the SPA: same origin (the gateway serves both the SPA and /api), the bearer token
// from local storage on every call (docs/api.md#authorization), and the server's `message` surfaced as the error.
import axios, { AxiosError, type AxiosInstance } from 'axios';
import type { ApiError } from '@shop/contracts';
import { storage } from '@/lib/storage';

export const api: AxiosInstance = axios.create({
  baseURL: '/',
  headers: { Accept: 'application/json' },
  timeout: 20_000,
});

api.interceptors.request.use((config) => {
  const token = storage.token();
  if (token && !config.headers.has('Authorization')) config.headers.set('Authorization', `Bearer ${token}`);
  return config;
});

let onSessionRejected: ((message: string) => void) | undefined;

/**
 * Called with the server's message when a call that carried our token is refused: 401 on any call (the token
 * expired or was revoked, e.g. an admin changed this user's role), or 403 on an admin call (the server no longer
 * takes this user for an admin).
 */
export function setSessionRejectedHandler(handler: ((message: string) => void) | undefined): void {
  onSessionRejected = handler;
}

/** Calls only an admin may make: a 403 there means the role is gone, not "someone else's cart". */
function isAdminCall(method: string | undefined, url: string | undefined): boolean {
  const path = `/${(url ?? '').replace(/^\/+/, '')}`;
  if (/^\/api\/(admin|upload)(\/|$)/.test(path)) return true;
  return /^(put|delete)$/i.test(method ?? '') && path.startsWith('/api/products/');
}

api.interceptors.response.use(undefined, (error: unknown) => {
  if (error instanceof AxiosError && typeof error.config?.headers?.Authorization === 'string') {
    const status = error.response?.status;
    if (status === 401 || (status === 403 && isAdminCall(error.config.method, error.config.url))) {
      onSessionRejected?.(errorMessage(error));
    }
  }
  return Promise.reject(error);
});

/** True for a request we cancelled ourselves (a newer filter replaced it): not an error to show. */
export function isCancel(error: unknown): boolean {
  return axios.isCancel(error);
}

/** A failed call as a slice keeps it: the sentence to show, and the HTTP status when the server answered. */
export interface Failure {
  message: string;
  status?: number;
}

export function failureOf(error: unknown, fallback?: string): Failure {
  const status = error instanceof AxiosError ? error.response?.status : undefined;
  return { message: errorMessage(error, fallback), ...(status ? { status } : {}) };
}

/**
 * The sentence to show for a failed call: the server's `message` when it sent one (always a string:
 * docs/api.md#conventions), else `fallback` (the defaults of docs/product.md#messages, such as "Failed to add to
 * cart"), else the transport's own message.
 */
export function errorMessage(error: unknown, fallback?: string): string {
  if (error instanceof AxiosError) {
    const body = error.response?.data as Partial<ApiError> | undefined;
    if (body && typeof body.message === 'string' && body.message.trim()) return body.message;
    if (fallback) return fallback;
    if (error.code === AxiosError.ECONNABORTED) return 'The shop took too long to answer. Please try again.';
    if (!error.response) return 'Cannot reach the shop. Check your connection and try again.';
    return error.message;
  }
  if (fallback) return fallback;
  return error instanceof Error ? error.message : 'Something went wrong';
}
