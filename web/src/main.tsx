import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { Provider } from 'react-redux';
import { BrowserRouter } from 'react-router-dom';
import { setSessionRejectedHandler } from '@/api/client';
import { makeStore } from '@/app/store';
import { RouteErrorBoundary } from '@/components/RouteError';
import { ToasterHost } from '@/components/ToasterHost';
import { logout } from '@/features/auth/authSlice';
import { notify } from '@/lib/notify';
import { AppRoutes } from './router';
import './index.css';

const store = makeStore();
// A token the server no longer accepts (expired, revoked by an admin): sign out rather than fail every call.
setSessionRejectedHandler(() => {
  if (!store.getState().auth.user) return;
  store.dispatch(logout());
  notify.error('Your session has ended. Please log in again.');
});

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
