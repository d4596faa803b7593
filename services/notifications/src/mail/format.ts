/** How the emails write money and dates: £1,234.50 and 26 November 2025 (en-GB, the shop's time zone). */
const POUNDS = new Intl.NumberFormat('en-GB', { style: 'currency', currency: 'GBP' });
const DATE = new Intl.DateTimeFormat('en-GB', {
  day: 'numeric',
  month: 'long',
  year: 'numeric',
  timeZone: 'Europe/London',
});
const DATE_TIME = new Intl.DateTimeFormat('en-GB', {
  day: 'numeric',
  month: 'long',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  timeZone: 'Europe/London',
  timeZoneName: 'short',
});

/** Pounds (as the events carry them) → `£12.34`; rounded to the penny. */
export function formatPounds(amount: number): string {
  return POUNDS.format(Math.round(amount * 100) / 100);
}

/** Money in another currency than pounds (a refund names its own) → `12.34 EUR`, pounds as formatPounds. */
export function formatMoney(amount: number, currency: string): string {
  if (currency.toUpperCase() === 'GBP') return formatPounds(amount);
  try {
    return new Intl.NumberFormat('en-GB', { style: 'currency', currency }).format(amount);
  } catch {
    return `${amount.toFixed(2)} ${currency}`;
  }
}

export const formatDate = (date: Date): string => DATE.format(date);
export const formatDateTime = (date: Date): string => DATE_TIME.format(date);

export function addDays(date: Date, days: number): Date {
  return new Date(date.getTime() + days * 24 * 3600 * 1000);
}
