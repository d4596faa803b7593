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

/** The date `days` after `iso` (SPEC §9: estimated delivery is 10 days after the order date). */
export function addDays(iso: string | Date, days: number): Date {
  const date = new Date(iso);
  date.setDate(date.getDate() + days);
  return date;
}
