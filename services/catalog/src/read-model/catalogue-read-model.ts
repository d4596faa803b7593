import { Injectable, Logger } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import {
  CatalogueReplica,
  toEntry,
  type CatalogueEntry,
  type CatalogueIndex,
  type CatalogueSource,
} from '@shop/catalog-read-model';
import type { Model } from 'mongoose';
import { CatalogCache } from '../cache/catalog-cache';
import { assetUrlsOf } from '../config/asset-urls';
import { CatalogConfig } from '../config/catalog.config';
import { PRODUCT_PROJECTION, toProductJson } from '../products/product.mapper';
import { Product, type LeanProduct } from '../products/product.schema';

/** Products a batch of the full load. */
const LOAD_BATCH = 250;
/** How long reads skip the catalog version after reading it failed. */
const VERSION_RETRY_MS = 1000;

/**
 * The published catalogue in this replica's memory, as of the current catalog version: every public read is
 * answered from it without a database round trip. MongoDB stays the source of truth: the index is loaded from it
 * (at the first read; `main.ts` asks at start), and every later change is replayed from the change log
 * (see CatalogCache) before a read that could see it is answered — how, the shared CatalogueReplica says; here its
 * products come from MongoDB.
 *
 * It catches up only when a read asks, never in the background: what a read shows is the database as of that read,
 * as it was with a query per request.
 */
@Injectable()
export class CatalogueReadModel {
  private readonly logger = new Logger(CatalogueReadModel.name);
  private readonly replica: CatalogueReplica;
  /** Until then the version is not asked for: it just failed (Redis away or hung), reads go to the database. */
  private versionUnreadableUntil = 0;

  constructor(
    @InjectModel(Product.name) private readonly products: Model<Product>,
    private readonly feed: CatalogCache,
    config: CatalogConfig,
  ) {
    const toPublicUrl = assetUrlsOf(config).toPublic;
    const entryOf = (doc: LeanProduct): CatalogueEntry => toEntry(doc, toProductJson(doc, toPublicUrl));
    const source: CatalogueSource = {
      changesSince: (from, to) => this.feed.changesSince(from, to),
      loadAll: async (version) => ({ entries: await this.loadAll(entryOf), version }),
      loadProducts: async (ids) => {
        const docs = await this.products
          .find({ _id: { $in: ids }, isPublished: true }, PRODUCT_PROJECTION)
          .lean<LeanProduct[]>()
          .exec();
        return docs.map(entryOf);
      },
    };
    this.replica = new CatalogueReplica(source, (index) => {
      if (index.search.size)
        this.logger.log(
          `search index built: ${index.search.size} products in ${Math.round(index.search.buildMs ?? 0)} ms` +
            (index.search.scoreAheadMs === undefined
              ? ''
              : `, its common words scored in ${Math.round(index.search.scoreAheadMs)} ms`),
        );
    });
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
    const index = this.replica.index;
    if (index && version === this.replica.version) return index;
    return this.replica.catchUp(version);
  }

  private async loadAll(entryOf: (doc: LeanProduct) => CatalogueEntry): Promise<CatalogueEntry[]> {
    const started = Date.now();
    const entries = [];
    // Batches small enough that each comes back well inside the 2.5 s socket timeout: FerretDB reads ~1.7 ms a
    // product at 100,000 (its ~12 KB documents), so a batch of 1,000 took 1.5–1.7 s alone and timed out beside any
    // other load. MongoDB answers either in milliseconds.
    const cursor = this.products
      .find({ isPublished: true }, PRODUCT_PROJECTION)
      .lean<LeanProduct>()
      .cursor({ batchSize: LOAD_BATCH });
    for await (const doc of cursor) entries.push(entryOf(doc as LeanProduct));
    this.logger.log(`catalogue loaded: ${entries.length} published products in ${Date.now() - started} ms`);
    return entries;
  }
}
