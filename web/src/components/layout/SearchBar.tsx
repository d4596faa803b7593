import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router-dom';
import { IconClose, IconSearch } from '@/components/icons';

/** The header's expandable search: goes to /collections/all?search=… (docs/product.md#header). */
export function SearchBar() {
  const [open, setOpen] = useState(false);
  const [text, setText] = useState('');
  const input = useRef<HTMLInputElement>(null);
  const opener = useRef<HTMLButtonElement>(null);
  /**
   * Where focus goes when the form closes, rather than to the document with the form's fields: back to the button
   * (Escape, Close search), or to the main area that shows the results (a search).
   */
  const refocus = useRef<'button' | 'results' | null>(null);
  const navigate = useNavigate();

  useEffect(() => {
    if (open) input.current?.focus();
    else if (refocus.current === 'button') opener.current?.focus();
    else if (refocus.current === 'results') document.getElementById('main')?.focus({ preventScroll: true });
    refocus.current = null;
  }, [open]);

  const close = () => {
    refocus.current = 'button';
    setOpen(false);
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const term = text.trim();
    navigate(term ? `/collections/all?search=${encodeURIComponent(term)}` : '/collections/all');
    refocus.current = 'results';
    setOpen(false);
  };

  if (!open) {
    return (
      <button
        ref={opener}
        type="button"
        onClick={() => setOpen(true)}
        className="rounded p-2 text-gray-700 hover:bg-gray-100 hover:text-black"
        aria-label="Search products"
        aria-expanded="false"
      >
        <IconSearch className="h-6 w-6" />
      </button>
    );
  }
  return (
    <form
      role="search"
      onSubmit={submit}
      onKeyDown={(e) => e.key === 'Escape' && close()}
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
          value={text}
          onChange={(e) => setText(e.target.value)}
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
      </div>
      <button
        type="button"
        onClick={close}
        className="rounded p-2 text-gray-700 hover:bg-gray-100"
        aria-label="Close search"
      >
        <IconClose className="h-6 w-6" />
      </button>
    </form>
  );
}
