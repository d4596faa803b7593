import { Injectable, Logger } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import type { Model } from 'mongoose';
import { CatalogCache } from '../cache/catalog-cache';
import type { CatalogChange } from '../cache/catalog-change';
import { assetUrlsOf } from '../config/asset-urls';
import { CatalogConfig } from '../config/catalog.config';
import { PRODUCT_PROJECTION } from '../products/product.mapper';
import { Product, type LeanProduct } from '../products/product.schema';
import { toEntry } from './catalogue-entry';
import { CatalogueIndex } from './catalogue-index';

/** How long reads skip the catalog version after reading it failed. */
const VERSION_RETRY_MS = 1000;

/**
 * The published catalogue in this replica's memory, as of the current catalog version: every public read is
 * answered from it without a database round trip. MongoDB stays the source of truth: the index is loaded from it
 * (at the first read; `main.ts` asks at start), and every later change is replayed from the change log
 * (see CatalogCache) before a read that could see it is answered — stock writes straight from the log, admin
 * edits by reloading the products they name, anything else by loading the whole catalogue again.
 *
 * It catches up only when a read asks, never in the background: what a read shows is the database as of that read,
 * as it was with a query per request.
 */
@Injectable()
export class CatalogueReadModel {
  private readonly logger = new Logger(CatalogueReadModel.name);
  private index?: CatalogueIndex;
  /** The catalog version the index reflects. */
  private version = 0;
  /** Catch-ups run one after another: each reads and changes the index. */
  private queue: Promise<unknown> = Promise.resolve();
  /** Until then the version is not asked for: it just failed (Redis away or hung), reads go to the database. */
  private versionUnreadableUntil = 0;

  private readonly toPublicUrl: (url: string) => string;

  constructor(
    @InjectModel(Product.name) private readonly products: Model<Product>,
    private readonly feed: CatalogCache,
    config: CatalogConfig,
  ) {
    this.toPublicUrl = assetUrlsOf(config).toPublic;
  }

  /**
   * The index as of a catalog version read after this call began; undefined while that version cannot be read
   * (Redis unreachable): the caller then asks the database, slower but never stale. Once a read of the version
   * failed, the next second's reads go straight to the database: a hung Redis would otherwise cost each of them
   * the command timeout (2 s, twice for one queued behind a read already on the wire).
   */
  async current(): Promise<CatalogueIndex | undefined> {
    if (Date.now() < this.versionUnreadableUntil) return undefined;
    let version: number;
    try {
      version = Number(await this.feed.readVersion());
    } catch {
      this.versionUnreadableUntil = Date.now() + VERSION_RETRY_MS;
      return undefined;
    }
    if (this.index && version === this.version) return this.index;
    const caughtUp = this.queue.then(() => this.catchUp(version));
    this.queue = caughtUp.catch(() => undefined);
    return caughtUp;
  }

  private async catchUp(version: number): Promise<CatalogueIndex> {
    // Reads queued behind one catch-up find the work done; a lower version than ours means Redis was reset.
    if (this.index && version === this.version) return this.index;
    const changes =
      this.index && version > this.version ? await this.feed.changesSince(this.version, version) : undefined;
    if (changes && !changes.some((c) => 'all' in c)) await this.replay(this.index!, changes);
    else this.index = await this.load();
    this.version = version;
    return this.index!;
  }

  /** Stock writes first, in order; then the products admins edited, as the database has them now. */
  private async replay(index: CatalogueIndex, changes: CatalogChange[]): Promise<void> {
    const edited = new Set<string>();
    for (const change of changes) {
      if ('edited' in change) change.edited.forEach((id) => edited.add(id));
      else if ('stock' in change) index.setStock(change.stock.productId, change.stock.write);
    }
    if (!edited.size) return;
    const docs = await this.products
      .find({ _id: { $in: [...edited] } }, PRODUCT_PROJECTION)
      .lean<LeanProduct[]>()
      .exec();
    const published = new Map(docs.filter((d) => d.isPublished === true).map((d) => [String(d._id), d]));
    for (const id of edited) {
      const doc = published.get(id);
      if (doc) index.put(toEntry(doc, this.toPublicUrl));
      else index.remove(id); // deleted or unpublished
    }
  }

  private async load(): Promise<CatalogueIndex> {
    const started = Date.now();
    const entries = [];
    const cursor = this.products
      .find({ isPublished: true }, PRODUCT_PROJECTION)
      .lean<LeanProduct>()
      .cursor({ batchSize: 1000 });
    for await (const doc of cursor) entries.push(toEntry(doc as LeanProduct, this.toPublicUrl));
    const index = new CatalogueIndex(entries);
    this.logger.log(`catalogue loaded: ${index.size} published products in ${Date.now() - started} ms`);
    return index;
  }
}
