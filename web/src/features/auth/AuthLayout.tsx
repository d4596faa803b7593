import type { FormEvent, ReactNode } from 'react';
import { StoreName } from '@/components/layout/Header';

interface AuthLayoutProps {
  heading: string;
  intro: string;
  error: string | null;
  onSubmit: (event: FormEvent<HTMLFormElement>) => void;
  children: ReactNode;
  footer: ReactNode;
}

/**
 * The login and register card: the store name, the server's message on failure, the form
 * (docs/product.md#login-and-register).
 */
export function AuthLayout({ heading, intro, error, onSubmit, children, footer }: AuthLayoutProps) {
  return (
    <div className="flex justify-center px-4 py-12 md:py-20">
      <form
        onSubmit={onSubmit}
        className="w-full max-w-md rounded-lg border border-gray-200 bg-white p-8 shadow-sm"
        noValidate={false}
      >
        <p className="mb-6 text-center text-2xl">
          <StoreName />
        </p>
        <h1 className="mb-2 text-center text-2xl font-bold">{heading}</h1>
        <p className="mb-6 text-center text-gray-600">{intro}</p>
        {error && (
          <p role="alert" className="mb-4 rounded border border-red-200 bg-red-50 p-3 text-sm text-red-800">
            {error}
          </p>
        )}
        {children}
        <p className="mt-6 text-center text-sm">{footer}</p>
      </form>
    </div>
  );
}

export function Field({
  id,
  label,
  hint,
  ...input
}: { id: string; label: string; hint?: string } & React.InputHTMLAttributes<HTMLInputElement>) {
  return (
    <div className="mb-4">
      <label htmlFor={id} className="mb-1 block text-sm font-semibold">
        {label}
      </label>
      <input
        id={id}
        {...input}
        aria-describedby={hint ? `${id}-hint` : undefined}
        className="w-full rounded border border-gray-400 p-2 read-only:bg-gray-100"
      />
      {hint && (
        <p id={`${id}-hint`} className="mt-1 text-xs text-gray-600">
          {hint}
        </p>
      )}
    </div>
  );
}

/** The card's submit button: `busyLabel` while the request runs. */
/**
 * The form's submit button. While busy it is aria-disabled, not disabled: a disabled button drops the keyboard's focus
 * to the top of the page, and the form's answer (an error, a message) should find the user where they were. A press
 * (or Enter in a field, which presses it) while busy does nothing.
 */
export function SubmitButton({ busy, label, busyLabel }: { busy: boolean; label: string; busyLabel: string }) {
  return (
    <button
      type="submit"
      aria-disabled={busy || undefined}
      onClick={(event) => busy && event.preventDefault()}
      className="w-full rounded-lg bg-black p-3 font-semibold text-white hover:bg-gray-800 aria-disabled:opacity-60"
    >
      {busy ? busyLabel : label}
    </button>
  );
}
