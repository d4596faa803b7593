import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { Provider } from 'react-redux';
import { BrowserRouter } from 'react-router-dom';
import { makeStore } from '@/app/store';
import { RouteErrorBoundary } from '@/components/RouteError';
import { ToasterHost } from '@/components/ToasterHost';
import { watchSession } from '@/features/auth/session';
import { AppRoutes } from './router';
import './index.css';

const store = makeStore();
watchSession(store);

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <Provider store={store}>
      <BrowserRouter>
        <RouteErrorBoundary>
          <AppRoutes />
        </RouteErrorBoundary>
        <ToasterHost />
      </BrowserRouter>
    </Provider>
  </StrictMode>,
);
