import { startTransition } from 'react';
import type { createRoot as CreateRoot, hydrateRoot as HydrateRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router-dom';
import { watchSession } from '@/features/auth/session';
import { prepareMoney } from '@/lib/money';
import { nextTask } from '@/lib/tasks';
import { pageStore } from './pageData';
import { Shop } from './Shop';
import { asFirstVisit } from './store';

export interface ReactDom {
  createRoot: typeof CreateRoot;
  hydrateRoot: typeof HydrateRoot;
}

/** The shop's start in the browser, once main.tsx has loaded React DOM and this module (each in a task of its own). */
export async function boot({ createRoot, hydrateRoot }: ReactDom): Promise<void> {
  // the price formatter, whose first Intl object loads ICU's locale data (src/lib/money.ts)
  prepareMoney();
  await nextTask();

  // The store. A product page opened from a link comes rendered by the gateway with its product
  // (src/app/pageData.ts): the store starts from it, so the page hydrates as it is and does not ask for it again.
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
      hydrateRoot(
        container,
        <Shop store={store} router={BrowserRouter} serverState={asFirstVisit(store.getState())} />,
      );
    else createRoot(container).render(<Shop store={store} router={BrowserRouter} />);
  });
}
