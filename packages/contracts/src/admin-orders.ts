// The admin's list of orders at a real shop's size (issue 25): paged, searched, filtered and sorted, and its CSV
// export. The paging rules (page, limit, the X-Total-Count header) are the generic part every admin list shares;
// the rest is the orders' own (what `q` searches, the filters, the sort fields).
import { ORDER_STATUSES, type OrderStatus } from './catalog';

// ---- generic admin-list paging (shared by every admin list)

// The total of a paged list's rows, every page together (the body stays a bare array): TOTAL_COUNT_HEADER, declared
// once with the rest of the shared admin-list contract in admin-lists.ts.
export const ADMIN_LIST_DEFAULT_LIMIT = 25;
export const ADMIN_LIST_MAX_LIMIT = 100;
/** Deeper pages than this are refused: a filter finds a row faster than paging to it. */
export const ADMIN_LIST_MAX_PAGE = 10_000;
/** `q` longer than this is refused. */
export const ADMIN_LIST_MAX_QUERY = 100;

// ---- the orders' list

/**
 * Sort fields of GET /api/admin/orders: `sort=<field>` ascending, `sort=-<field>` descending; default `-createdAt`
 * (newest first). `customer` is the buyer's name (case-insensitive), `totalPrice` what was paid.
 */
export const ADMIN_ORDER_SORT_FIELDS = ['createdAt', 'totalPrice', 'status', 'customer'] as const;
export type AdminOrderSortField = (typeof ADMIN_ORDER_SORT_FIELDS)[number];
export type AdminOrderSort = AdminOrderSortField | `-${AdminOrderSortField}`;
export const ADMIN_ORDER_DEFAULT_SORT: AdminOrderSort = '-createdAt';

/**
 * The query of GET /api/admin/orders (and of its CSV export, which ignores page, limit and sort). All optional;
 * without `page` (and without any of the others) the list is today's: every order, newest first, streamed.
 */
export interface AdminOrderListQuery {
  /** 1-based. */
  page?: number;
  /** 1–ADMIN_LIST_MAX_LIMIT, default ADMIN_LIST_DEFAULT_LIMIT. */
  limit?: number;
  /**
   * An order id (24 hex digits); a whole email (with `@`, any case); or the beginning of the buyer's name or email
   * (any case).
   */
  q?: string;
  status?: OrderStatus;
  paid?: 'true' | 'false';
  /** Placed on or after: YYYY-MM-DD (that day from 00:00 UTC) or an ISO 8601 time. */
  from?: string;
  /** Placed on or before: YYYY-MM-DD (that whole day, UTC) or an ISO 8601 time. */
  to?: string;
  sort?: AdminOrderSort;
}

/** Every key the list reads; any other is ignored. */
export const ADMIN_ORDER_QUERY_KEYS = ['page', 'limit', 'q', 'status', 'paid', 'from', 'to', 'sort'] as const;

export const ADMIN_ORDER_QUERY_MESSAGES = {
  repeated: (key: string) => `Give ${key} only once`,
  invalid: (key: string) => `Invalid ${key}`,
  page: `page must be a whole number from 1 to ${ADMIN_LIST_MAX_PAGE}`,
  limit: `limit must be a whole number from 1 to ${ADMIN_LIST_MAX_LIMIT}`,
  queryTooLong: `q must be at most ${ADMIN_LIST_MAX_QUERY} characters`,
  status: `status must be one of ${ORDER_STATUSES.join(', ')}`,
  paid: 'paid must be true or false',
  date: (key: 'from' | 'to') => `${key} must be a date (YYYY-MM-DD) or an ISO 8601 time`,
  dateOrder: 'from must not be after to',
  sort: `Unknown sort field: sort by one of ${ADMIN_ORDER_SORT_FIELDS.join(', ')} (a leading - for descending)`,
} as const;

// ---- the CSV export: GET /api/admin/orders/export.csv?<the list's filters>

/**
 * The export's columns, in order: one row per line of an order, the order's own fields repeated on each of its
 * rows. Amounts are pounds with two decimals; times ISO 8601 (UTC).
 */
export const ADMIN_ORDERS_CSV_COLUMNS = [
  'Order ID',
  'Placed',
  'Status',
  'Paid',
  'Paid at',
  'Customer',
  'Email',
  'Country',
  'Product ID',
  'Item',
  'SKU',
  'Size',
  'Color',
  'Quantity',
  'Unit price',
  'Line total',
  'Subtotal',
  'Discount code',
  'Discount',
  'Order total',
  'Refunded',
  'PayPal order',
  'PayPal capture',
] as const;
