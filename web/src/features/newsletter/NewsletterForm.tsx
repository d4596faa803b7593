import { useState, type FormEvent } from 'react';
import { api, errorMessage } from '@/api/client';

/**
 * The footer's newsletter: email (type email, required), 10% off the first order; wired to POST /api/subscribe. The answer (the
 * server's message, or its refusal) shows under the field in a polite live region, and focus stays on the button:
 * it is never disabled (that would drop focus to the page), a press while sending does nothing.
 */
export function NewsletterForm() {
  const [email, setEmail] = useState('');
  const [sending, setSending] = useState(false);
  const [result, setResult] = useState<{ ok: boolean; text: string } | null>(null);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (sending) return;
    setSending(true);
    setResult(null);
    try {
      const { data } = await api.post<{ message?: string }>('/api/subscribe', { email: email.trim() });
      setResult({ ok: true, text: data?.message || 'Thanks for subscribing!' });
      setEmail('');
    } catch (error) {
      setResult({ ok: false, text: errorMessage(error, 'Could not subscribe. Please try again.') });
    } finally {
      setSending(false);
    }
  };

  return (
    <form onSubmit={submit} aria-label="Newsletter">
      <div className="flex">
        <label htmlFor="newsletter-email" className="sr-only">
          Email address
        </label>
        <input
          id="newsletter-email"
          type="email"
          required
          autoComplete="email"
          value={email}
          onChange={(e) => setEmail(e.target.value)}
          aria-describedby="newsletter-result"
          placeholder="Enter your email"
          className="w-full min-w-0 rounded-l-md border border-gray-300 p-3 text-sm"
        />
        <button
          type="submit"
          aria-disabled={sending || undefined}
          className="rounded-r-md bg-black px-5 py-3 text-sm font-semibold text-white hover:bg-gray-800 aria-disabled:opacity-60"
        >
          {sending ? 'Subscribing...' : 'Subscribe'}
        </button>
      </div>
      <p
        id="newsletter-result"
        role="status"
        className={`mt-2 min-h-5 text-sm ${result?.ok === false ? 'text-red-800' : 'text-green-800'}`}
      >
        {result?.text}
      </p>
    </form>
  );
}
