import { useEffect, useState, type FormEvent } from 'react';
import { Link, Navigate, useLocation, useNavigate, useSearchParams } from 'react-router-dom';
import { useAppDispatch, useAppSelector } from '@/app/hooks';
import { clearAuthError, loginUser } from '@/features/auth/authSlice';
import { AuthLayout, Field, SubmitButton } from '@/features/auth/AuthLayout';
import { loginNotice, redirectTarget } from '@/features/auth/guards';
import { syncCartAfterSignIn } from '@/features/auth/signIn';
import { usePageMeta } from '@/lib/usePageMeta';

export default function LoginPage() {
  usePageMeta('Log in', 'Log in to your Gridiron Store account to check out and see your orders.');
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const redirect = params.get('redirect');
  // a guard's reason for sending here ("Not authorized as an admin", a revoked session's server message)
  const notice = loginNotice(useLocation().state);
  const { user, loading, error } = useAppSelector((s) => s.auth);
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [signingIn, setSigningIn] = useState(false);

  useEffect(() => {
    dispatch(clearAuthError());
  }, [dispatch]);

  // a visitor who is already signed in goes on at once (docs/product.md#signing-in-and-out); a customer the admin guard
  // turned away stays, to read why and perhaps log in with an admin account (going on would send them back to the
  // guard)
  if (user && !signingIn && !notice) return <Navigate to={redirectTarget(redirect)} replace />;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setSigningIn(true);
    const result = await dispatch(loginUser({ email: email.trim(), password }));
    if (!loginUser.fulfilled.match(result)) {
      setSigningIn(false);
      return;
    }
    await dispatch(syncCartAfterSignIn());
    navigate(redirectTarget(redirect), { replace: true });
  };

  return (
    <AuthLayout
      heading="Hey there! 👋"
      intro={
        user && notice
          ? `You are signed in as ${user.email}. Log in with an admin account to go on.`
          : 'Enter your email and password to log in.'
      }
      error={error ?? notice}
      onSubmit={submit}
      footer={
        <>
          Don&apos;t have an account?{' '}
          <Link
            to={redirect ? `/register?redirect=${encodeURIComponent(redirect)}` : '/register'}
            className="font-semibold text-blue-700 underline"
          >
            Register
          </Link>
        </>
      }
    >
      <Field
        id="email"
        label="Email"
        type="email"
        required
        autoComplete="email"
        value={email}
        onChange={(e) => setEmail(e.target.value)}
        placeholder="you@example.com"
      />
      <Field
        id="password"
        label="Password"
        type="password"
        required
        autoComplete="current-password"
        value={password}
        onChange={(e) => setPassword(e.target.value)}
      />
      <p className="-mt-2 mb-4 text-right text-sm">
        <Link to="/forgot-password" className="text-blue-700 underline">
          Forgot password?
        </Link>
      </p>
      <SubmitButton busy={loading || signingIn} label="Sign In" busyLabel="Signing in..." />
    </AuthLayout>
  );
}
