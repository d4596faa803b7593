import { startTransition } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router-dom';
import { Shop } from '@/app/Shop';
import { asFirstVisit, makeStore } from '@/app/store';
import { watchSession } from '@/features/auth/session';
import './index.css';

const store = makeStore();
watchSession(store);

const container = document.getElementById('root')!;
// In a transition, React yields to the browser every few milliseconds while it builds the first tree, so a slow
// phone answers a tap meanwhile instead of freezing for the whole render (Lighthouse's total blocking time).
startTransition(() => {
  // The landing pages come prerendered (web/prerender.mjs): already on screen before this script ran. Hydrating
  // keeps that HTML and makes it live; each page's part hydrates once its chunk has loaded.
  if (container.hasChildNodes())
    hydrateRoot(container, <Shop store={store} router={BrowserRouter} serverState={asFirstVisit(store.getState())} />);
  else createRoot(container).render(<Shop store={store} router={BrowserRouter} />);
});
