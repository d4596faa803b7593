import type { ProductJson } from '@shop/contracts';
import { createHash } from 'node:crypto';
import type { StockWrite } from './catalog-change';
import { searchTextOf, type SearchText } from './text-search';

/** The fields GET /api/products filters on by equality or `$in`, named as stored. */
export const FILTER_FIELDS = ['collections', 'category', 'gender', 'sizes', 'colors', 'material', 'brand'] as const;
export type FilterField = (typeof FILTER_FIELDS)[number];

/**
 * A stored field as MongoDB equality sees it: a string, or a list any element of which may match. Anything else
 * (a number, a missing field) never equals a query's text, so it is kept as no values at all.
 */
export type FieldValues = readonly string[];

/**
 * One published product as the read model holds it: its JSON (the exact bytes of `toProductJson`), serialised
 * once, and the fields filters and sorts read, named as in MongoDB so that one sort specification serves both.
 * Sort fields that are missing or not numbers sort first ascending, as MongoDB puts null before numbers.
 */
export interface CatalogueEntry {
  readonly _id: string;
  /** Its place in the index (CatalogueIndex gives it). */
  slot: number;
  body: Buffer;
  etag: string;
  soldCount: number;
  /** The product's stockVersion its bytes show (see StockWrite). */
  stockVersion: number;
  readonly pricePence: number | undefined;
  readonly createdAt: number;
  readonly rating: number;
  readonly numReviews: number;
  readonly values: Readonly<Record<FilterField, FieldValues>>;
  readonly text: SearchText;
}

/**
 * A product's JSON as bytes of their own. Not Buffer.from, whose shared pool reserves three bytes per character
 * and so keeps, per long-lived product, about two thirds more memory than its bytes (measured).
 */
function bytesOf(json: string): Buffer {
  const bytes = Buffer.allocUnsafeSlow(Buffer.byteLength(json, 'utf8'));
  bytes.write(json, 'utf8');
  return bytes;
}

export function etagOf(body: Buffer): string {
  return `"${createHash('sha1').update(body).digest('base64url')}"`;
}

function sortable(value: unknown): number {
  if (value instanceof Date) return value.getTime();
  return typeof value === 'number' ? value : -Infinity;
}

/**
 * Field values, shared between entries: a catalogue has a handful of brands, sizes and colour sets, and a
 * hundred thousand copies of ["Top Wear"] would cost memory for nothing.
 */
const shared = new Map<string, FieldValues>();
const SHARED_MAX = 100_000;

function valuesOf(stored: unknown): FieldValues {
  const values =
    typeof stored === 'string'
      ? [stored]
      : Array.isArray(stored)
        ? stored.filter((v): v is string => typeof v === 'string')
        : [];
  const key = JSON.stringify(values);
  const known = shared.get(key);
  if (known) return known;
  if (shared.size < SHARED_MAX) shared.set(key, values);
  return values;
}

/**
 * A product as stored, as far as the read model reads it (a lean MongoDB document fits): the fields filters,
 * sorts and searches read. Anything of another type than the database would compare is kept as such (see above).
 */
export type StoredProduct = { readonly _id: unknown } & Partial<
  Record<
    | FilterField
    | 'pricePence'
    | 'soldCount'
    | 'stockVersion'
    | 'createdAt'
    | 'rating'
    | 'numReviews'
    | 'name'
    | 'description',
    unknown
  >
>;

/** The parts of an entry (toEntry makes them from a stored product). */
export interface EntryParts {
  readonly _id: string;
  readonly json: string;
  readonly soldCount: number;
  readonly stockVersion?: number;
  readonly pricePence: number | undefined;
  readonly createdAt: number;
  readonly rating: number;
  readonly numReviews: number;
  /** As stored: a string or a list of them (anything else counts as no value). */
  readonly values: Readonly<Record<FilterField, unknown>>;
  readonly text: SearchText;
}

export function entryOf(parts: EntryParts): CatalogueEntry {
  const body = bytesOf(parts.json);
  const values = {} as Record<FilterField, FieldValues>;
  for (const field of FILTER_FIELDS) values[field] = valuesOf(parts.values[field]);
  return {
    _id: parts._id,
    slot: -1,
    body,
    etag: etagOf(body),
    soldCount: parts.soldCount,
    stockVersion: parts.stockVersion ?? 0,
    pricePence: parts.pricePence,
    createdAt: parts.createdAt,
    rating: parts.rating,
    numReviews: parts.numReviews,
    values,
    text: parts.text,
  };
}

/**
 * The entry of a stored product whose JSON (as clients get it: `toProductJson` in the catalog) is `product`.
 * Its bytes are JSON.stringify's of that object.
 */
export function toEntry(doc: StoredProduct, product: ProductJson): CatalogueEntry {
  const values = {} as Record<FilterField, unknown>;
  for (const field of FILTER_FIELDS) values[field] = doc[field];
  return entryOf({
    _id: String(doc._id),
    json: JSON.stringify(product),
    soldCount: sortable(doc.soldCount),
    stockVersion: typeof doc.stockVersion === 'number' ? doc.stockVersion : 0,
    pricePence: typeof doc.pricePence === 'number' ? doc.pricePence : undefined,
    createdAt: sortable(doc.createdAt),
    rating: sortable(doc.rating),
    numReviews: sortable(doc.numReviews),
    values,
    text: searchTextOf(doc.name, doc.description),
  });
}

/**
 * Applies a stock write to the product's bytes. Parsing and printing JSON.stringify's own output gives it back
 * byte for byte (same key order, same number and string forms), so only the changed values differ: the stock (in
 * all and per variant) and updatedAt.
 */
export function applyStock(entry: CatalogueEntry, write: StockWrite): void {
  if (write.stockVersion !== undefined) entry.stockVersion = write.stockVersion;
  const json = JSON.parse(entry.body.toString('utf8')) as ProductJson;
  json.countInStock = write.countInStock;
  if (write.variants) json.variants = write.variants;
  json.updatedAt = write.updatedAt;
  entry.body = bytesOf(JSON.stringify(json));
  entry.etag = etagOf(entry.body);
  entry.soldCount = write.soldCount;
}
