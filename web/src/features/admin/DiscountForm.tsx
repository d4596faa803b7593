import { useEffect, useId, useRef, useState, type FormEvent, type ReactNode } from 'react';
import type { DiscountCodeBody, DiscountCodeJson, DiscountType } from '@shop/contracts';
import {
  discountBody,
  discountFormValues,
  validateDiscount,
  type DiscountFormErrors,
  type DiscountFormValues,
} from './discountForm';

const input = 'w-full rounded border bg-white p-2 aria-[invalid=true]:border-red-600';
const TYPE_LABELS: Record<DiscountType, string> = { percent: 'Percentage off', fixed: 'Fixed amount off' };
/** The order the fields show in, for focusing the first one with a mistake. */
const ORDER: Array<keyof DiscountFormValues> = [
  'code',
  'type',
  'value',
  'minSubtotal',
  'startsAt',
  'endsAt',
  'usageLimit',
  'perCustomerLimit',
];

function Row({
  id,
  label,
  hint,
  error,
  required,
  children,
}: {
  id: string;
  label: string;
  hint?: string;
  error?: string;
  required?: boolean;
  children: ReactNode;
}) {
  return (
    <div className="mb-4">
      <label htmlFor={id} className="mb-1 block text-sm font-semibold">
        {label}
        {required && (
          <span className="text-red-700" aria-hidden>
            {' '}
            *
          </span>
        )}
      </label>
      {children}
      {hint && (
        <p id={`${id}-hint`} className="mt-1 text-xs text-gray-600">
          {hint}
        </p>
      )}
      {error && (
        <p id={`${id}-error`} className="mt-1 text-sm text-red-800">
          {error}
        </p>
      )}
    </div>
  );
}

interface Props {
  /** The code being edited; absent for a new one. */
  discount?: DiscountCodeJson | null;
  saving: boolean;
  /** Resolves when saved; rejects with the server's message. */
  onSubmit: (body: DiscountCodeBody) => Promise<void>;
  onCancel: () => void;
}

/** Create or edit a discount code: the server's checks run as the admin sends, and the server's message shows. */
export function DiscountForm({ discount, saving, onSubmit, onCancel }: Props) {
  const [values, setValues] = useState<DiscountFormValues>(() => discountFormValues(discount));
  const [errors, setErrors] = useState<DiscountFormErrors>({});
  const [error, setError] = useState<string | null>(null);
  const errorBox = useRef<HTMLParagraphElement>(null);
  const form = useRef<HTMLFormElement>(null);
  const id = useId();
  const field = (key: keyof DiscountFormValues) => `${id}-${key}`;
  const heading = discount ? `Edit ${discount.code}` : 'New discount code';

  useEffect(() => {
    form.current?.querySelector<HTMLInputElement>('input')?.focus();
  }, []);

  const set =
    <K extends keyof DiscountFormValues>(key: K) =>
    (value: DiscountFormValues[K]) => {
      setValues((v) => ({ ...v, [key]: value }));
      setErrors((e) => ({ ...e, [key]: undefined }));
    };
  const describe = (key: keyof DiscountFormValues, hint?: boolean) =>
    [hint && `${field(key)}-hint`, errors[key] && `${field(key)}-error`].filter(Boolean).join(' ') || undefined;
  const invalid = (key: keyof DiscountFormValues) => (errors[key] ? true : undefined);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    const found = validateDiscount(values);
    setErrors(found);
    const first = ORDER.find((key) => found[key]);
    if (first) {
      document.getElementById(first === 'type' ? `${field('type')}-percent` : field(first))?.focus();
      return;
    }
    try {
      await onSubmit(discountBody(values));
    } catch (message) {
      setError(String(message));
      requestAnimationFrame(() => errorBox.current?.focus());
    }
  };

  const number = (key: 'value' | 'minSubtotal' | 'usageLimit' | 'perCustomerLimit', step: string, hint?: boolean) => (
    <input
      id={field(key)}
      type="number"
      inputMode={step === '1' ? 'numeric' : 'decimal'}
      min={step}
      step={step}
      value={values[key]}
      onChange={(e) => set(key)(e.target.value)}
      aria-invalid={invalid(key)}
      aria-describedby={describe(key, hint)}
      className={`${input} border-gray-400`}
    />
  );

  return (
    <form
      ref={form}
      onSubmit={submit}
      noValidate
      aria-labelledby={`${id}-heading`}
      className="rounded-lg border border-gray-200 bg-white p-5 shadow-sm md:p-6"
      data-testid="discount-form"
    >
      <h2 id={`${id}-heading`} className="mb-4 text-xl font-bold">
        {heading}
      </h2>
      {error && (
        <p
          ref={errorBox}
          tabIndex={-1}
          role="alert"
          className="mb-4 rounded border border-red-200 bg-red-50 p-3 text-sm text-red-800"
        >
          {error}
        </p>
      )}
      <div className="grid gap-x-4 sm:grid-cols-2">
        <Row
          id={field('code')}
          label="Code"
          required
          hint="3 to 32 letters, digits, hyphens or underscores; shoppers may type it in any case."
          error={errors.code}
        >
          <input
            id={field('code')}
            value={values.code}
            onChange={(e) => set('code')(e.target.value.toUpperCase())}
            maxLength={32}
            autoComplete="off"
            spellCheck={false}
            aria-invalid={invalid('code')}
            aria-describedby={describe('code', true)}
            className={`${input} border-gray-400 font-mono uppercase`}
          />
        </Row>
        <fieldset className="mb-4">
          <legend className="mb-1 block text-sm font-semibold">Type</legend>
          <div className="flex flex-wrap gap-4 pt-2">
            {(['percent', 'fixed'] as const).map((type) => (
              <label key={type} className="flex items-center gap-2">
                <input
                  id={`${field('type')}-${type}`}
                  type="radio"
                  name={field('type')}
                  value={type}
                  checked={values.type === type}
                  onChange={() => {
                    set('type')(type);
                    setErrors((e) => ({ ...e, value: undefined }));
                  }}
                />
                {TYPE_LABELS[type]}
              </label>
            ))}
          </div>
        </fieldset>
        <Row
          id={field('value')}
          label={values.type === 'percent' ? 'Percentage (%)' : 'Amount (£)'}
          required
          hint={
            values.type === 'percent'
              ? 'A whole number from 1 to 100, off the merchandise subtotal.'
              : 'Pounds off the merchandise subtotal; never takes a total below £0.'
          }
          error={errors.value}
        >
          {number('value', values.type === 'percent' ? '1' : '0.01', true)}
        </Row>
        <Row
          id={field('minSubtotal')}
          label="Minimum subtotal (£)"
          hint="Leave empty for no minimum."
          error={errors.minSubtotal}
        >
          {number('minSubtotal', '0.01', true)}
        </Row>
        <Row id={field('startsAt')} label="Starts" hint="Leave empty to start now." error={errors.startsAt}>
          <input
            id={field('startsAt')}
            type="datetime-local"
            value={values.startsAt}
            onChange={(e) => set('startsAt')(e.target.value)}
            aria-invalid={invalid('startsAt')}
            aria-describedby={describe('startsAt', true)}
            className={`${input} border-gray-400`}
          />
        </Row>
        <Row id={field('endsAt')} label="Ends" hint="Leave empty for no end." error={errors.endsAt}>
          <input
            id={field('endsAt')}
            type="datetime-local"
            value={values.endsAt}
            onChange={(e) => set('endsAt')(e.target.value)}
            aria-invalid={invalid('endsAt')}
            aria-describedby={describe('endsAt', true)}
            className={`${input} border-gray-400`}
          />
        </Row>
        <Row
          id={field('usageLimit')}
          label="Usage limit"
          hint="Orders that may use it in all; empty for no limit."
          error={errors.usageLimit}
        >
          {number('usageLimit', '1', true)}
        </Row>
        <Row
          id={field('perCustomerLimit')}
          label="Per-customer limit"
          hint="Orders one customer may place with it; empty for no limit."
          error={errors.perCustomerLimit}
        >
          {number('perCustomerLimit', '1', true)}
        </Row>
      </div>
      <div className="mb-6 flex flex-wrap gap-6">
        <label className="flex items-center gap-2">
          <input
            type="checkbox"
            checked={values.firstOrderOnly}
            onChange={(e) => set('firstOrderOnly')(e.target.checked)}
          />
          First order only
        </label>
        <label className="flex items-center gap-2">
          <input type="checkbox" checked={values.active} onChange={(e) => set('active')(e.target.checked)} />
          Active
        </label>
      </div>
      <div className="flex flex-wrap gap-3">
        <button
          type="submit"
          disabled={saving}
          className="rounded-lg bg-green-700 px-5 py-2 font-semibold text-white hover:bg-green-800 disabled:opacity-60"
        >
          {saving ? 'Saving...' : discount ? 'Save Changes' : 'Create Code'}
        </button>
        <button
          type="button"
          onClick={onCancel}
          className="rounded-lg border border-gray-400 bg-white px-5 py-2 font-semibold hover:bg-gray-100"
        >
          Cancel
        </button>
      </div>
    </form>
  );
}
