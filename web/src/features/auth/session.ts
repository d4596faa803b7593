import { setSessionRejectedHandler } from '@/api/client';
import type { AppStore } from '@/app/store';
import { notify } from '@/lib/notify';
import { logout } from './authSlice';

/**
 * A token the server no longer accepts (expired, revoked by an admin, a role taken away): sign out rather than
 * fail every call. The server's message goes with the logout, so the login page the guards send to can say why.
 */
export function watchSession(store: AppStore): () => void {
  setSessionRejectedHandler((message) => {
    if (!store.getState().auth.user) return;
    store.dispatch(logout(message));
    notify.error('Your session has ended. Please log in again.');
  });
  return () => setSessionRejectedHandler(undefined);
}
