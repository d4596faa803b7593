import { useEffect, useState, type FormEvent } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH, PASSWORD_RESET_MESSAGES } from '@shop/contracts';
import { useAppDispatch, useAppSelector } from '@/app/hooks';
import { clearAuthError, resetPassword } from '@/features/auth/authSlice';
import { AuthLayout, Field } from '@/features/auth/AuthLayout';
import { redirectTarget } from '@/features/auth/guards';
import { syncCartAfterSignIn } from '@/features/auth/signIn';
import { notify } from '@/lib/notify';
import { usePageMeta } from '@/lib/usePageMeta';

const RULES = `At least ${PASSWORD_MIN_LENGTH} characters.`;

/** The registration's rules, checked before the server is asked (which checks them again). */
function passwordProblem(password: string, confirm: string): string | null {
  if (password.length < PASSWORD_MIN_LENGTH) return `Password must be at least ${PASSWORD_MIN_LENGTH} characters`;
  if (password.length > PASSWORD_MAX_LENGTH) return `Password must be at most ${PASSWORD_MAX_LENGTH} characters`;
  if (password !== confirm) return 'The passwords do not match';
  return null;
}

/**
 * The emailed link's page (`/reset-password?token=…`): a new password, then signed in exactly as after login (the
 * guest cart merged) and on to the home page, or where the login page would have gone.
 */
export default function ResetPasswordPage() {
  usePageMeta('Choose a new password', 'Choose a new password for your Gridiron Store account.');
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const { loading, error } = useAppSelector((s) => s.auth);
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);

  useEffect(() => {
    dispatch(clearAuthError());
  }, [dispatch]);

  const linkBroken = !token || error === PASSWORD_RESET_MESSAGES.invalidToken;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const found = passwordProblem(password, confirm);
    setProblem(found);
    if (found) return;
    setSubmitting(true);
    const result = await dispatch(resetPassword({ token, password }));
    if (!resetPassword.fulfilled.match(result)) {
      setSubmitting(false);
      return;
    }
    await dispatch(syncCartAfterSignIn());
    notify.success('Your password has been changed and you are signed in');
    navigate(redirectTarget(params.get('redirect')), { replace: true });
  };

  const requestNewLink = (
    <Link to="/forgot-password" className="font-semibold text-blue-700 underline">
      Request a new link
    </Link>
  );

  if (linkBroken) {
    return (
      <AuthLayout
        heading="Reset your password"
        intro="This link cannot be used any more."
        error={PASSWORD_RESET_MESSAGES.invalidToken}
        onSubmit={(e) => e.preventDefault()}
        footer={requestNewLink}
      >
        {null}
      </AuthLayout>
    );
  }

  return (
    <AuthLayout
      heading="Choose a new password"
      intro="Your other sessions will be signed out."
      error={problem ?? error}
      onSubmit={submit}
      footer={<>Link expired? {requestNewLink}</>}
    >
      <Field
        id="password"
        label="New password"
        type="password"
        required
        minLength={PASSWORD_MIN_LENGTH}
        maxLength={PASSWORD_MAX_LENGTH}
        autoComplete="new-password"
        hint={RULES}
        aria-invalid={problem !== null && problem !== 'The passwords do not match'}
        value={password}
        onChange={(e) => setPassword(e.target.value)}
      />
      <Field
        id="confirm-password"
        label="Confirm new password"
        type="password"
        required
        autoComplete="new-password"
        aria-invalid={problem === 'The passwords do not match'}
        value={confirm}
        onChange={(e) => setConfirm(e.target.value)}
      />
      <button
        type="submit"
        disabled={loading || submitting}
        className="w-full rounded-lg bg-black p-3 font-semibold text-white hover:bg-gray-800 disabled:opacity-60"
      >
        {loading || submitting ? 'Saving...' : 'Set new password'}
      </button>
    </AuthLayout>
  );
}
