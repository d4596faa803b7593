import { useEffect, useState, type FormEvent } from 'react';
import { Link, Navigate, useNavigate, useSearchParams } from 'react-router-dom';
import { useAppDispatch, useAppSelector } from '@/app/hooks';
import { clearAuthError, loginUser } from '@/features/auth/authSlice';
import { AuthLayout, Field } from '@/features/auth/AuthLayout';
import { redirectTarget } from '@/features/auth/guards';
import { syncCartAfterSignIn } from '@/features/auth/signIn';
import { usePageMeta } from '@/lib/usePageMeta';

export default function LoginPage() {
  usePageMeta('Log in', 'Log in to your Gridiron Store account to check out and see your orders.');
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const redirect = params.get('redirect');
  const { user, loading, error } = useAppSelector((s) => s.auth);
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [signingIn, setSigningIn] = useState(false);

  useEffect(() => {
    dispatch(clearAuthError());
  }, [dispatch]);

  // SPEC §4: a visitor who is already signed in goes on at once
  if (user && !signingIn) return <Navigate to={redirectTarget(redirect)} replace />;

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
      intro="Enter your email and password to log in."
      error={error}
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
      <button
        type="submit"
        disabled={loading || signingIn}
        className="w-full rounded-lg bg-black p-3 font-semibold text-white hover:bg-gray-800 disabled:opacity-60"
      >
        {loading || signingIn ? 'Signing in...' : 'Sign In'}
      </button>
    </AuthLayout>
  );
}
