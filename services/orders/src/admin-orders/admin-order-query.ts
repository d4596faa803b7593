import { BadRequestException } from '@nestjs/common';
import {
  ADMIN_LIST_DEFAULT_LIMIT,
  ADMIN_LIST_MAX_LIMIT,
  ADMIN_LIST_MAX_PAGE,
  ADMIN_LIST_MAX_QUERY,
  ADMIN_ORDER_DEFAULT_SORT,
  ADMIN_ORDER_QUERY_KEYS,
  ADMIN_ORDER_QUERY_MESSAGES as M,
  ADMIN_ORDER_SORT_FIELDS,
  ORDER_STATUSES,
  type AdminOrderSortField,
  type OrderStatus,
} from '@shop/contracts';
import { Types } from 'mongoose';

type QueryKey = (typeof ADMIN_ORDER_QUERY_KEYS)[number];

/** What the orders' filters select (the list and the export share it). */
export interface AdminOrderFilter {
  /** A 24-hex order id. */
  id?: string;
  /** A whole email, lower-cased: equality on customerEmail. */
  email?: string;
  /** The beginning of the buyer's name or email, lower-cased: a range on customerName / customerEmail. */
  prefix?: string;
  status?: OrderStatus;
  paid?: boolean;
  /** createdAt ≥ from */
  from?: Date;
  /** createdAt < before (the day after a YYYY-MM-DD `to`, or 1 ms after an ISO one) */
  before?: Date;
}

/** A validated GET /api/admin/orders query. `paged: false` is today's list: every order, newest first, streamed. */
export interface AdminOrderQuery {
  paged: boolean;
  page: number;
  limit: number;
  filter: AdminOrderFilter;
  sort: { field: AdminOrderSortField; direction: 1 | -1 };
}

const DAY_MS = 86_400_000;
const DATE_ONLY = /^(\d{4})-(\d{2})-(\d{2})$/;
// An ISO 8601 time with a zone (Z or ±hh:mm), as Date.toISOString() writes it and browsers send it.
const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})$/;

const bad = (message: string) => new BadRequestException(message);

/**
 * One query value as a single trimmed string (undefined when absent or blank). A repeated key (an array) or an
 * object is refused, never passed on into a query.
 */
function single(raw: Record<string, unknown>, key: QueryKey): string | undefined {
  const value = raw[key];
  if (value === undefined || value === null) return undefined;
  if (Array.isArray(value)) throw bad(M.repeated(key));
  if (typeof value !== 'string') throw bad(M.invalid(key));
  const trimmed = value.trim();
  return trimmed === '' ? undefined : trimmed;
}

function wholeNumber(value: string, max: number, message: string): number {
  if (!/^\d{1,9}$/.test(value)) throw bad(message);
  const n = Number(value);
  if (n < 1 || n > max) throw bad(message);
  return n;
}

/** A calendar date that exists (2025-02-30 does not), as midnight UTC. */
function dateOnly(value: string): Date | undefined {
  const m = DATE_ONLY.exec(value);
  if (!m) return undefined;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day
    ? date
    : undefined;
}

function isoTime(value: string): Date | undefined {
  if (!ISO_TIME.test(value)) return undefined;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? undefined : date;
}

/** `from`: that day's midnight UTC, or the time given. */
function fromDate(value: string): Date {
  const date = dateOnly(value) ?? isoTime(value);
  if (!date) throw bad(M.date('from'));
  return date;
}

/** `to`, inclusive, as the exclusive bound after it: the next day's midnight, or 1 ms after the time given. */
function beforeDate(value: string): Date {
  const day = dateOnly(value);
  if (day) return new Date(day.getTime() + DAY_MS);
  const time = isoTime(value);
  if (!time) throw bad(M.date('to'));
  return new Date(time.getTime() + 1);
}

/** What `q` searches: an order id, a whole email, or the beginning of a name or email. */
function search(q: string): Pick<AdminOrderFilter, 'id' | 'email' | 'prefix'> {
  if (q.length > ADMIN_LIST_MAX_QUERY) throw bad(M.queryTooLong);
  if (/^[0-9a-fA-F]{24}$/.test(q)) return { id: q.toLowerCase() };
  const lower = q.toLowerCase();
  return lower.includes('@') ? { email: lower } : { prefix: lower };
}

/**
 * Parses and validates the query of GET /api/admin/orders (and of the export: the same filters). Unknown keys are
 * ignored; a bad value of a known one is a 400 with a sentence. Without any of the known keys the list is today's
 * (`paged: false`); any of them makes it a page (page 1 unless given).
 */
export function parseAdminOrderQuery(raw: Record<string, unknown>): AdminOrderQuery {
  // `status[$ne]=x` reaches us as the literal key "status[$ne]" (Express 5's simple parser): refused, not ignored.
  for (const key of Object.keys(raw)) {
    const bracket = /^([^[\]]+)\[/.exec(key);
    if (bracket && (ADMIN_ORDER_QUERY_KEYS as readonly string[]).includes(bracket[1])) throw bad(M.invalid(bracket[1]));
  }
  const paged = ADMIN_ORDER_QUERY_KEYS.some((key) => raw[key] !== undefined);

  const pageText = single(raw, 'page');
  const page = pageText === undefined ? 1 : wholeNumber(pageText, ADMIN_LIST_MAX_PAGE, M.page);
  const limitText = single(raw, 'limit');
  const limit =
    limitText === undefined ? ADMIN_LIST_DEFAULT_LIMIT : wholeNumber(limitText, ADMIN_LIST_MAX_LIMIT, M.limit);

  const filter: AdminOrderFilter = {};
  const q = single(raw, 'q');
  if (q !== undefined) Object.assign(filter, search(q));

  const status = single(raw, 'status');
  if (status !== undefined) {
    if (!(ORDER_STATUSES as readonly string[]).includes(status)) throw bad(M.status);
    filter.status = status as OrderStatus;
  }
  const paid = single(raw, 'paid');
  if (paid !== undefined) {
    if (paid !== 'true' && paid !== 'false') throw bad(M.paid);
    filter.paid = paid === 'true';
  }
  const from = single(raw, 'from');
  if (from !== undefined) filter.from = fromDate(from);
  const to = single(raw, 'to');
  if (to !== undefined) filter.before = beforeDate(to);
  if (filter.from && filter.before && filter.from >= filter.before) throw bad(M.dateOrder);

  const sortText = single(raw, 'sort') ?? ADMIN_ORDER_DEFAULT_SORT;
  const descending = sortText.startsWith('-');
  const field = descending ? sortText.slice(1) : sortText;
  if (!(ADMIN_ORDER_SORT_FIELDS as readonly string[]).includes(field)) throw bad(M.sort);

  return {
    paged,
    page,
    limit,
    filter,
    sort: { field: field as AdminOrderSortField, direction: descending ? -1 : 1 },
  };
}

/** The end of the range of strings that begin with `prefix`. */
const afterPrefix = (prefix: string) => `${prefix}\uffff`;

/**
 * The MongoDB filter: equality and ranges on indexed fields only ($or of two ranges for a prefix), the subset both
 * MongoDB and the dev server serve. Never a regex: the search reads customerName/customerEmail, kept lower-cased.
 */
export function toMongoFilter(f: AdminOrderFilter): Record<string, unknown> {
  const filter: Record<string, unknown> = {};
  if (f.id) filter._id = new Types.ObjectId(f.id);
  if (f.email) filter.customerEmail = f.email;
  if (f.prefix) {
    const range = { $gte: f.prefix, $lt: afterPrefix(f.prefix) };
    filter.$or = [{ customerName: range }, { customerEmail: range }];
  }
  if (f.status) filter.status = f.status;
  if (f.paid !== undefined) filter.isPaid = f.paid;
  if (f.from || f.before) {
    filter.createdAt = {
      ...(f.from ? { $gte: f.from } : {}),
      ...(f.before ? { $lt: f.before } : {}),
    };
  }
  return filter;
}

const SORT_KEYS: Record<AdminOrderSortField, string> = {
  createdAt: 'createdAt',
  totalPrice: 'totalPence',
  status: 'status',
  customer: 'customerName',
};

/** The sort, always ending in the unique _id (same direction), so that equal values never shuffle between pages. */
export function toMongoSort(sort: AdminOrderQuery['sort']): Record<string, 1 | -1> {
  return { [SORT_KEYS[sort.field]]: sort.direction, _id: sort.direction };
}
