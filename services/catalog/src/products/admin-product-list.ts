import type { StockWrite } from '@shop/catalog-read-model';
import {
  ascendingThenById,
  type AdminProductListQuery,
  type ProductJson,
  type ProductListSortField,
} from '@shop/contracts';

/**
 * One product as the admin list holds it (published or not): its JSON as the admin API shows it, and the fields
 * the list's search, filters and sorts read. Pure data: admin-catalogue.ts keeps these current.
 */
export interface AdminProductRow {
  readonly id: string;
  readonly json: string;
  /** Lower-cased name (the name sort's key). */
  readonly name: string;
  /**
   * What `q` is looked for in: the lower-cased name, brand and SKUs (the product's, then its variants'), each
   * after a separator no search text holds, so one `includes` answers and a match never spans two of them.
   */
  readonly text: string;
  readonly category: string;
  readonly isPublished: boolean;
  readonly pricePence: number;
  readonly createdAt: number;
  readonly countInStock: number;
  /** The stock of its lowest variant (Infinity without variants): `lowStock` keeps rows at or below a threshold. */
  readonly lowestVariant: number;
}

/** Between the fields of a row's text; a search text holding it (after trimming) matches nothing. */
const SEPARATOR = '\u0000';

function lowestOf(variants: ProductJson['variants']): number {
  let lowest = Infinity;
  for (const v of variants ?? []) lowest = Math.min(lowest, v.countInStock);
  return lowest;
}

/** A product's row, from its admin JSON (toProductJson) and its price in pence. */
export function rowOf(product: ProductJson, pricePence: number): AdminProductRow {
  return {
    id: product._id,
    json: JSON.stringify(product),
    name: product.name.toLowerCase(),
    text: [product.name, product.brand ?? '', product.sku, ...(product.variants ?? []).map((v) => v.sku)]
      .map((field) => SEPARATOR + field.toLowerCase())
      .join(''),
    category: product.category,
    isPublished: product.isPublished,
    pricePence,
    createdAt: Date.parse(product.createdAt),
    countInStock: product.countInStock,
    lowestVariant: lowestOf(product.variants),
  };
}

/** The row after a stock write (from the catalog's change log): stock in all and per variant, updatedAt. */
export function withStock(row: AdminProductRow, write: StockWrite): AdminProductRow {
  const product = JSON.parse(row.json) as ProductJson;
  product.countInStock = write.countInStock;
  if (write.variants) product.variants = write.variants;
  product.updatedAt = write.updatedAt;
  return {
    ...row,
    json: JSON.stringify(product),
    countInStock: write.countInStock,
    lowestVariant: lowestOf(product.variants),
  };
}

const KEYS: Record<ProductListSortField, (row: AdminProductRow) => number | string> = {
  name: (row) => row.name,
  price: (row) => row.pricePence,
  createdAt: (row) => row.createdAt,
  countInStock: (row) => row.countInStock,
};

/** Ascending by the field, then by id (unique), so that equal values never shuffle between pages. */
export function ascending(field: ProductListSortField): (a: AdminProductRow, b: AdminProductRow) => number {
  return ascendingThenById(KEYS[field]);
}

/**
 * Whether a row passes the query's search and filters; `threshold` is what `lowStock: 'default'` means. `search`,
 * when given, answers the text search for every row at once (RowSearch); otherwise each row's text is searched.
 */
export function matcher(
  query: AdminProductListQuery,
  threshold: number,
  search?: RowSearch,
): (row: AdminProductRow) => boolean {
  const q = query.q.toLowerCase();
  const low = query.lowStock === undefined ? undefined : query.lowStock === 'default' ? threshold : query.lowStock;
  const found = q === '' || q.includes(SEPARATOR) ? undefined : search?.matching(q);
  const hasText = (row: AdminProductRow) =>
    q === '' || (found ? found.has(row) : !q.includes(SEPARATOR) && row.text.includes(q));
  return (row) =>
    (query.category === undefined || row.category === query.category) &&
    (query.published === undefined || row.isPublished === query.published) &&
    (low === undefined || row.lowestVariant <= low) &&
    hasText(row);
}

function isAscii(text: string): boolean {
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) > 0x7f) return false;
  return true;
}

/**
 * Every row's text in one string (the rows whose text is all ASCII; the few others are kept apart, so the string
 * stays one byte a character), so that a search is a run of indexOf over the catalogue rather than an `includes`
 * per row.
 */
export class RowSearch {
  private readonly text: string;
  /** Where each row's text starts in `text`, in the order of `rows`. */
  private readonly starts: number[] = [];
  private readonly rows: AdminProductRow[] = [];
  private readonly others: AdminProductRow[] = [];

  constructor(rows: Iterable<AdminProductRow>) {
    const parts: string[] = [];
    let length = 0;
    for (const row of rows) {
      if (!isAscii(row.text)) {
        this.others.push(row);
        continue;
      }
      this.starts.push(length);
      this.rows.push(row);
      parts.push(row.text);
      length += row.text.length;
    }
    this.text = parts.join('');
  }

  /** The rows whose text holds `needle` (lower-case, without the separator). */
  matching(needle: string): Set<AdminProductRow> {
    const found = new Set(this.others.filter((row) => row.text.includes(needle)));
    let at = this.text.indexOf(needle);
    while (at !== -1) {
      let low = 0;
      let high = this.starts.length - 1;
      while (low < high) {
        const mid = (low + high + 1) >>> 1;
        if (this.starts[mid]! <= at) low = mid;
        else high = mid - 1;
      }
      found.add(this.rows[low]!);
      // Once is enough: go on from the next row.
      at = low + 1 < this.starts.length ? this.text.indexOf(needle, this.starts[low + 1]) : -1;
    }
    return found;
  }
}

/**
 * One page of rows already sorted ascending by the query's field (walked backwards for a descending sort), and
 * how many rows match in all.
 */
export function pageOf<R>(
  sorted: readonly R[],
  direction: 1 | -1,
  matches: (row: R) => boolean,
  page: number,
  limit: number,
): { total: number; rows: R[] } {
  const skip = (page - 1) * limit;
  const rows: R[] = [];
  let total = 0;
  const n = sorted.length;
  for (let i = 0; i < n; i++) {
    const row = sorted[direction === 1 ? i : n - 1 - i]!;
    if (!matches(row)) continue;
    if (total >= skip && rows.length < limit) rows.push(row);
    total++;
  }
  return { total, rows };
}
