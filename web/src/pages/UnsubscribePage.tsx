import { useEffect, useState } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { api, errorMessage } from '@/api/client';
import { usePageMeta } from '@/lib/usePageMeta';

type State = { status: 'working' } | { status: 'done'; message: string } | { status: 'failed'; message: string };

/**
 * /back-in-stock/unsubscribe?token=…: the link of a back-in-stock email. Works without signing in: the signed token
 * names the address; the page says what happened.
 */
export default function UnsubscribePage() {
  usePageMeta('Back-in-stock emails');
  const [query] = useSearchParams();
  const token = query.get('token') ?? '';
  const [state, setState] = useState<State>({ status: 'working' });

  useEffect(() => {
    if (!token) {
      setState({ status: 'failed', message: 'This unsubscribe link is not valid' });
      return;
    }
    let live = true;
    api
      .post<{ message: string }>('/api/stock-alerts/unsubscribe', { token })
      .then(({ data }) => live && setState({ status: 'done', message: data.message }))
      .catch((e: unknown) => live && setState({ status: 'failed', message: errorMessage(e, 'Could not unsubscribe') }));
    return () => {
      live = false;
    };
  }, [token]);

  return (
    <div className="mx-auto max-w-xl px-4 py-16 text-center">
      <h1 className="mb-4 text-2xl font-bold">Back-in-stock emails</h1>
      {state.status === 'working' && <p role="status">Unsubscribing...</p>}
      {state.status === 'done' && (
        <p role="status" data-testid="unsubscribe-result">
          {state.message}
        </p>
      )}
      {state.status === 'failed' && (
        <p role="alert" className="text-red-700" data-testid="unsubscribe-result">
          {state.message}
        </p>
      )}
      <Link to="/" className="mt-8 inline-block font-semibold underline">
        Back to the shop
      </Link>
    </div>
  );
}
