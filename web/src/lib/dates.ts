const dateFormat = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', year: 'numeric' });
const dateTimeFormat = new Intl.DateTimeFormat('en-GB', {
  day: 'numeric',
  month: 'short',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
});

export const formatDate = (iso: string | Date) => dateFormat.format(new Date(iso));
export const formatDateTime = (iso: string | Date) => dateTimeFormat.format(new Date(iso));

/**
 * The date `days` after `iso` (estimated delivery is 10 days after the order date: docs/product.md#business-constants).
 */
export function addDays(iso: string | Date, days: number): Date {
  const date = new Date(iso);
  date.setDate(date.getDate() + days);
  return date;
}

const dayMonthUtc = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', timeZone: 'UTC' });
const fullDayUtc = new Intl.DateTimeFormat('en-GB', {
  weekday: 'short',
  day: 'numeric',
  month: 'short',
  year: 'numeric',
  timeZone: 'UTC',
});

/** A calendar day the server names as YYYY-MM-DD (UTC): "3 Jan", or with `full` "Fri, 3 Jan 2025". */
export function formatDay(day: string, full = false): string {
  const date = new Date(`${day}T00:00:00Z`);
  return (full ? fullDayUtc : dayMonthUtc).format(date);
}
