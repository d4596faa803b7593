import type { Entry } from './entry';

/**
 * The kept responses: least recently used evicted first beyond maxEntries or maxBytes, an entry dropped once it
 * expires. A purge only notes the purge count at which each surrogate key it names changed; an entry is checked
 * against those notes when it is next read (a few map lookups, and only if a purge came since its last read), so a
 * purge costs the same whatever the number of entries.
 */
export function createStore({ maxEntries, maxBytes }: { maxEntries: number; maxBytes: number }) {
  /** In insertion order, and reads re-insert: the first key is the least recently used. */
  const entries = new Map<string, Entry>();
  let bytes = 0;
  let purges = 0;
  /** Bumped when everything is dropped: a fill that started before must not keep its answer. */
  let generation = 0;
  /** The purge count at which a purge last named each key (forgotten at a drop: no entry is older). */
  const changedAt = new Map<string, number>();
  const sizeOf = (entry: Entry) => entry.raw.length + (entry.gzip?.length ?? 0);

  const remove = (key: string): void => {
    const entry = entries.get(key);
    if (entry) bytes -= sizeOf(entry);
    entries.delete(key);
  };
  const add = (key: string, entry: Entry): void => {
    entries.set(key, entry);
    bytes += sizeOf(entry);
    for (const oldest of entries.keys()) {
      if (entries.size <= maxEntries && bytes <= maxBytes) break;
      remove(oldest);
    }
  };

  return {
    /** What a fill must be kept as of (`set`): the store as it was when the fill started. */
    ticket: () => ({ generation, purges }),
    /**
     * The entry for a key, now the most recently used; undefined when there is none, when it expired, or when a purge
     * since it was last read named one of its keys (or it has none).
     */
    get(key: string): Entry | undefined {
      const entry = entries.get(key);
      if (!entry) return undefined;
      remove(key);
      if (entry.expiresAt <= Date.now()) return undefined;
      if (entry.asOf < purges && !entry.keys?.every((name) => (changedAt.get(name) ?? -1) <= entry.asOf))
        return undefined;
      entry.asOf = purges;
      add(key, entry);
      return entry;
    },
    /** Keeps an entry (replacing one with the same key), unless everything was dropped since its ticket. */
    set(key: string, entry: Entry, ticket: { generation: number; purges: number }): void {
      remove(key);
      if (ticket.generation !== generation || sizeOf(entry) > maxBytes) return;
      entry.asOf = ticket.purges; // a purge since then is applied at its first read
      add(key, entry);
    },
    /** Replaces a kept entry by a variant of it (with its gzip variant), counting its bytes; not if it is gone. */
    replace(key: string, entry: Entry, variant: Entry): void {
      if (entries.get(key) !== entry) return;
      remove(key);
      add(key, variant);
    },
    dropAll(): void {
      generation += 1;
      entries.clear();
      changedAt.clear();
      bytes = 0;
    },
    /** The entries tagged with any of these surrogate keys, and those tagged with none, are gone. */
    purge(keys: readonly string[]): void {
      purges += 1;
      for (const key of keys) changedAt.set(key, purges);
    },
    stats: () => ({ entries: entries.size, bytes }),
  };
}
