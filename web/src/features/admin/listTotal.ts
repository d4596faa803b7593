import { ADMIN_LIST_LIMIT_DEFAULT, TOTAL_COUNT_HEADER } from '@shop/contracts';

/**
 * The total an admin list answered in its X-Total-Count header (axios gives header names lower-cased); without
 * the header (a list asked for without `page`), the rows it sent.
 */
export function totalOf(headers: Record<string, unknown>, rows: number): number {
  const value = Number(headers[TOTAL_COUNT_HEADER.toLowerCase()]);
  return Number.isInteger(value) && value >= 0 ? value : rows;
}

export interface ListPage {
  page: number;
  limit: number;
  /** The parameters as sent (a query string): the page compares it with its URL's to know the rows are current. */
  key: string;
}

/** The page a list request asked for (its `page` and `limit`, as sent; 1 and the default when absent). */
export function listPageOf(params: Record<string, string> | void): ListPage {
  const page = Number(params?.page ?? 1);
  const limit = Number(params?.limit ?? ADMIN_LIST_LIMIT_DEFAULT);
  return {
    page: Number.isInteger(page) && page > 0 ? page : 1,
    limit: Number.isInteger(limit) && limit > 0 ? limit : ADMIN_LIST_LIMIT_DEFAULT,
    key: new URLSearchParams(params ?? {}).toString(),
  };
}
