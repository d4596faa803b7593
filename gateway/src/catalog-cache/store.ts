import { PRODUCT_KEY_PREFIX, type Entry } from './entry';

/** Taken when a fill starts: what the store knew then, so that its answer is checked against every change since. */
export interface FillTicket {
  readonly generation: number;
  readonly purges: number;
}

export interface Store {
  /**
   * The entry for a key, now the most recently used; undefined when there is none, or when a purge since it was
   * last looked at may have changed it. A list only some of whose products' bytes changed is returned with them
   * marked stale (`entry.stale`: to be patched before it is served, patch.ts).
   */
  get(key: string): Entry | undefined;
  ticket(): FillTicket;
  /** Keeps a filled entry, as of its ticket (a purge since then is applied at its first read); not after a drop. */
  admit(entry: Entry, ticket: FillTicket): void;
  /** An entry grew (its gzip variant was made): count the bytes, and evict if over budget. */
  grew(entry: Entry, extraBytes: number): void;
  /** Drops every entry. */
  dropAll(): void;
  /**
   * The entries tagged with any of these keys, and those tagged with none (they may show anything), may have
   * changed. A list named by product keys only (a stock write without a sale: those products' bytes changed, not
   * the list's members or order) is kept if it says where those products are; anything else is dropped.
   */
  purge(keys: readonly string[]): void;
  /** Puts a list made current in place of the entry it was made from, unless that entry is gone meanwhile. */
  replace(old: Entry, next: Entry): void;
  readonly size: number;
  readonly bytes: number;
}

/**
 * The kept responses: least recently used evicted first beyond maxEntries or maxBytes. A purge only notes when
 * each key it names changed; an entry is checked against those notes when it is next read (a few map lookups, and
 * only if a purge came since its last read). Purges used to look through every entry: at 20,000 entries and
 * ~10 stock writes a second that cost far more than the reads, once stock writes kept most lists (measured on the
 * 2-vCPU box, lists of ~20 products: a scan 30–65 ms; a set of entries per key, kept at every fill and eviction,
 * ~50 µs a fill; this check costs neither).
 */
export function createStore(limits: { maxEntries: number; maxBytes: number }): Store {
  const entries = new Map<string, Entry>();
  let bytes = 0;
  let generation = 0;
  let purgeCount = 0;
  /** The purge count at which a purge last named each key (forgotten at a drop: no entry is older). */
  const changedAt = new Map<string, number>();

  const remove = (key: string): void => {
    const entry = entries.get(key);
    if (!entry) return;
    entries.delete(key);
    bytes -= entry.bytes;
  };

  /**
   * Applies the purges since the entry was last checked: false if it must go (an untagged entry after any purge,
   * a key other than a product's, or a product whose place in it is not known), else true, with the products whose
   * bytes changed added to `entry.stale`.
   */
  const stillValid = (entry: Entry): boolean => {
    if (!entry.keys) return false;
    const changed = entry.keys.filter((key) => (changedAt.get(key) ?? -1) > entry.asOf);
    entry.asOf = purgeCount;
    if (!changed.length) return true;
    if (!entry.parts || !changed.every((key) => key.startsWith(PRODUCT_KEY_PREFIX))) return false;
    entry.stale ??= new Set();
    for (const key of changed) entry.stale.add(key.slice(PRODUCT_KEY_PREFIX.length));
    return true;
  };

  const overBudget = (): boolean => entries.size > limits.maxEntries || bytes > limits.maxBytes;

  const evict = (): void => {
    if (!overBudget()) return; // no iterator: after deletions it would first step over every deleted slot
    // Map iteration order is insertion order, and reads re-insert: the first key is the least recently used.
    for (const oldest of entries.keys()) {
      remove(oldest);
      if (!overBudget()) break;
    }
  };

  const add = (entry: Entry): void => {
    remove(entry.key);
    entries.set(entry.key, entry);
    bytes += entry.bytes;
    evict();
  };

  return {
    get(key) {
      const entry = entries.get(key);
      if (!entry) return undefined;
      if (entry.asOf < purgeCount && !stillValid(entry)) {
        remove(key);
        return undefined;
      }
      entries.delete(key);
      entries.set(key, entry);
      return entry;
    },
    ticket: () => ({ generation, purges: purgeCount }),
    admit(entry, ticket) {
      if (entry.bytes > limits.maxBytes || ticket.generation !== generation) return;
      entry.asOf = ticket.purges;
      add(entry);
    },
    grew(entry, extraBytes) {
      entry.bytes += extraBytes;
      if (entries.get(entry.key) !== entry) return; // dropped meanwhile
      bytes += extraBytes;
      evict();
    },
    dropAll() {
      generation += 1;
      entries.clear();
      changedAt.clear();
      bytes = 0;
    },
    purge(keys) {
      purgeCount += 1;
      for (const key of keys) changedAt.set(key, purgeCount);
    },
    replace(old, next) {
      if (entries.get(old.key) === old) add(next);
    },
    get size() {
      return entries.size;
    },
    get bytes() {
      return bytes;
    },
  };
}
