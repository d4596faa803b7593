import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import type { CartLineJson } from '@shop/contracts';
import { announce } from '@/components/Announcer';
import { Price } from '@/components/Price';
import { formatPrice } from '@/lib/money';
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
  const result = useRef<HTMLParagraphElement>(null);
  const input = useRef<HTMLInputElement>(null);
  /** Where focus goes once an Apply the shopper pressed has its answer: the applied code, or back to the field. */
  const [focusAfter, setFocusAfter] = useState<'result' | 'field' | null>(null);

  const apply = async (code: string, { pressed = false } = {}) => {
    if (applying) return;
    setApplying(true);
    setError(null);
    try {
      const quoted = await applyCode(lines, code);
      onChange(quoted);
      setTyped('');
      announce(`Code ${quoted.code} applied: −${formatPrice(quoted.quote.discount.amount)}`);
      if (pressed) setFocusAfter('result');
    } catch (reason) {
      onChange(null);
      setTyped(code);
      setError((reason as Error).message);
      if (pressed) setFocusAfter('field');
    } finally {
      setApplying(false);
    }
  };

  // the form gives way to the applied code (or the other way round): focus follows what replaced the button
  useEffect(() => {
    if (!focusAfter) return;
    (focusAfter === 'result' ? result : input).current?.focus();
    setFocusAfter(null);
  }, [focusAfter, applied]);

  useEffect(() => {
    if (applied && !applying && applied.key !== key && lines.length) void apply(applied.code);
  }, [key]); // quoted again only when the lines change

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!typed.trim()) {
      setError('Enter a discount code');
      return;
    }
    void apply(typed, { pressed: true });
  };

  const remove = () => {
    onChange(null);
    setError(null);
    setFocusAfter('field');
  };

  const message = error ?? refusal ?? null;
  const messageId = `${id}-message`;
  return (
    <div className="mb-4 border-b border-gray-200 pb-4" data-testid="discount-code">
      {applied ? (
        <div className="flex items-center justify-between gap-3">
          <p
            ref={result}
            tabIndex={-1}
            className="text-sm focus:outline-2 focus:outline-offset-2"
            data-testid="applied-code"
          >
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
              ref={input}
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
            {/* aria-disabled while applying: a disabled button would drop the keyboard's focus to the page */}
            <button
              type="submit"
              disabled={disabled}
              aria-disabled={applying || undefined}
              className="rounded bg-gray-900 px-4 py-2 font-semibold text-white hover:bg-gray-700 disabled:opacity-60 aria-disabled:opacity-60"
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
