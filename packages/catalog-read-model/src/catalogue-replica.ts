import type { CatalogChange } from './catalog-change';
import type { CatalogueEntry } from './catalogue-entry';
import { CatalogueIndex } from './catalogue-index';

/** Where a replica of the read model gets the catalogue and its changes from. */
export interface CatalogueSource {
  /** The changes of versions `from + 1 … to`, in order; undefined when the log cannot tell them all. */
  changesSince(from: number, to: number): Promise<CatalogChange[] | undefined>;
  /** Every published product, as of `version` or a later one, which it says. */
  loadAll(version: number): Promise<{ entries: CatalogueEntry[]; version: number }>;
  /** The published products among these, as they are now (the others were deleted or unpublished). */
  loadProducts(ids: string[]): Promise<CatalogueEntry[]>;
}

/**
 * A copy of the published catalogue kept at a catalog version, in each catalog replica's memory (loaded from
 * MongoDB), following the change log every replica writes to. Catching up to a version replays the
 * changes since the copy's: stock writes straight from the log (they carry their new levels), then the products
 * admins edited, as the source has them now; a change that may touch anything (`all`), a gap in the log, or a
 * version lower than the copy's (Redis was reset) loads everything again. Catch-ups run one after another; readers
 * asking for the version a queued one is catching up to share it.
 */
export class CatalogueReplica {
  private current?: CatalogueIndex;
  private at = 0;
  private queue: Promise<unknown> = Promise.resolve();
  /** The last catch-up queued, while it runs: readers wanting the same version share it, its answer or its failure. */
  private pending?: { version: number; caughtUp: Promise<CatalogueIndex> };

  /** `onSearchBuilt`: told when a loaded catalogue's full-text search is ready (built in the background when large). */
  constructor(
    private readonly source: CatalogueSource,
    private readonly onSearchBuilt?: (index: CatalogueIndex) => void,
  ) {}

  /** The index, once loaded; as of `version`. */
  get index(): CatalogueIndex | undefined {
    return this.current;
  }

  get version(): number {
    return this.at;
  }

  /** The index as of `version` (or a later one, when a full load found one), after the catch-ups before it. */
  catchUp(version: number): Promise<CatalogueIndex> {
    // Queued behind an attempt at the same version, a reader would wait for it and then try again: with the source
    // away, twice the time to the same failure.
    if (this.pending?.version === version) return this.pending.caughtUp;
    const caughtUp = this.queue.then(() => this.run(version));
    const pending = { version, caughtUp };
    this.pending = pending;
    this.queue = caughtUp
      .catch(() => undefined)
      .finally(() => {
        if (this.pending === pending) this.pending = undefined;
      });
    return caughtUp;
  }

  private async run(version: number): Promise<CatalogueIndex> {
    // Catch-ups queued behind another find the work done.
    if (this.current && version === this.at) return this.current;
    const changes = this.current && version > this.at ? await this.source.changesSince(this.at, version) : undefined;
    if (changes && !changes.some((c) => 'all' in c)) {
      await this.replay(this.current!, changes);
      this.at = version;
    } else {
      const loaded = await this.source.loadAll(version);
      this.current?.dispose();
      const index = (this.current = new CatalogueIndex(loaded.entries));
      void index.search.built.then(() => index.search.ready && this.onSearchBuilt?.(index));
      this.at = loaded.version;
    }
    return this.current!;
  }

  private async replay(index: CatalogueIndex, changes: CatalogChange[]): Promise<void> {
    const edited = new Set<string>();
    for (const change of changes) {
      if ('edited' in change) change.edited.forEach((id) => edited.add(id));
      else if ('stock' in change) index.setStock(change.stock.productId, change.stock.write);
    }
    if (!edited.size) return;
    const published = new Map((await this.source.loadProducts([...edited])).map((entry) => [entry._id, entry]));
    for (const id of edited) {
      const entry = published.get(id);
      if (entry) index.put(entry);
      else index.remove(id); // deleted or unpublished
    }
  }
}
