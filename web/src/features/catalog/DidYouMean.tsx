import { useEffect, useState } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import type { ProductSuggestionsJson } from '@shop/contracts';
import { api } from '@/api/client';

/**
 * Under a search that found nothing: "Did you mean …?", a link to the same results page searching for the
 * spelling the catalog suggests (GET /api/products/suggest's didYouMean), the other filters kept. Nothing when the
 * catalog has no better spelling, or cannot be asked.
 */
export default function DidYouMean({ search }: { search: string }) {
  const [params] = useSearchParams();
  const [term, setTerm] = useState<string | null>(null);

  useEffect(() => {
    const request = new AbortController();
    setTerm(null);
    api
      .get<ProductSuggestionsJson>('/api/products/suggest', { params: { q: search }, signal: request.signal })
      .then(({ data }) => setTerm(data.didYouMean))
      .catch(() => undefined);
    return () => request.abort();
  }, [search]);

  if (!term) return null;
  const next = new URLSearchParams(params);
  next.set('search', term);
  return (
    <p className="text-center text-gray-700" role="status">
      Did you mean{' '}
      <Link to={`?${next.toString()}`} className="font-medium underline">
        {term}
      </Link>
      ?
    </p>
  );
}
