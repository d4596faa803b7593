import { FILTER_FIELDS, entryOf, type CatalogueEntry, type FilterField } from './catalogue-entry';
import type { SearchText } from './text-search';

/**
 * The published catalogue as the catalog sends it to a copy (the gateway's): `{"version":V,"products":[…]}`, each
 * product its JSON bytes as the catalog serves them and the fields its indexes read, so that the copy's entries
 * are the catalog's, byte for byte. Sort fields the database would treat as missing (-Infinity here) travel as null.
 */
interface ProductRecord {
  product: unknown;
  soldCount: number | null;
  pricePence?: number;
  createdAt: number | null;
  rating: number | null;
  numReviews: number | null;
  values: Record<FilterField, readonly string[]>;
  text: SearchText;
}

/** The snapshot of these entries at this version, its products' bytes copied in as they are. */
export function snapshotOf(version: number, entries: Iterable<CatalogueEntry>): Buffer {
  const parts: Buffer[] = [Buffer.from(`{"version":${version},"products":[`)];
  let first = true;
  for (const entry of entries) {
    const { soldCount, pricePence, createdAt, rating, numReviews, values, text } = entry;
    const rest = JSON.stringify({ soldCount, pricePence, createdAt, rating, numReviews, values, text });
    parts.push(Buffer.from(`${first ? '' : ','}{"product":`), entry.body, Buffer.from(`,${rest.slice(1)}`));
    first = false;
  }
  parts.push(Buffer.from(']}'));
  return Buffer.concat(parts);
}

const sortable = (value: number | null): number => value ?? -Infinity;

/**
 * The entries of a snapshot, and its version. JSON.stringify of a parsed product gives back the bytes it was
 * parsed from (same key order, same number and string forms), as the catalog's stock writes rely on too.
 */
export function readSnapshot(body: Buffer | string): { version: number; entries: CatalogueEntry[] } {
  const snapshot = JSON.parse(body.toString()) as { version: number; products: ProductRecord[] };
  if (!Number.isSafeInteger(snapshot.version) || !Array.isArray(snapshot.products))
    throw new Error('not a catalogue snapshot');
  const entries = snapshot.products.map((record) => {
    const values = {} as Record<FilterField, readonly string[]>;
    for (const field of FILTER_FIELDS) values[field] = record.values[field] ?? [];
    return entryOf({
      _id: String((record.product as { _id: unknown })._id),
      json: JSON.stringify(record.product),
      soldCount: sortable(record.soldCount),
      pricePence: record.pricePence,
      createdAt: sortable(record.createdAt),
      rating: sortable(record.rating),
      numReviews: sortable(record.numReviews),
      values,
      text: record.text,
    });
  });
  return { version: snapshot.version, entries };
}
