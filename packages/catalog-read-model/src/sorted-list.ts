/**
 * Items kept in one total order (the comparator must never call two different items equal), so that an item's
 * place is found by binary search both to insert it and to remove it. Remove an item *before* changing the fields
 * the order reads, and insert it again after.
 */
export class SortedList<T> {
  private list: T[] = [];
  /** Moves with every change of the items or their order. */
  private changes = 0;

  constructor(readonly compare: (a: T, b: T) => number) {}

  get items(): readonly T[] {
    return this.list;
  }

  get version(): number {
    return this.changes;
  }

  /** Replaces the contents with these items, sorted once. */
  reset(items: T[]): void {
    this.list = items.sort(this.compare);
    this.changes++;
  }

  insert(item: T): void {
    this.list.splice(
      this.firstIndex((other) => this.compare(other, item) >= 0),
      0,
      item,
    );
    this.changes++;
  }

  remove(item: T): void {
    const at = this.firstIndex((other) => this.compare(other, item) >= 0);
    if (this.list[at] !== item) return;
    this.list.splice(at, 1);
    this.changes++;
  }

  /** The first index whose item satisfies `reached`, which must be false up to some index and true from there on. */
  firstIndex(reached: (item: T) => boolean): number {
    let low = 0;
    let high = this.list.length;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if (reached(this.list[mid])) high = mid;
      else low = mid + 1;
    }
    return low;
  }
}
