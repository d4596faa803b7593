import type { Entry } from './entry';
import { markStale } from './patch';

/** Purges remembered for fills in flight; a fill older than all of them is not stored. */
const REMEMBERED_PURGES = 1024;

/** Taken when a fill starts; the store keeps its answer only if nothing it may show changed meanwhile. */
export interface FillTicket {
  readonly generation: number;
  readonly purges: number;
}

export interface Store {
  /** The entry for a key, now the most recently used. */
  get(key: string): Entry | undefined;
  ticket(): FillTicket;
  /** Keeps a filled entry, unless a drop or a purge since its ticket may have changed it. */
  admit(entry: Entry, ticket: FillTicket): void;
  /** An entry grew (its gzip variant was made): count the bytes, and evict if over budget. */
  grew(entry: Entry, extraBytes: number): void;
  /** Drops every entry. */
  dropAll(): void;
  /**
   * Drops the entries tagged with any of these keys, and those tagged with none (they may show anything); a list
   * that still shows the same products is kept, its changed products marked stale (patch.ts).
   */
  purge(keys: readonly string[]): void;
  /** Puts a list made current in place of the entry it was made from, unless that entry is gone meanwhile. */
  replace(old: Entry, next: Entry): void;
  readonly size: number;
  readonly bytes: number;
}

/**
 * The kept responses: least recently used evicted first beyond maxEntries or maxBytes. A purge looks through them
 * all for the keys it names. A stock write drops a good share of the lists (a list of the 65 products shows many),
 * so an index from surrogate key to entries saves little at a purge and costs at every fill: measured at 20,000
 * entries, a set per key kept exact cost ~9× this scan, lazily kept lists ~1.5×.
 */
export function createStore(limits: { maxEntries: number; maxBytes: number }): Store {
  const entries = new Map<string, Entry>();
  let bytes = 0;
  let generation = 0;
  let purgeCount = 0;
  /** The last purges, oldest first: purgeCount of the last one, and its keys. */
  const purges: Array<{ count: number; keys: ReadonlySet<string> }> = [];

  const remove = (key: string): void => {
    const entry = entries.get(key);
    if (!entry) return;
    entries.delete(key);
    bytes -= entry.bytes;
  };

  /** Whether a change of these keys may have changed the entry (one the catalog tagged with none may show anything). */
  const touches = (keys: ReadonlySet<string>, entry: Entry): boolean =>
    !entry.keys || entry.keys.some((k) => keys.has(k));

  const overBudget = (): boolean => entries.size > limits.maxEntries || bytes > limits.maxBytes;

  const evict = (): void => {
    if (!overBudget()) return; // no iterator: after a purge it would first step over every deleted slot
    // Map iteration order is insertion order, and reads re-insert: the first key is the least recently used.
    for (const oldest of entries.keys()) {
      remove(oldest);
      if (!overBudget()) break;
    }
  };

  const changedSince = (ticket: FillTicket, entry: Entry): boolean => {
    if (ticket.generation !== generation) return true;
    if (ticket.purges === purgeCount) return false;
    if (!purges.length || purges[0].count > ticket.purges + 1) return true; // forgotten purges: assume the worst
    for (let i = purges.length - 1; i >= 0 && purges[i].count > ticket.purges; i--)
      if (touches(purges[i].keys, entry)) return true;
    return false;
  };

  return {
    get(key) {
      const entry = entries.get(key);
      if (entry) {
        entries.delete(key);
        entries.set(key, entry);
      }
      return entry;
    },
    ticket: () => ({ generation, purges: purgeCount }),
    admit(entry, ticket) {
      if (entry.bytes > limits.maxBytes || changedSince(ticket, entry)) return;
      remove(entry.key);
      entries.set(entry.key, entry);
      bytes += entry.bytes;
      evict();
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
      bytes = 0;
    },
    purge(keys) {
      const purged = new Set(keys);
      purgeCount += 1;
      purges.push({ count: purgeCount, keys: purged });
      if (purges.length > REMEMBERED_PURGES) purges.shift();
      for (const [key, entry] of entries) if (touches(purged, entry) && !markStale(entry, purged)) remove(key);
    },
    replace(old, next) {
      if (entries.get(old.key) !== old) return;
      entries.set(old.key, next);
      bytes += next.bytes - old.bytes;
      evict();
    },
    get size() {
      return entries.size;
    },
    get bytes() {
      return bytes;
    },
  };
}
