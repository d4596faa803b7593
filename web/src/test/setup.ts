import '@testing-library/jest-dom';
import { TextDecoder, TextEncoder } from 'node:util';
import { cleanup } from '@testing-library/react';

// react-router reads these, which jsdom 20 lacks
Object.assign(globalThis, { TextEncoder, TextDecoder });

afterEach(() => {
  cleanup();
  window.localStorage.clear();
});

// sonner keeps its toasts in a module-level store: a toast of one test must not show in the next
afterEach(async () => {
  const { toast } = await import('sonner');
  toast.dismiss();
});
