// Toasts (sonner) load on the first toast, not with the first page: the first route's JS stays small.
// Top-right, up to 3 visible, 4 s by default; cart toasts pass { duration: 1000 } (docs/product.md#business-constants).
import type { ExternalToast } from 'sonner';

type Sonner = typeof import('sonner');
let sonner: Promise<Sonner> | undefined;
let ready: Promise<void> | undefined;
let markReady: (() => void) | undefined;
const listeners = new Set<() => void>();

export const loadSonner = (): Promise<Sonner> => (sonner ??= import('sonner'));

/** Resolves once a Toaster is mounted (a toast sent before that would be lost). */
function toasterReady(): Promise<void> {
  if (!ready) {
    ready = new Promise((resolve) => (markReady = resolve));
    listeners.forEach((listener) => listener());
  }
  return ready;
}

/** For the ToasterHost: whether a toast has been asked for, and being told when one is. */
export const toasterState = {
  wanted: () => ready !== undefined,
  subscribe: (listener: () => void) => {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
  mounted: () => markReady?.(),
};

async function show(kind: 'success' | 'error' | 'message', message: string, options?: ExternalToast) {
  const [{ toast }] = await Promise.all([loadSonner(), toasterReady()]);
  if (kind === 'message') toast(message, options);
  else toast[kind](message, options);
}

export const notify = {
  success: (message: string, options?: ExternalToast) => void show('success', message, options),
  error: (message: string, options?: ExternalToast) => void show('error', message, options),
  message: (message: string, options?: ExternalToast) => void show('message', message, options),
};

/** Test helper: forget the loaded state between tests. */
export function resetNotifyForTests(): void {
  ready = undefined;
  markReady = undefined;
}
