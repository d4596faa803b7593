// The one HTTP client of the SPA: same origin (the gateway serves both the SPA and /api), the bearer token
// from local storage on every call (SPEC §7), and the server's `message` surfaced as the error.
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

let onSessionRejected: (() => void) | undefined;

/** Called when a call that carried our token answers 401: the token expired or was revoked. */
export function setSessionRejectedHandler(handler: (() => void) | undefined): void {
  onSessionRejected = handler;
}

api.interceptors.response.use(undefined, (error: unknown) => {
  if (
    error instanceof AxiosError &&
    error.response?.status === 401 &&
    typeof error.config?.headers?.Authorization === 'string'
  ) {
    onSessionRejected?.();
  }
  return Promise.reject(error);
});

/** True for a request we cancelled ourselves (a newer filter replaced it): not an error to show. */
export function isCancel(error: unknown): boolean {
  return axios.isCancel(error);
}

/**
 * The sentence to show for a failed call: the server's `message` when it sent one (API.md: always a string),
 * else `fallback` (SPEC §8's defaults such as "Failed to add to cart"), else the transport's own message.
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
