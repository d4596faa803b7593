import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router-dom';
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

/** SPEC §6: the admin guard sends anyone without the admin role to /login. */
export function RequireAdmin({ children }: { children: ReactNode }) {
  const user = useAppSelector((s) => s.auth.user);
  if (!user || user.role !== 'admin') return <Navigate to="/login" replace />;
  return <>{children}</>;
}

/**
 * Where login/register go afterwards (SPEC §4): /checkout when the redirect mentions checkout, else the
 * redirect when it is a path of this shop (e.g. `profile` from the guard above), else /.
 */
export function redirectTarget(redirect: string | null): string {
  if (!redirect) return '/';
  if (redirect.includes('checkout')) return '/checkout';
  // only a path of this site: no scheme (https:, javascript:), no //host, no backslashes, not login/register again
  if (/^\s*(\/\/|[a-z][a-z0-9+.-]*:)/i.test(redirect) || redirect.includes('\\')) return '/';
  const path = `/${redirect.replace(/^\/+/, '')}`;
  if (/^\/(login|register)\b/.test(path) || !/^\/[A-Za-z0-9\-._~%!$&'()*+,;=:@/?]*$/.test(path)) return '/';
  return path;
}
