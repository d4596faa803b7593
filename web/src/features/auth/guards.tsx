import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router-dom';
import { AUTH_MESSAGES } from '@shop/contracts';
import { useAppSelector } from '@/app/hooks';

/** Signed-in customers only; others go to /login, coming back here afterwards (SPEC §2 /profile). */
export function RequireAuth({ children }: { children: ReactNode }) {
  const user = useAppSelector((s) => s.auth.user);
  const signedOut = useAppSelector((s) => s.auth.signedOut);
  const location = useLocation();
  if (!user && signedOut) return <Navigate to="/login" replace />;
  if (!user) {
    const back = `${location.pathname}${location.search}`.replace(/^\//, '');
    return <Navigate to={`/login?redirect=${encodeURIComponent(back)}`} replace />;
  }
  return <>{children}</>;
}

/** What a guard tells the login page it sends someone to (router state: gone once they navigate on). */
export interface LoginNotice {
  /** Why they are here: the server's message, e.g. "Not authorized as an admin". */
  message: string;
}

/** The notice a guard left for the login page, if any. */
export function loginNotice(state: unknown): string | null {
  const message = (state as Partial<LoginNotice> | null)?.message;
  return typeof message === 'string' && message ? message : null;
}

/**
 * SPEC §6: the admin guard sends anyone without the admin role to /login. A signed-in customer reads why (they
 * may log in there with an admin account); an admin the server turned away (a revoked token, the role taken
 * away: the session watcher signed them out) reads the server's message and comes back here after logging in.
 */
export function RequireAdmin({ children }: { children: ReactNode }) {
  const user = useAppSelector((s) => s.auth.user);
  const signedOut = useAppSelector((s) => s.auth.signedOut);
  const reason = useAppSelector((s) => s.auth.signedOutReason);
  const location = useLocation();
  if (user?.role === 'admin') return <>{children}</>;
  if (!user && signedOut && !reason) return <Navigate to="/login" replace />;
  const back = `${location.pathname}${location.search}`.replace(/^\//, '');
  const message = user ? AUTH_MESSAGES.notAdmin : reason;
  const state: LoginNotice | undefined = message ? { message } : undefined;
  return <Navigate to={`/login?redirect=${encodeURIComponent(back)}`} replace state={state} />;
}

/**
 * Where login/register go afterwards (SPEC §4): /checkout when the redirect mentions checkout, else the
 * redirect when it is a path of this shop (e.g. `profile` from the guard above), else /.
 */
export function redirectTarget(redirect: string | null): string {
  if (!redirect) return '/';
  if (redirect.includes('checkout')) return '/checkout';
  // only a path of this site: no scheme (https:, javascript:), no //host, no backslashes, not login/register/a reset page again
  if (/^\s*(\/\/|[a-z][a-z0-9+.-]*:)/i.test(redirect) || redirect.includes('\\')) return '/';
  const path = `/${redirect.replace(/^\/+/, '')}`;
  if (
    /^\/(login|register|forgot-password|reset-password)\b/.test(path) ||
    !/^\/[A-Za-z0-9\-._~%!$&'()*+,;=:@/?]*$/.test(path)
  )
    return '/';
  return path;
}
