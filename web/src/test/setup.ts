import '@testing-library/jest-dom';
import { randomUUID } from 'node:crypto';
import { TextDecoder, TextEncoder } from 'node:util';
import { cleanup, configure } from '@testing-library/react';

// react-router reads these, which jsdom 20 lacks
Object.assign(globalThis, { TextEncoder, TextDecoder });
// browsers have crypto.randomUUID (the PayPal request ids); jsdom 20 has only getRandomValues
if (!globalThis.crypto.randomUUID) Object.defineProperty(globalThis.crypto, 'randomUUID', { value: randomUUID });
// findBy*/waitFor: `npm test` runs these beside the e2e stack on two cores, where a lazy page or the toast
// library can take over a second to load; a real failure still fails, only later
configure({ asyncUtilTimeout: 5000 });
// layouts scroll a new page to its top; jsdom has no layout to scroll (and says so on the console)
window.scrollTo = () => undefined;

afterEach(() => {
  cleanup();
  window.localStorage.clear();
});

// sonner keeps its toasts in a module-level store: a toast of one test must not show in the next
afterEach(async () => {
  const { toast } = await import('sonner');
  toast.dismiss();
});
