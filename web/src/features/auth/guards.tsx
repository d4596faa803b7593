import { useCallback, useRef, type ReactNode } from 'react';
import { Navigate, useLocation, useNavigate } from 'react-router-dom';
import { AUTH_MESSAGES } from '@shop/contracts';
import { useAppSelector } from '@/app/hooks';

/** Signed-in customers only; others go to /login, coming back here afterwards (docs/product.md#profile). */
export function RequireAuth({ children }: { children: ReactNode }) {
  const user = useAppSelector((s) => s.auth.user);
  const signedOut = useAppSelector((s) => s.auth.signedOut);
  if (!user && signedOut) return <Navigate to="/login" replace />;
  if (!user) return <SignInAndComeBack />;
  return <>{children}</>;
}

/** To /login, coming back to this page afterwards. */
function SignInAndComeBack() {
  return <Navigate to={useLoginPath()} replace />;
}

/** /login with a redirect back to where the router is. */
function useLoginPath(): string {
  const location = useLocation();
  const back = `${location.pathname}${location.search}`.replace(/^\//, '');
  return `/login?redirect=${encodeURIComponent(back)}`;
}

/**
 * What a page calls when the server refused its data for want of a session (a 401): to /login, and back afterwards.
 * The order pages are left to the server's authorization (docs/product.md#roles); this is the client's answer to the
 * server's refusal.
 */
export function useSignInAndComeBack(): () => void {
  // Stable, so that a page's fetch effect does not run again when the router moves on.
  const navigate = useNavigate();
  const loginPath = useLoginPath();
  const latest = useRef({ navigate, loginPath });
  latest.current = { navigate, loginPath };
  return useCallback(() => latest.current.navigate(latest.current.loginPath, { replace: true }), []);
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
 * The admin guard sends anyone without the admin role to /login (docs/product.md#roles). A signed-in customer reads why
 * (they may log in there with an admin account); an admin the server turned away (a revoked token, the role taken away:
 * the session watcher signed them out) reads the server's message and comes back here after logging in.
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
 * Where login/register go afterwards (docs/product.md#signing-in-and-out): /checkout when the redirect mentions
 * checkout, else the redirect when it is a path of this shop (e.g. `profile` from the guard above), else /.
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
