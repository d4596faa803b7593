// The discount code form's values (what the inputs hold, as text), its checks (the server's, so that a mistake is
// shown at once) and the body they make (DiscountCodeBody, issue 24).
import type { DiscountCodeBody, DiscountCodeJson, DiscountType } from '@shop/contracts';
import { formatPrice } from '@/lib/money';

/** 3–32 of A–Z, 0–9, `-` and `_` (codes are case-insensitive: kept and shown upper-case). */
export const DISCOUNT_CODE_PATTERN = /^[A-Z0-9_-]{3,32}$/;
const POUNDS = /^\d+(\.\d{1,2})?$/;
const WHOLE = /^\d+$/;

export interface DiscountFormValues {
  code: string;
  type: DiscountType;
  value: string;
  minSubtotal: string;
  /** `datetime-local` values (the admin's local time); '' when unset. */
  startsAt: string;
  endsAt: string;
  usageLimit: string;
  perCustomerLimit: string;
  firstOrderOnly: boolean;
  active: boolean;
}

export type DiscountFormErrors = Partial<Record<keyof DiscountFormValues, string>>;

/** "10 %" or "£5.00". */
export const formatDiscountValue = ({ type, value }: Pick<DiscountCodeJson, 'type' | 'value'>) =>
  type === 'percent' ? `${value} %` : formatPrice(value);

const pad = (n: number) => String(n).padStart(2, '0');

/** An ISO time as a `datetime-local` input shows it, in the browser's time zone. */
export function toLocalInput(iso: string | null | undefined): string {
  if (!iso) return '';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '';
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** A `datetime-local` value (local time) as an ISO time; null when empty or not a date. */
export function fromLocalInput(local: string): string | null {
  if (!local.trim()) return null;
  const d = new Date(local);
  return Number.isNaN(d.getTime()) ? null : d.toISOString();
}

const text = (n: number | null | undefined) => (n == null ? '' : String(n));

export function discountFormValues(code?: DiscountCodeJson | null): DiscountFormValues {
  return {
    code: code?.code ?? '',
    type: code?.type ?? 'percent',
    value: code ? (code.type === 'fixed' ? code.value.toFixed(2) : String(code.value)) : '',
    minSubtotal: code?.minSubtotal != null ? code.minSubtotal.toFixed(2) : '',
    startsAt: toLocalInput(code?.startsAt),
    endsAt: toLocalInput(code?.endsAt),
    usageLimit: text(code?.usageLimit),
    perCustomerLimit: text(code?.perCustomerLimit),
    firstOrderOnly: code?.firstOrderOnly ?? false,
    active: code?.active ?? true,
  };
}

const positiveWhole = (s: string) => WHOLE.test(s.trim()) && Number(s) >= 1;
const positivePounds = (s: string) => POUNDS.test(s.trim()) && Number(s) > 0;

/** The server's rules, field by field; an empty result means the form may be sent. */
export function validateDiscount(values: DiscountFormValues): DiscountFormErrors {
  const errors: DiscountFormErrors = {};
  const code = values.code.trim();
  if (!code) errors.code = 'Enter a code';
  else if (!DISCOUNT_CODE_PATTERN.test(code)) errors.code = 'Use 3 to 32 letters, digits, hyphens or underscores';

  const value = values.value.trim();
  if (values.type === 'percent') {
    if (!(WHOLE.test(value) && Number(value) >= 1 && Number(value) <= 100))
      errors.value = 'A percentage is a whole number from 1 to 100';
  } else if (!positivePounds(value)) errors.value = 'An amount is more than £0 with at most two decimals';

  if (values.minSubtotal.trim() && !positivePounds(values.minSubtotal))
    errors.minSubtotal = 'A minimum is more than £0 with at most two decimals';

  const starts = values.startsAt.trim() ? fromLocalInput(values.startsAt) : undefined;
  const ends = values.endsAt.trim() ? fromLocalInput(values.endsAt) : undefined;
  if (starts === null) errors.startsAt = 'Enter a date and time';
  if (ends === null) errors.endsAt = 'Enter a date and time';
  else if (starts && ends && ends <= starts) errors.endsAt = 'The end must be after the start';

  for (const key of ['usageLimit', 'perCustomerLimit'] as const)
    if (values[key].trim() && !positiveWhole(values[key])) errors[key] = 'A limit is a whole number from 1';
  return errors;
}

const optionalNumber = (s: string) => (s.trim() ? Number(s) : null);

/** The body of POST/PUT: every field, an unset one as null, the code upper-case, dates as ISO times. */
export function discountBody(values: DiscountFormValues): DiscountCodeBody {
  return {
    code: values.code.trim().toUpperCase(),
    type: values.type,
    value: Number(values.value),
    minSubtotal: optionalNumber(values.minSubtotal),
    startsAt: fromLocalInput(values.startsAt),
    endsAt: fromLocalInput(values.endsAt),
    usageLimit: optionalNumber(values.usageLimit),
    perCustomerLimit: optionalNumber(values.perCustomerLimit),
    firstOrderOnly: values.firstOrderOnly,
    active: values.active,
  };
}
