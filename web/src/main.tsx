import { startTransition } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router-dom';
import { pageStore } from '@/app/pageData';
import { Shop } from '@/app/Shop';
import { asFirstVisit } from '@/app/store';
import { watchSession } from '@/features/auth/session';
import './index.css';

// A product page opened from a link comes rendered by the gateway with its product (src/app/pageData.ts): the store
// starts from it, so the page hydrates as it is and does not ask for the product again.
const store = pageStore(document);
watchSession(store);

const container = document.getElementById('root')!;
// In a transition, React yields to the browser every few milliseconds while it builds the first tree, so a slow
// phone answers a tap meanwhile instead of freezing for the whole render (Lighthouse's total blocking time).
startTransition(() => {
  // The landing pages come prerendered (web/prerender.mjs), a product page rendered by the gateway: already on
  // screen before this script ran. Hydrating keeps that HTML and makes it live; each page's part hydrates once its
  // chunk has loaded.
  if (container.hasChildNodes())
    hydrateRoot(container, <Shop store={store} router={BrowserRouter} serverState={asFirstVisit(store.getState())} />);
  else createRoot(container).render(<Shop store={store} router={BrowserRouter} />);
});
