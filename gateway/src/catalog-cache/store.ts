import type { Entry } from './entry';

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
  /** Drops the entries tagged with any of these keys, and those tagged with none (they may show anything). */
  purge(keys: readonly string[]): void;
  readonly size: number;
  readonly bytes: number;
}

/**
 * The kept responses: least recently used evicted first beyond maxEntries or maxBytes, and found by the catalog's
 * surrogate keys, so that a stock write (up to ten a second) drops the few entries that show its product without
 * looking through the thousands it leaves.
 */
export function createStore(limits: { maxEntries: number; maxBytes: number }): Store {
  const entries = new Map<string, Entry>();
  /** Cache keys by surrogate key; the entries the catalog tagged with none may show anything. */
  const tagged = new Map<string, Set<string>>();
  const untagged = new Set<string>();
  let bytes = 0;
  let generation = 0;
  let purgeCount = 0;
  /** The last purges, oldest first: purgeCount of the last one, and its keys. */
  const purges: Array<{ count: number; keys: ReadonlySet<string> }> = [];

  const add = (entry: Entry): void => {
    entries.set(entry.key, entry);
    bytes += entry.bytes;
    if (!entry.keys) untagged.add(entry.key);
    else
      for (const surrogate of entry.keys) {
        const keys = tagged.get(surrogate);
        if (keys) keys.add(entry.key);
        else tagged.set(surrogate, new Set([entry.key]));
      }
  };

  const remove = (key: string): void => {
    const entry = entries.get(key);
    if (!entry) return;
    entries.delete(key);
    bytes -= entry.bytes;
    if (!entry.keys) untagged.delete(key);
    else
      for (const surrogate of entry.keys) {
        const keys = tagged.get(surrogate);
        keys?.delete(key);
        if (keys?.size === 0) tagged.delete(surrogate);
      }
  };

  /** Whether a change of these keys may have changed the entry (one the catalog tagged with none may show anything). */
  const touches = (keys: ReadonlySet<string>, entry: Entry): boolean =>
    !entry.keys || entry.keys.some((k) => keys.has(k));

  const evict = (): void => {
    // Map iteration order is insertion order, and reads re-insert: the first key is the least recently used.
    for (const oldest of entries.keys()) {
      if (entries.size <= limits.maxEntries && bytes <= limits.maxBytes) break;
      remove(oldest);
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
      add(entry);
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
      tagged.clear();
      untagged.clear();
      bytes = 0;
    },
    purge(keys) {
      const purged = new Set(keys);
      purgeCount += 1;
      purges.push({ count: purgeCount, keys: purged });
      if (purges.length > REMEMBERED_PURGES) purges.shift();
      const dropped = new Set(untagged);
      for (const surrogate of purged) tagged.get(surrogate)?.forEach((key) => dropped.add(key));
      dropped.forEach(remove);
    },
    get size() {
      return entries.size;
    },
    get bytes() {
      return bytes;
    },
  };
}
