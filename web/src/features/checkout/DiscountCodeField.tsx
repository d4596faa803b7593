import { useEffect, useId, useState, type FormEvent } from 'react';
import type { CartLineJson } from '@shop/contracts';
import { Price } from '@/components/Price';
import { applyCode, quoteKey, type AppliedCode } from './discount';

interface Props {
  lines: CartLineJson[];
  applied: AppliedCode | null;
  onChange: (applied: AppliedCode | null) => void;
  /** The checkout's refusal of the applied code (e.g. used up since it was applied): shown under it. */
  refusal?: string | null;
  disabled?: boolean;
}

/**
 * The checkout's "Discount code" field: Apply asks the server for a quote with the code; a refused code shows the
 * server's message under the field and is not applied; an applied one can be removed. A cart that changes while a
 * code is applied is quoted again, so the summary never shows a discount on lines that are gone.
 */
export function DiscountCodeField({ lines, applied, onChange, refusal, disabled }: Props) {
  const id = useId();
  const [typed, setTyped] = useState('');
  const [applying, setApplying] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const key = quoteKey(lines);

  const apply = async (code: string) => {
    setApplying(true);
    setError(null);
    try {
      onChange(await applyCode(lines, code));
      setTyped('');
    } catch (reason) {
      onChange(null);
      setTyped(code);
      setError((reason as Error).message);
    } finally {
      setApplying(false);
    }
  };

  useEffect(() => {
    if (applied && !applying && applied.key !== key && lines.length) void apply(applied.code);
  }, [key]); // quoted again only when the lines change

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!typed.trim()) {
      setError('Enter a discount code');
      return;
    }
    void apply(typed);
  };

  const remove = () => {
    onChange(null);
    setError(null);
  };

  const message = error ?? refusal ?? null;
  const messageId = `${id}-message`;
  return (
    <div className="mb-4 border-b border-gray-200 pb-4" data-testid="discount-code">
      {applied ? (
        <div className="flex items-center justify-between gap-3">
          <p className="text-sm">
            Code <span className="font-mono font-semibold">{applied.code}</span> applied:{' '}
            <span className="font-semibold text-emerald-800">
              −<Price value={applied.quote.discount.amount} />
            </span>
          </p>
          <button
            type="button"
            onClick={remove}
            disabled={disabled}
            aria-label={`Remove discount code ${applied.code}`}
            className="rounded border border-gray-400 bg-white px-3 py-1.5 text-sm font-semibold hover:bg-gray-100 disabled:opacity-60"
          >
            Remove
          </button>
        </div>
      ) : (
        <form onSubmit={submit} noValidate>
          <label htmlFor={`${id}-code`} className="mb-1 block text-sm font-semibold">
            Discount code
          </label>
          <div className="flex gap-2">
            <input
              id={`${id}-code`}
              name="discountCode"
              value={typed}
              onChange={(e) => {
                setTyped(e.target.value);
                setError(null);
              }}
              maxLength={64}
              autoComplete="off"
              autoCapitalize="characters"
              spellCheck={false}
              disabled={disabled}
              aria-invalid={message ? true : undefined}
              aria-describedby={message ? messageId : undefined}
              className="min-w-0 flex-1 rounded border border-gray-400 bg-white p-2 uppercase disabled:bg-gray-100"
            />
            <button
              type="submit"
              disabled={disabled || applying}
              className="rounded bg-gray-900 px-4 py-2 font-semibold text-white hover:bg-gray-700 disabled:opacity-60"
            >
              {applying ? 'Applying...' : 'Apply'}
            </button>
          </div>
        </form>
      )}
      {message && (
        <p id={messageId} role="alert" className="mt-2 text-sm text-red-800">
          {message}
          {refusal && !error && applied && ' — remove the code to pay without it.'}
        </p>
      )}
    </div>
  );
}
