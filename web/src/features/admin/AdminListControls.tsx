// The admin lists' controls (issue 25): the view lives in the query string (a link reopens it, back and forward
// move between views), the server pages, searches, filters and sorts (packages/contracts admin-lists.ts), and the
// page says "N–M of T" beside Previous and Next.
import { useEffect, useState, type FormEvent, type ReactNode } from 'react';
import { useSearchParams } from 'react-router-dom';
import { ADMIN_LIST_LIMIT_DEFAULT, formatPageRange, hasNextPage } from '@shop/contracts';

/** The list parameters a page keeps in its URL (others there are left alone and not sent). */
export interface ListView {
  /** What to send: the URL's parameters, `page` always (1 when absent). */
  params: Record<string, string>;
  page: number;
  limit: number;
  get: (name: string) => string;
  /** Changes parameters ('' removes one); back to page 1 unless `page` is among them. A new history entry. */
  set: (changes: Record<string, string>) => void;
}

/**
 * The view of a list page from its URL. `names` are the parameters the list takes besides `page`; a default
 * (`sort`) is left out of the URL, so the plain page's link stays plain.
 */
export function useListView(names: readonly string[], defaults: Record<string, string> = {}): ListView {
  const [search, setSearch] = useSearchParams();
  const get = (name: string) => search.get(name) ?? defaults[name] ?? '';
  const params: Record<string, string> = { page: search.get('page') ?? '1' };
  for (const name of names) {
    const value = search.get(name);
    if (value !== null && value !== '') params[name] = value;
  }
  const page = Number(params.page);
  const limit = Number(params.limit ?? ADMIN_LIST_LIMIT_DEFAULT);
  const set = (changes: Record<string, string>) => {
    const next = new URLSearchParams(search);
    for (const [name, value] of Object.entries(changes)) {
      if (value === '' || value === defaults[name]) next.delete(name);
      else next.set(name, value);
    }
    if (!('page' in changes) || changes.page === '1') next.delete('page');
    setSearch(next);
  };
  return {
    params,
    page: Number.isInteger(page) && page > 0 ? page : 1,
    limit: Number.isInteger(limit) && limit > 0 ? limit : ADMIN_LIST_LIMIT_DEFAULT,
    get,
    set,
  };
}

/** A search form: Enter or the button sends the text (an empty text clears the search). */
export function SearchBox({
  label,
  placeholder,
  value,
  onSearch,
}: {
  label: string;
  placeholder: string;
  value: string;
  onSearch: (text: string) => void;
}) {
  const [text, setText] = useState(value);
  // back and forward change the URL under the box: it shows what the list shows
  useEffect(() => setText(value), [value]);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSearch(text.trim());
  };
  return (
    <form role="search" aria-label={label} onSubmit={submit} className="flex w-full items-center gap-2 sm:w-auto">
      <input
        type="search"
        aria-label={label}
        value={text}
        onChange={(e) => setText(e.target.value)}
        placeholder={placeholder}
        className="w-full rounded border border-gray-400 bg-white p-2 sm:w-72"
      />
      <button
        type="submit"
        className="rounded bg-gray-800 px-3 py-2 text-sm font-semibold text-white hover:bg-gray-900"
      >
        Search
      </button>
    </form>
  );
}

/** A labelled select of a filter: '' is "all". */
export function FilterSelect({
  label,
  value,
  options,
  onChange,
}: {
  label: string;
  value: string;
  options: ReadonlyArray<readonly [value: string, text: string]>;
  onChange: (value: string) => void;
}) {
  return (
    <label className="flex items-center gap-2 text-sm">
      <span className="font-semibold">{label}</span>
      <select
        value={value}
        onChange={(e) => onChange(e.target.value)}
        className="rounded border border-gray-400 bg-white p-2"
      >
        {options.map(([v, text]) => (
          <option key={v} value={v}>
            {text}
          </option>
        ))}
      </select>
    </label>
  );
}

/** The row above a list: search and filters. */
export function ListToolbar({ children }: { children: ReactNode }) {
  return <div className="mb-4 flex flex-wrap items-center gap-3">{children}</div>;
}

/** "N–M of T" and Previous / Next. */
export function Pager({
  page,
  limit,
  total,
  onPage,
  label,
}: {
  page: number;
  limit: number;
  total: number;
  onPage: (page: number) => void;
  label: string;
}) {
  const button =
    'rounded border border-gray-400 bg-white px-3 py-1.5 text-sm font-semibold hover:bg-gray-100 disabled:opacity-50 disabled:hover:bg-white';
  return (
    <nav aria-label={label} className="mt-4 flex flex-wrap items-center justify-between gap-3">
      <p className="text-sm text-gray-700" aria-live="polite" data-testid="page-range">
        {formatPageRange(page, limit, total)}
      </p>
      <span className="flex gap-2">
        <button type="button" className={button} disabled={page <= 1} onClick={() => onPage(page - 1)}>
          Previous
        </button>
        <button
          type="button"
          className={button}
          disabled={!hasNextPage(page, limit, total)}
          onClick={() => onPage(page + 1)}
        >
          Next
        </button>
      </span>
    </nav>
  );
}
