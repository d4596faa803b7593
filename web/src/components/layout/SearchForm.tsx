import { useEffect, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import { useNavigate } from 'react-router-dom';
import type { ProductSuggestionJson, ProductSuggestionsJson } from '@shop/contracts';
import { api } from '@/api/client';
import { IconClose, IconSearch } from '@/components/icons';
import { formatPrice } from '@/lib/money';

/** Suggestions are asked for from this many characters (the catalog answers none below it). */
export const SUGGEST_MIN_LENGTH = 2;
/** How long typing must pause before suggestions are asked for. */
export const SUGGEST_DEBOUNCE_MS = 150;
const LIST_ID = 'search-suggestions';
const optionId = (i: number) => `${LIST_ID}-${i}`;

interface Answer extends ProductSuggestionsJson {
  /** The text the suggestions are for. */
  q: string;
}

type Status = 'idle' | 'loading' | 'done' | 'failed';

export interface SearchFormProps {
  /** Escape or Close search: the form goes, focus goes back to the button that opened it. */
  onClose: () => void;
  /** A search or a product was opened: the form goes, focus goes to the page that shows it. */
  onDone: () => void;
}

function announcementOf(status: Status, answer: Answer | null): string {
  if (status === 'failed') return 'Suggestions are unavailable. Press Enter to search.';
  if (status !== 'done' || !answer) return '';
  const n = answer.suggestions.length;
  if (n) return `${n} ${n === 1 ? 'product' : 'products'} suggested. Use the up and down arrows to choose.`;
  return `No products match “${answer.q}”.${answer.didYouMean ? ` Did you mean ${answer.didYouMean}?` : ''}`;
}

/**
 * The header's open search (loaded when the shopper first goes for the search button: SearchBar): an ARIA 1.2
 * combobox whose listbox suggests products from the second character typed. Typing waits SUGGEST_DEBOUNCE_MS, then
 * asks GET /api/products/suggest; each new text aborts the request before it, and an answer is shown only while
 * its request is the latest, so a slow old answer never replaces a newer one. ArrowDown/ArrowUp move through the
 * suggestions (wrapping), Enter opens the one chosen (or searches when none is), Escape closes the list (a second
 * Escape the search); a polite live region says how many were suggested.
 */
export default function SearchForm({ onClose, onDone }: SearchFormProps) {
  const [text, setText] = useState('');
  const [status, setStatus] = useState<Status>('idle');
  const [answer, setAnswer] = useState<Answer | null>(null);
  const [active, setActive] = useState(-1);
  const [listOpen, setListOpen] = useState(true);
  const input = useRef<HTMLInputElement>(null);
  /** The request whose answer may be shown: any other's is stale. */
  const latest = useRef<AbortController | null>(null);
  const navigate = useNavigate();

  useEffect(() => input.current?.focus(), []);

  useEffect(() => {
    const q = text.trim();
    setActive(-1);
    if ([...q].length < SUGGEST_MIN_LENGTH) {
      setStatus('idle');
      setAnswer(null);
      return;
    }
    setStatus('loading');
    const request = new AbortController();
    const timer = setTimeout(() => {
      latest.current = request;
      api
        .get<ProductSuggestionsJson>('/api/products/suggest', { params: { q }, signal: request.signal })
        .then(({ data }) => {
          if (latest.current !== request) return;
          setAnswer({ ...data, q });
          setStatus('done');
        })
        .catch(() => {
          if (latest.current === request) setStatus('failed');
        });
    }, SUGGEST_DEBOUNCE_MS);
    return () => {
      clearTimeout(timer);
      request.abort();
      if (latest.current === request) latest.current = null;
    };
  }, [text]);

  const suggestions: ProductSuggestionJson[] = answer?.suggestions ?? [];
  const expanded = listOpen && status !== 'idle';
  const showOptions = expanded && suggestions.length > 0;

  const openProduct = (suggestion: ProductSuggestionJson) => {
    navigate(suggestion.url);
    onDone();
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const term = text.trim();
    navigate(term ? `/collections/all?search=${encodeURIComponent(term)}` : '/collections/all');
    onDone();
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    const n = suggestions.length;
    if ((event.key === 'ArrowDown' || event.key === 'ArrowUp') && n && status !== 'idle') {
      event.preventDefault();
      setListOpen(true);
      const down = event.key === 'ArrowDown';
      setActive((i) => (!listOpen || i < 0 ? (down ? 0 : n - 1) : (i + (down ? 1 : n - 1)) % n));
    } else if (event.key === 'Enter' && showOptions && active >= 0 && suggestions[active]) {
      event.preventDefault();
      openProduct(suggestions[active]);
    } else if (event.key === 'Escape') {
      // the browser would empty a search field on Escape: the text stays
      event.preventDefault();
      event.stopPropagation();
      if (expanded) {
        setListOpen(false);
        setActive(-1);
      } else onClose();
    }
  };

  const announcement = announcementOf(status, answer);
  return (
    <form
      role="search"
      onSubmit={submit}
      onKeyDown={(e) => e.key === 'Escape' && onClose()}
      className="absolute inset-x-0 top-0 z-40 flex h-full items-center gap-2 bg-white px-4"
    >
      <div className="relative mx-auto flex w-full max-w-xl items-center">
        <label htmlFor="site-search" className="sr-only">
          Search products
        </label>
        <input
          ref={input}
          id="site-search"
          type="search"
          role="combobox"
          aria-autocomplete="list"
          aria-expanded={showOptions}
          aria-controls={LIST_ID}
          aria-activedescendant={showOptions && active >= 0 ? optionId(active) : undefined}
          autoComplete="off"
          value={text}
          onChange={(e) => {
            setText(e.target.value);
            setListOpen(true);
          }}
          onKeyDown={onKeyDown}
          onBlur={() => setActive(-1)}
          placeholder="Search jerseys, caps, balls…"
          maxLength={100}
          className="w-full rounded-lg bg-gray-100 py-2 pr-12 pl-4 text-base placeholder:text-gray-600"
        />
        <button
          type="submit"
          className="absolute right-2 rounded p-1 text-gray-700 hover:text-black"
          aria-label="Search"
        >
          <IconSearch className="h-5 w-5" />
        </button>
        <div
          hidden={!expanded}
          className="absolute inset-x-0 top-full mt-2 max-h-[70vh] overflow-y-auto rounded-lg border border-gray-200 bg-white shadow-lg"
        >
          <ul role="listbox" id={LIST_ID} aria-label="Suggested products" hidden={!showOptions}>
            {suggestions.map((s, i) => (
              <li
                key={s.url}
                id={optionId(i)}
                role="option"
                aria-selected={i === active}
                // a click must not blur the field first
                onMouseDown={(e) => e.preventDefault()}
                onClick={() => openProduct(s)}
                className={`flex cursor-pointer items-center gap-3 px-3 py-2 ${i === active ? 'bg-gray-100 outline-2 -outline-offset-2 outline-black' : 'hover:bg-gray-50'}`}
              >
                {s.thumbnail ? (
                  <img src={s.thumbnail} alt="" width={40} height={40} className="h-10 w-10 rounded object-cover" />
                ) : (
                  <span className="h-10 w-10 rounded bg-gray-100" />
                )}
                <span className="min-w-0 flex-1">
                  <span className="block truncate text-sm font-medium">{s.name}</span>
                  <span className="block truncate text-xs text-gray-600">{s.team}</span>
                </span>
                <span className="text-sm">{formatPrice(s.price)}</span>
              </li>
            ))}
          </ul>
          {status === 'loading' && !suggestions.length && <p className="px-3 py-2 text-sm text-gray-600">Searching…</p>}
          {status === 'done' && !suggestions.length && answer && (
            <p className="px-3 py-2 text-sm text-gray-700">
              No products match “{answer.q}”.
              {answer.didYouMean && (
                <>
                  {' '}
                  Did you mean{' '}
                  <button
                    type="button"
                    className="font-medium underline"
                    onClick={() => {
                      setText(answer.didYouMean!);
                      input.current?.focus();
                    }}
                  >
                    {answer.didYouMean}
                  </button>
                  ?
                </>
              )}
            </p>
          )}
          {status === 'failed' && (
            <p className="px-3 py-2 text-sm text-red-700">Suggestions are unavailable. Press Enter to search.</p>
          )}
        </div>
      </div>
      <button
        type="button"
        onClick={onClose}
        className="rounded p-2 text-gray-700 hover:bg-gray-100"
        aria-label="Close search"
      >
        <IconClose className="h-6 w-6" />
      </button>
      <div role="status" aria-live="polite" className="sr-only">
        {announcement}
      </div>
    </form>
  );
}
