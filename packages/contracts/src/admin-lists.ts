// Admin lists (issue 25): searchable, paged, sorted lists done by the server. One contract for every admin list
// (orders, products, users): the generic parts first, then each list's own, clearly apart. The services parse
// queries with these functions (a 400 carries the message they return) and the SPA builds and reads its query
// strings with the same ones, so a link reopens the same view.
import { CATEGORIES, type Category } from './catalog';
import { ROLES, type Role } from './identity';

// ------------------------------------------------------------------------------------------------ generic parts

/** The response header that carries the total number of rows matching (the body stays a bare array). */
export const TOTAL_COUNT_HEADER = 'X-Total-Count';
export const ADMIN_LIST_LIMIT_DEFAULT = 25;
export const ADMIN_LIST_LIMIT_MAX = 100;
/** The longest search text (`q`) a list takes. */
export const ADMIN_LIST_Q_MAX_LENGTH = 100;
/** The largest page number taken: 10^6 pages of 100 is far past any list, and keeps the numbers exact. */
export const ADMIN_LIST_PAGE_MAX = 1_000_000;

/** The sentences a 400 answers for bad list input (the same for every list). */
export const ADMIN_LIST_MESSAGES = {
  page: `page must be a whole number from 1 to ${ADMIN_LIST_PAGE_MAX}`,
  limit: `limit must be a whole number from 1 to ${ADMIN_LIST_LIMIT_MAX}`,
  q: `q must be at most ${ADMIN_LIST_Q_MAX_LENGTH} characters`,
  /** A repeated key (`?page=1&page=2`) or an operator (`?q[$ne]=x`). */
  plain: (name: string) => `${name} must be given once, as plain text`,
  sort: (fields: readonly string[]) =>
    `sort must be one of ${fields.join(', ')}, with a leading - for descending (e.g. -${fields[0]})`,
  oneOf: (name: string, values: readonly string[]) => `${name} must be one of ${values.join(', ')}`,
  boolean: (name: string) => `${name} must be true or false`,
  /** For the lists that filter by date (orders). */
  date: (name: string) => `${name} must be a date such as 2026-11-26 or an ISO date-time`,
  /** For the lists searched or filtered by id (orders). */
  id: (name: string) => `${name} must be a 24-character hexadecimal id`,
} as const;

export type SortDirection = 1 | -1;

export interface ListSort<F extends string = string> {
  field: F;
  direction: SortDirection;
}

/** What every paged list request carries once parsed. */
export interface AdminListPage<F extends string = string> {
  /** 1-based. */
  page: number;
  limit: number;
  /** Trimmed search text; '' for none. */
  q: string;
  sort: ListSort<F>;
}

export type ListParse<T> = { ok: true; value: T } | { ok: false; message: string };

/** A raw query as Express (or URLSearchParams turned into an object) gives it. */
export type RawQuery = Record<string, unknown>;

/** Thrown by the readers below; `parse*` functions turn it into `{ok: false, message}`. */
class ListInputError extends Error {}

/**
 * Without `page` a list answers as it did before these parameters existed (every row, no header), so that
 * existing clients keep working: only a request naming a page is paged.
 */
export function isPagedRequest(raw: RawQuery): boolean {
  return raw.page !== undefined;
}

/** Keys with brackets are how a query smuggles operators (`?role[$ne]=x`): refused, never passed on. */
function refuseOperators(raw: RawQuery): void {
  for (const key of Object.keys(raw)) {
    const bracket = key.indexOf('[');
    if (bracket > 0) throw new ListInputError(ADMIN_LIST_MESSAGES.plain(key.slice(0, bracket)));
  }
}

/** One value as trimmed text; undefined when absent or empty; a list or an object is refused. */
function readSingle(raw: RawQuery, name: string): string | undefined {
  const value = raw[name];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw new ListInputError(ADMIN_LIST_MESSAGES.plain(name));
  const trimmed = value.trim();
  return trimmed === '' ? undefined : trimmed;
}

function wholeNumber(text: string | undefined, min: number, max: number, message: string): number | undefined {
  if (text === undefined) return undefined;
  if (!/^\d{1,7}$/.test(text)) throw new ListInputError(message);
  const n = Number(text);
  if (n < min || n > max) throw new ListInputError(message);
  return n;
}

function readBoolean(raw: RawQuery, name: string): boolean | undefined {
  const text = readSingle(raw, name);
  if (text === undefined) return undefined;
  if (text === 'true') return true;
  if (text === 'false') return false;
  throw new ListInputError(ADMIN_LIST_MESSAGES.boolean(name));
}

function readOneOf<T extends string>(raw: RawQuery, name: string, values: readonly T[]): T | undefined {
  const text = readSingle(raw, name);
  if (text === undefined) return undefined;
  const found = values.find((v) => v === text);
  if (!found) throw new ListInputError(ADMIN_LIST_MESSAGES.oneOf(name, values));
  return found;
}

/** `name` ascending, `-name` descending; only the list's own fields. */
function parseSort<F extends string>(text: string | undefined, fields: readonly F[], fallback: ListSort<F>) {
  if (text === undefined) return fallback;
  const direction: SortDirection = text.startsWith('-') ? -1 : 1;
  const name = direction === -1 ? text.slice(1) : text;
  const field = fields.find((f) => f === name);
  if (!field) throw new ListInputError(ADMIN_LIST_MESSAGES.sort(fields));
  return { field, direction };
}

export function sortParam(sort: ListSort): string {
  return `${sort.direction === -1 ? '-' : ''}${sort.field}`;
}

/** The generic part of a paged request: page (required here), limit, q, sort. Throws ListInputError. */
function readPage<F extends string>(raw: RawQuery, fields: readonly F[], fallback: ListSort<F>): AdminListPage<F> {
  refuseOperators(raw);
  const pageText = readSingle(raw, 'page');
  if (pageText === undefined) throw new ListInputError(ADMIN_LIST_MESSAGES.page);
  const page = wholeNumber(pageText, 1, ADMIN_LIST_PAGE_MAX, ADMIN_LIST_MESSAGES.page)!;
  const limit =
    wholeNumber(readSingle(raw, 'limit'), 1, ADMIN_LIST_LIMIT_MAX, ADMIN_LIST_MESSAGES.limit) ??
    ADMIN_LIST_LIMIT_DEFAULT;
  const q = readSingle(raw, 'q') ?? '';
  if (q.length > ADMIN_LIST_Q_MAX_LENGTH) throw new ListInputError(ADMIN_LIST_MESSAGES.q);
  const sort = parseSort(readSingle(raw, 'sort'), fields, fallback);
  return { page, limit, q, sort };
}

function parsed<T>(read: () => T): ListParse<T> {
  try {
    return { ok: true, value: read() };
  } catch (err) {
    if (err instanceof ListInputError) return { ok: false, message: err.message };
    throw err;
  }
}

/**
 * Any list's generic query (page, limit, q, sort over `fields`), for lists whose filters are read apart (the
 * orders list can build on this).
 */
export function parseAdminListPage<F extends string>(
  raw: RawQuery,
  fields: readonly F[],
  fallback: ListSort<F>,
): ListParse<AdminListPage<F>> {
  return parsed(() => readPage(raw, fields, fallback));
}

/** The rows of `page` (1-based) of `limit` among `total`: first and last as people count them (1-based), 0 when none. */
export function pageRange(page: number, limit: number, total: number): { first: number; last: number } {
  const first = (page - 1) * limit + 1;
  if (total === 0 || first > total) return { first: 0, last: 0 };
  return { first, last: Math.min(total, page * limit) };
}

/** "N–M of T" (an en dash), what the admin pages show beside the pager. */
export function formatPageRange(page: number, limit: number, total: number): string {
  const { first, last } = pageRange(page, limit, total);
  return first === 0 ? `0 of ${total}` : `${first}–${last} of ${total}`;
}

/** Whether a page lies past the end (a next page exists when `page * limit < total`). */
export function hasNextPage(page: number, limit: number, total: number): boolean {
  return page * limit < total;
}

/**
 * Ascending by `key`, then by the row's unique id, so that rows with equal values never shuffle between pages (a
 * list answered from a service's memory sorts with it once per change).
 */
export function ascendingThenById<R extends { id: string }>(key: (row: R) => number | string): (a: R, b: R) => number {
  return (a, b) => {
    const x = key(a);
    const y = key(b);
    if (x < y) return -1;
    if (x > y) return 1;
    return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
  };
}

// ----------------------------------------------------------------------------------------- products (catalog)

export const PRODUCT_LIST_SORTS = ['name', 'price', 'createdAt', 'countInStock'] as const;
export type ProductListSortField = (typeof PRODUCT_LIST_SORTS)[number];
/** Newest first, as the list without `page` has always been. */
export const PRODUCT_LIST_DEFAULT_SORT: ListSort<ProductListSortField> = { field: 'createdAt', direction: -1 };
export const LOW_STOCK_MAX_THRESHOLD = 1_000_000;

export const PRODUCT_LIST_MESSAGES = {
  lowStock: `lowStock must be true, false or a whole number from 0 to ${LOW_STOCK_MAX_THRESHOLD}`,
} as const;

/**
 * GET /api/admin/products?page=…: q matches name, SKU (the product's or a variant's) or brand, in any case;
 * category is one of CATEGORIES; published true/false; lowStock keeps products with some variant at or below a
 * threshold (`true`: the catalog's LOW_STOCK_THRESHOLD; a whole number: that many units).
 */
export interface AdminProductListQuery extends AdminListPage<ProductListSortField> {
  category?: Category;
  published?: boolean;
  lowStock?: number | 'default';
}

export function parseAdminProductListQuery(raw: RawQuery): ListParse<AdminProductListQuery> {
  return parsed(() => {
    const base = readPage(raw, PRODUCT_LIST_SORTS, PRODUCT_LIST_DEFAULT_SORT);
    const query: AdminProductListQuery = { ...base };
    const category = readOneOf(raw, 'category', CATEGORIES);
    if (category) query.category = category;
    const published = readBoolean(raw, 'published');
    if (published !== undefined) query.published = published;
    const lowStock = readSingle(raw, 'lowStock');
    if (lowStock === 'true') query.lowStock = 'default';
    else if (lowStock !== undefined && lowStock !== 'false')
      query.lowStock = wholeNumber(lowStock, 0, LOW_STOCK_MAX_THRESHOLD, PRODUCT_LIST_MESSAGES.lowStock);
    return query;
  });
}

// -------------------------------------------------------------------------------------------- users (identity)

export const USER_LIST_SORTS = ['name', 'email', 'createdAt'] as const;
export type UserListSortField = (typeof USER_LIST_SORTS)[number];
/** Newest first, as the list without `page` has always been. */
export const USER_LIST_DEFAULT_SORT: ListSort<UserListSortField> = { field: 'createdAt', direction: -1 };

/** GET /api/admin/users?page=…: q matches name or email, in any case; role is one of ROLES. */
export interface AdminUserListQuery extends AdminListPage<UserListSortField> {
  role?: Role;
}

export function parseAdminUserListQuery(raw: RawQuery): ListParse<AdminUserListQuery> {
  return parsed(() => {
    const query: AdminUserListQuery = { ...readPage(raw, USER_LIST_SORTS, USER_LIST_DEFAULT_SORT) };
    const role = readOneOf(raw, 'role', ROLES);
    if (role) query.role = role;
    return query;
  });
}
