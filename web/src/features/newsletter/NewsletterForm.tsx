import { useState, type FormEvent } from 'react';
import { notify } from '@/lib/notify';
import { api, errorMessage } from '@/api/client';

/** SPEC §1: email (type email, required), 10% off the first order; wired to POST /api/subscribe. */
export function NewsletterForm() {
  const [email, setEmail] = useState('');
  const [sending, setSending] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setSending(true);
    try {
      const { data } = await api.post<{ message?: string }>('/api/subscribe', { email: email.trim() });
      notify.success(data?.message || 'Thanks for subscribing!');
      setEmail('');
    } catch (error) {
      notify.error(errorMessage(error, 'Could not subscribe. Please try again.'));
    } finally {
      setSending(false);
    }
  };

  return (
    <form onSubmit={submit} className="flex" aria-label="Newsletter">
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
        placeholder="Enter your email"
        className="w-full min-w-0 rounded-l-md border border-gray-300 p-3 text-sm"
      />
      <button
        type="submit"
        disabled={sending}
        className="rounded-r-md bg-black px-5 py-3 text-sm font-semibold text-white hover:bg-gray-800 disabled:opacity-60"
      >
        {sending ? 'Subscribing...' : 'Subscribe'}
      </button>
    </form>
  );
}
