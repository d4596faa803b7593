import type { CatalogueEntry } from './catalogue-entry';
import { BLOB_SEPARATOR } from './text-search';

/**
 * Every product's name and description, lower-cased, in one string (ASCII products; the few others are kept
 * apart), so that looking for a word is one indexOf over the catalogue rather than two `includes` per product:
 * measured on 100,000 products, 1–10 ms against about 50 ms.
 */
export class SearchBlob {
  private readonly text: string;
  /** Where each product's texts start in `text`, in the order of `products`. */
  private readonly starts: number[] = [];
  private readonly products: CatalogueEntry[] = [];
  private readonly others: CatalogueEntry[] = [];

  constructor(entries: Iterable<CatalogueEntry>) {
    const parts: string[] = [];
    let length = 0;
    for (const entry of entries) {
      if (!entry.text.ascii) {
        this.others.push(entry);
        continue;
      }
      const part = `${entry.text.name ?? ''}${BLOB_SEPARATOR}${entry.text.description ?? ''}${BLOB_SEPARATOR}`;
      this.starts.push(length);
      this.products.push(entry);
      parts.push(part);
      length += part.length;
    }
    this.text = parts.join('');
  }

  /**
   * The products whose name or description contains `needle` (lower-case ASCII, no separator), plus those
   * this blob does not hold: the caller's filter decides about them.
   */
  candidates(needle: string): CatalogueEntry[] {
    const found = [...this.others];
    let at = this.text.indexOf(needle);
    while (at !== -1) {
      let low = 0;
      let high = this.starts.length - 1;
      while (low < high) {
        const mid = (low + high + 1) >>> 1;
        if (this.starts[mid] <= at) low = mid;
        else high = mid - 1;
      }
      found.push(this.products[low]);
      // Once is enough: go on from the next product.
      at = low + 1 < this.starts.length ? this.text.indexOf(needle, this.starts[low + 1]) : -1;
    }
    return found;
  }
}
