import type { Entry } from './entry';

/** Taken when a fill starts: what the store knew then, so that its answer is checked against every change since. */
export interface FillTicket {
  readonly generation: number;
  readonly purges: number;
}
export type Store = ReturnType<typeof createStore>;

/**
 * The kept responses: least recently used evicted first beyond maxEntries or maxBytes. A purge only notes when each
 * key it names changed; an entry is checked against those notes when it is next read (a few map lookups, and only if
 * a purge came since its last read), so a purge costs the same whatever the number of entries.
 */
export function createStore(limits: { maxEntries: number; maxBytes: number }, now = Date.now) {
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

  /** Whether no purge since the entry was last checked concerns it. */
  const stillValid = (entry: Entry): boolean => {
    if (!entry.keys) return false;
    if (entry.keys.some((key) => (changedAt.get(key) ?? -1) > entry.asOf)) return false;
    entry.asOf = purgeCount;
    return true;
  };

  const overBudget = (): boolean => entries.size > limits.maxEntries || bytes > limits.maxBytes;

  const evict = (): void => {
    if (!overBudget()) return;
    // Map iteration order is insertion order, and reads re-insert: the first key is the least recently used.
    for (const oldest of entries.keys()) {
      remove(oldest);
      if (!overBudget()) break;
    }
  };

  return {
    /**
     * The entry for a key, now the most recently used; undefined when there is none, when it expired, or when a purge
     * since it was last looked at named one of its keys (or it has none).
     */
    get(key: string): Entry | undefined {
      const entry = entries.get(key);
      if (!entry) return undefined;
      if (entry.expiresAt <= now() || (entry.asOf < purgeCount && !stillValid(entry))) {
        remove(key);
        return undefined;
      }
      entries.delete(key);
      entries.set(key, entry);
      return entry;
    },
    ticket: (): FillTicket => ({ generation, purges: purgeCount }),
    /** Keeps a filled entry, as of its ticket (a purge since then is applied at its first read); not after a drop. */
    admit(entry: Entry, ticket: FillTicket): void {
      if (entry.bytes > limits.maxBytes || ticket.generation !== generation) return;
      entry.asOf = ticket.purges;
      remove(entry.key);
      entries.set(entry.key, entry);
      bytes += entry.bytes;
      evict();
    },
    /** An entry grew (its gzip variant was made): count the bytes, and evict if over budget. */
    grew(entry: Entry, extraBytes: number): void {
      entry.bytes += extraBytes;
      if (entries.get(entry.key) !== entry) return; // dropped meanwhile
      bytes += extraBytes;
      evict();
    },
    dropAll(): void {
      generation += 1;
      entries.clear();
      changedAt.clear();
      bytes = 0;
    },
    /** The entries tagged with any of these surrogate keys, and those tagged with none, are gone. */
    purge(keys: readonly string[]): void {
      purgeCount += 1;
      for (const key of keys) changedAt.set(key, purgeCount);
    },
    get size() {
      return entries.size;
    },
    get bytes() {
      return bytes;
    },
  };
}
