import type { StockWrite } from './catalog-change';
import { clearBit, withBit, type Bitset } from './bitset';
import { applyStock, FILTER_FIELDS, type CatalogueEntry, type FilterField } from './catalogue-entry';
import { ProductSearch } from './product-search';
import type { SearchText } from './text-search';
import { SortedList } from './sorted-list';
import { MarkedSlots, type SlotSet } from './slot-set';
import { SubstringIndex } from './substring-index';
import { comparatorOf, ORDER_NAMES, ORDERS, ordersReading, type OrderName } from './sort-orders';

/**
 * Products whose texts changed since the substring index was made that searches test one by one; beyond so many it
 * is made again (at the next search: about 0.4 s at 100,000 products).
 */
const SUBSTRING_CHANGES_MAX = 1_000;

/** The orders a sale (a change of soldCount) re-places a product in. */
const SALES_ORDERS = ordersReading('soldCount');

/**
 * The published catalogue in memory. Each product has a slot (a small number, reused after a removal); per field
 * and value, the bits of the slots holding that value (what equality and `$in` filters are answered from); each
 * sort order as a list of slots (what lists walk: compact numbers, read in sequence, rather than objects all over
 * the heap); the texts a substring search looks through; and the full-text search (product-search.ts), kept
 * current product by product as the catalogue changes.
 */
export class CatalogueIndex {
  private readonly byId = new Map<string, CatalogueEntry>();
  private readonly bySlot: Array<CatalogueEntry | undefined> = [];
  private readonly freeSlots: number[] = [];
  private readonly postings = new Map<FilterField, Map<string, Bitset>>(
    FILTER_FIELDS.map((field) => [field, new Map()]),
  );
  readonly orders: Record<OrderName, SortedList<number>>;
  /**
   * Made with the index rather than at its first search (which would wait ~0.5 s at 100,000 products, and every
   * request with it), and again at the next search after many changes of the texts (stock writes leave them alone).
   */
  private substringIndex?: SubstringIndex;
  /** The slots whose texts changed since the substring index was made (added, edited, removed). */
  private readonly textsChanged = new Set<number>();
  /** What substringMatches found while there are such slots. */
  private readonly changedFound = new MarkedSlots();
  /** Per order, each slot's place in it as of the order's version: made when a search first needs it. */
  private readonly places = new Map<OrderName, { version: number; of: Int32Array }>();
  /** Built with the index (in the background when large), then changed with each product put or removed. */
  readonly search: ProductSearch;

  constructor(entries: CatalogueEntry[] = []) {
    this.orders = Object.fromEntries(
      ORDER_NAMES.map((name) => {
        const compare = comparatorOf(ORDERS[name]);
        return [name, new SortedList<number>((a, b) => compare(this.bySlot[a]!, this.bySlot[b]!))];
      }),
    ) as Record<OrderName, SortedList<number>>;
    for (const entry of entries) this.place(entry);
    for (const name of ORDER_NAMES) this.orders[name].reset(entries.map((e) => e.slot));
    this.substringIndex = new SubstringIndex(entries);
    this.search = new ProductSearch(entries);
  }

  /** This index is replaced: stops building its search if that is still running. */
  dispose(): void {
    this.search.dispose();
  }

  get size(): number {
    return this.byId.size;
  }

  /** One more than the highest slot in use: the length bit sets need. */
  get slots(): number {
    return this.bySlot.length;
  }

  get(id: string): CatalogueEntry | undefined {
    return this.byId.get(id);
  }

  /** Every entry, in no particular order. */
  entries(): IterableIterator<CatalogueEntry> {
    return this.byId.values();
  }

  at(slot: number): CatalogueEntry {
    return this.bySlot[slot]!;
  }

  /** The slots holding this value of the field. */
  withValue(field: FilterField, value: string): Bitset | undefined {
    return this.postings.get(field)!.get(value);
  }

  /**
   * The products whose name or description contains `needle` (lower-case ASCII), as `matches` (the search's filter)
   * says: from the substring index, but for those whose texts changed since it was made, which are tested one by
   * one. Valid until the next call.
   */
  substringMatches(needle: string, matches: (entry: CatalogueEntry) => boolean): SlotSet {
    if (!this.substringIndex) {
      this.substringIndex = new SubstringIndex(this.byId.values());
      this.textsChanged.clear();
    }
    const index = this.substringIndex;
    const changed = this.textsChanged;
    const slots = index.containing(needle);
    if (!changed.size) return { slots, count: slots.length, has: (slot) => index.has(slot) };
    const found = this.changedFound.start(this.bySlot.length);
    // a product changed since is tested below (at its slot now: another product, or none)
    for (const slot of slots) if (!changed.has(slot)) found.add(slot);
    for (const slot of changed) {
      const entry = this.bySlot[slot];
      if (entry && matches(entry)) found.add(slot);
    }
    return found;
  }

  /** The products at these slots have other texts now (or none): searches test them until the index is made again. */
  private textsChangedAt(...slots: number[]): void {
    if (!this.substringIndex) return;
    for (const slot of slots) this.textsChanged.add(slot);
    if (this.textsChanged.size > SUBSTRING_CHANGES_MAX) this.substringIndex = undefined;
  }

  /**
   * Each slot's place in the order (slots not in use: any number), for ordering what a search found by comparing
   * numbers rather than products: remade after the order changed, in about a millisecond at 100,000 products.
   */
  placesIn(name: OrderName): Int32Array {
    const order = this.orders[name];
    let places = this.places.get(name);
    if (!places || places.version !== order.version || places.of.length < this.bySlot.length) {
      const of = places && places.of.length >= this.bySlot.length ? places.of : new Int32Array(this.bySlot.length);
      order.items.forEach((slot, place) => (of[slot] = place));
      places = { version: order.version, of };
      this.places.set(name, places);
    }
    return places.of;
  }

  /** Adds a product, or replaces the entry of the same id (at the same slot: the one it frees is taken first). */
  put(entry: CatalogueEntry): void {
    const before = this.byId.get(entry._id);
    this.unplace(entry._id);
    this.place(entry);
    // the texts a substring search reads (by slot) are the same unless they or the slot changed: an edit of the
    // price or a review keeps them
    if (!before) this.textsChangedAt(entry.slot);
    else if (before.slot !== entry.slot || !sameTexts(before.text, entry.text))
      this.textsChangedAt(before.slot, entry.slot);
    for (const name of ORDER_NAMES) this.orders[name].insert(entry.slot);
    // after the slot is known; the search keeps what it holds when the texts and the slot are the same
    this.search.put(entry);
  }

  remove(id: string): void {
    const entry = this.byId.get(id);
    if (entry) this.textsChangedAt(entry.slot);
    this.unplace(id);
    this.search.remove(id);
  }

  /** Takes a product out of all but the search, freeing its slot. */
  private unplace(id: string): void {
    const entry = this.byId.get(id);
    if (!entry) return;
    for (const name of ORDER_NAMES) this.orders[name].remove(entry.slot);
    for (const field of FILTER_FIELDS) {
      const byValue = this.postings.get(field)!;
      for (const value of entry.values[field]) {
        const bits = byValue.get(value);
        if (bits) clearBit(bits, entry.slot);
      }
    }
    this.byId.delete(id);
    this.bySlot[entry.slot] = undefined;
    this.freeSlots.push(entry.slot);
  }

  /** A stock write: the product's bytes change, and a sale re-places it in the orders that read units sold. */
  setStock(id: string, write: StockWrite): void {
    const entry = this.byId.get(id);
    if (!entry) return; // not published: nothing here shows it
    if (write.stockVersion !== undefined && write.stockVersion <= entry.stockVersion) return; // a later write shows already
    const resort = write.soldCount !== entry.soldCount;
    if (resort) for (const name of SALES_ORDERS) this.orders[name].remove(entry.slot);
    applyStock(entry, write);
    if (resort) for (const name of SALES_ORDERS) this.orders[name].insert(entry.slot);
  }

  /** Gives the entry a slot, and its values their bits (not its place in the orders). */
  private place(entry: CatalogueEntry): void {
    entry.slot = this.freeSlots.pop() ?? this.bySlot.length;
    this.bySlot[entry.slot] = entry;
    this.byId.set(entry._id, entry);
    for (const field of FILTER_FIELDS) {
      const byValue = this.postings.get(field)!;
      for (const value of entry.values[field])
        byValue.set(value, withBit(byValue.get(value) ?? new Uint32Array(1), entry.slot));
    }
  }
}

/** The same texts as held: equal held texts are held alike (lower-cased only when both are ASCII, as text-search.ts). */
function sameTexts(a: SearchText, b: SearchText): boolean {
  return a.name === b.name && a.description === b.description;
}
