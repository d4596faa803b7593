import { useEffect, useState, type FormEvent } from 'react';
import { Link, Navigate, useNavigate, useSearchParams } from 'react-router-dom';
import { NAME_MAX_LENGTH, PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '@shop/contracts';
import { useAppDispatch, useAppSelector } from '@/app/hooks';
import { clearAuthError, registerUser } from '@/features/auth/authSlice';
import { AuthLayout, Field, SubmitButton } from '@/features/auth/AuthLayout';
import { redirectTarget } from '@/features/auth/guards';
import { syncCartAfterSignIn } from '@/features/auth/signIn';
import { usePageMeta } from '@/lib/usePageMeta';

export default function RegisterPage() {
  usePageMeta(
    'Create an account',
    'Create a Gridiron Store account: keep your cart, check out and follow your orders.',
  );
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const redirect = params.get('redirect');
  const { user, loading, error } = useAppSelector((s) => s.auth);
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [signingIn, setSigningIn] = useState(false);

  useEffect(() => {
    dispatch(clearAuthError());
  }, [dispatch]);

  if (user && !signingIn) return <Navigate to={redirectTarget(redirect)} replace />;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setSigningIn(true);
    const result = await dispatch(registerUser({ name: name.trim(), email: email.trim(), password }));
    if (!registerUser.fulfilled.match(result)) {
      setSigningIn(false);
      return;
    }
    await dispatch(syncCartAfterSignIn());
    navigate(redirectTarget(redirect), { replace: true });
  };

  return (
    <AuthLayout
      heading="Create your account"
      intro="Join to check out faster and follow your orders."
      error={error}
      onSubmit={submit}
      footer={
        <>
          Already have an account?{' '}
          <Link
            to={redirect ? `/login?redirect=${encodeURIComponent(redirect)}` : '/login'}
            className="font-semibold text-blue-700 underline"
          >
            Log in
          </Link>
        </>
      }
    >
      <Field
        id="name"
        label="Name"
        required
        maxLength={NAME_MAX_LENGTH}
        autoComplete="name"
        value={name}
        onChange={(e) => setName(e.target.value)}
      />
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
        minLength={PASSWORD_MIN_LENGTH}
        maxLength={PASSWORD_MAX_LENGTH}
        autoComplete="new-password"
        hint={`At least ${PASSWORD_MIN_LENGTH} characters.`}
        value={password}
        onChange={(e) => setPassword(e.target.value)}
      />
      <SubmitButton busy={loading || signingIn} label="Sign Up" busyLabel="Creating account..." />
    </AuthLayout>
  );
}
