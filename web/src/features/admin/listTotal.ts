import { TOTAL_COUNT_HEADER } from '@shop/contracts';

/**
 * The total an admin list answered in its X-Total-Count header (axios gives header names lower-cased); without
 * the header (a list asked for without `page`), the rows it sent.
 */
export function totalOf(headers: Record<string, unknown>, rows: number): number {
  const value = Number(headers[TOTAL_COUNT_HEADER.toLowerCase()]);
  return Number.isInteger(value) && value >= 0 ? value : rows;
}
