import { ADMIN_ORDERS_CSV_COLUMNS } from '@shop/contracts';
import type { StatusEntryExtras } from '../orders/order.mapper';
import type { LeanOrder } from '../orders/order.schema';
import { refundsPence } from '../stats/revenue';

/** A spreadsheet reads a cell starting with one of these as a formula (CSV injection): such text is defused. */
const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * A text cell: a leading formula character gets a `'` before it (OWASP's advice: the spreadsheet shows the text as
 * typed), and the cell is quoted, doubling its quotes, when it holds a quote, comma or line break (RFC 4180).
 */
export function textCell(value: string | undefined | null): string {
  let text = value ?? '';
  if (FORMULA_START.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** Pence as pounds with exactly two decimals, by integer arithmetic (1999 → "19.99", 5 → "0.05"). */
export function pounds(pence: number): string {
  const whole = Math.round(pence);
  const sign = whole < 0 ? '-' : '';
  const abs = Math.abs(whole);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

const iso = (value: Date | string | undefined) => (value ? new Date(value).toISOString() : '');

export const CSV_LINE_END = '\r\n';

/** The first line: the column names (with the UTF-8 byte order mark, so that spreadsheets read the text as UTF-8). */
export const CSV_HEADER = `\uFEFF${ADMIN_ORDERS_CSV_COLUMNS.join(',')}${CSV_LINE_END}`;

/** What the export reads of an order: the API's fields, and the refunds recorded in its history. */
export type CsvOrder = Pick<
  LeanOrder,
  | '_id'
  | 'user'
  | 'orderItems'
  | 'shippingAddress'
  | 'status'
  | 'isPaid'
  | 'paidAt'
  | 'totalPence'
  | 'subtotalPence'
  | 'discount'
  | 'paymentDetails'
  | 'createdAt'
> & { statusHistory?: Array<StatusEntryExtras> };

/** The CSV rows of one order: one per line, each ending in CRLF; the order's fields repeated on each. */
export function orderRows(order: CsvOrder): string {
  const subtotal = order.subtotalPence ?? order.totalPence;
  const refunded = refundsPence(order);
  let rows = '';
  for (const line of order.orderItems) {
    const cells = [
      textCell(String(order._id)),
      iso(order.createdAt),
      textCell(order.status),
      order.isPaid ? 'yes' : 'no',
      iso(order.paidAt),
      textCell(order.user.name),
      textCell(order.user.email),
      textCell(order.shippingAddress?.country),
      textCell(line.productId),
      textCell(line.name),
      textCell(line.sku),
      textCell(line.size),
      textCell(line.color),
      String(line.quantity),
      pounds(line.pricePence),
      pounds(line.pricePence * line.quantity),
      pounds(subtotal),
      textCell(order.discount?.code),
      order.discount ? pounds(order.discount.amountPence) : '',
      pounds(order.totalPence),
      refunded ? pounds(refunded) : '',
      textCell(order.paymentDetails?.id),
      textCell(order.paymentDetails?.captureId),
    ];
    rows += `${cells.join(',')}${CSV_LINE_END}`;
  }
  return rows;
}

/** The fields of an order the export reads (nothing else is fetched). */
export const CSV_PROJECTION = {
  user: 1,
  orderItems: 1,
  shippingAddress: 1,
  status: 1,
  isPaid: 1,
  paidAt: 1,
  totalPence: 1,
  subtotalPence: 1,
  discount: 1,
  paymentDetails: 1,
  statusHistory: 1,
  createdAt: 1,
} as const;
