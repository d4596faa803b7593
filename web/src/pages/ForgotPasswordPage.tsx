import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import { PASSWORD_RESET_MESSAGES, type ForgotPasswordRequest } from '@shop/contracts';
import { api, errorMessage } from '@/api/client';
import { AuthLayout, Field, SubmitButton } from '@/features/auth/AuthLayout';
import { usePageMeta } from '@/lib/usePageMeta';

/**
 * "Forgot password?": asks for the email and then says the same thing whatever the shop knows of it (the server
 * answers 202 alike for every address). Only a refusal of the request itself (a bad address, too many requests)
 * is shown as an error.
 */
export default function ForgotPasswordPage() {
  usePageMeta('Forgot password', 'Get a link to reset the password of your Gridiron Store account.');
  const [email, setEmail] = useState('');
  const [sending, setSending] = useState(false);
  const [sent, setSent] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const sentNote = useRef<HTMLParagraphElement>(null);
  // The form gives way to the answer: focus goes to it (the button that was pressed is gone).
  useEffect(() => {
    if (sent) sentNote.current?.focus();
  }, [sent]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (sending) return;
    setSending(true);
    setError(null);
    try {
      const body: ForgotPasswordRequest = { email: email.trim() };
      const { data } = await api.post<{ message?: string }>('/api/users/forgot-password', body);
      setSent(data?.message || PASSWORD_RESET_MESSAGES.requested);
    } catch (err) {
      setError(errorMessage(err, 'Something went wrong, please try again'));
    } finally {
      setSending(false);
    }
  };

  const backToLogin = (
    <Link to="/login" className="font-semibold text-blue-700 underline">
      Back to login
    </Link>
  );

  if (sent) {
    return (
      <AuthLayout
        heading="Check your email"
        intro="The link works for 30 minutes, once."
        error={null}
        onSubmit={(e) => e.preventDefault()}
        footer={backToLogin}
      >
        <p
          ref={sentNote}
          tabIndex={-1}
          role="status"
          className="rounded border border-green-200 bg-green-50 p-3 text-sm text-green-900 focus:outline-2 focus:outline-offset-2"
        >
          {sent}
        </p>
      </AuthLayout>
    );
  }

  return (
    <AuthLayout
      heading="Forgot your password?"
      intro="Enter the email of your account and we will send you a link to choose a new one."
      error={error}
      onSubmit={submit}
      footer={<>Remembered it? {backToLogin}</>}
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
      <SubmitButton busy={sending} label="Send reset link" busyLabel="Sending..." />
    </AuthLayout>
  );
}
