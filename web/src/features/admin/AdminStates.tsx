import type { ReactNode } from 'react';

/** A request under way (a spinner with a spoken label). */
export function Loading({ label = 'Loading...' }: { label?: string }) {
  return (
    <div className="flex items-center gap-3 py-8 text-gray-700" role="status">
      <span className="h-5 w-5 animate-spin rounded-full border-2 border-gray-300 border-t-gray-800" aria-hidden />
      <span>{label}</span>
    </div>
  );
}

/**
 * A failed request: the server's message and, when it can be asked again, a Try again button
 * (docs/product.md#messages).
 */
export function ErrorNotice({ message, onRetry }: { message: string; onRetry?: () => void }) {
  return (
    <div role="alert" className="my-4 flex flex-wrap items-center gap-3 rounded border border-red-200 bg-red-50 p-3">
      <p className="text-red-800">{message}</p>
      {onRetry && (
        <button
          type="button"
          onClick={onRetry}
          className="rounded border border-red-300 bg-white px-3 py-1 text-sm font-semibold text-red-800 hover:bg-red-100"
        >
          Try again
        </button>
      )}
    </div>
  );
}

/** Nothing to list, in the words of docs/product.md#messages (e.g. "No Orders found."). */
export function Empty({ children }: { children: ReactNode }) {
  return <p className="rounded border border-dashed border-gray-300 p-6 text-center text-gray-600">{children}</p>;
}

/** Page heading and its actions. */
export function AdminHeading({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div className="mb-6 flex flex-wrap items-center justify-between gap-3">
      <h1 className="text-2xl font-bold md:text-3xl">{title}</h1>
      {children}
    </div>
  );
}

/** A box that narrows a long list as one types, and says how many rows show. */
export function ListFilter({
  value,
  onChange,
  placeholder,
  shown,
  total,
  noun,
}: {
  value: string;
  onChange: (value: string) => void;
  placeholder: string;
  shown: number;
  total: number;
  noun: [string, string];
}) {
  return (
    <div className="mb-4 flex flex-wrap items-center justify-between gap-3">
      <label className="flex w-full items-center gap-2 sm:w-auto">
        <span className="text-sm font-semibold">Find</span>
        <input
          type="search"
          value={value}
          onChange={(e) => onChange(e.target.value)}
          placeholder={placeholder}
          className="w-full rounded border border-gray-400 bg-white p-2 sm:w-72"
        />
      </label>
      <p className="text-sm text-gray-600" aria-live="polite">
        {shown === total ? `${total} ${total === 1 ? noun[0] : noun[1]}` : `${shown} of ${total} ${noun[1]}`}
      </p>
    </div>
  );
}
