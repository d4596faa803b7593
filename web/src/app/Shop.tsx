import { StrictMode, type ComponentType, type ReactNode } from 'react';
import { Provider } from 'react-redux';
import { Announcer } from '@/components/Announcer';
import { RouteErrorBoundary } from '@/components/RouteError';
import { ToasterHost } from '@/components/ToasterHost';
import { AppRoutes } from '@/router';
import type { AppStore, RootState } from './store';

interface ShopProps {
  store: AppStore;
  /** The router: the browser's, or the build's static one for the URL it prerenders. */
  router: ComponentType<{ children: ReactNode }>;
  /** The state the HTML on screen was rendered from, when hydrating it (see firstVisitState). */
  serverState?: RootState;
}

/** The whole shop: one tree for the browser (boot.tsx) and the prerender (prerender.tsx), so the HTML hydrates. */
export function Shop({ store, router: Router, serverState }: ShopProps) {
  return (
    <StrictMode>
      <Provider store={store} serverState={serverState}>
        <Router>
          <RouteErrorBoundary>
            <AppRoutes />
          </RouteErrorBoundary>
          <ToasterHost />
          <Announcer />
        </Router>
      </Provider>
    </StrictMode>
  );
}
