import { Injectable, Logger } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import type { CatalogChange } from '@shop/catalog-read-model';
import type { AdminProductListQuery, ProductJson } from '@shop/contracts';
import type { Model } from 'mongoose';
import { CatalogCache } from '../cache/catalog-cache';
import { assetUrlsOf } from '../config/asset-urls';
import { CatalogConfig } from '../config/catalog.config';
import { ascending, matcher, pageOf, rowOf, RowSearch, withStock, type AdminProductRow } from './admin-product-list';
import { PRODUCT_PROJECTION, toProductJson } from './product.mapper';
import { Product, type LeanProduct } from './product.schema';

/** More products edited than this since the copy's version: one full load beats as many lookups. */
const RELOAD_ABOVE = 200;
/**
 * Documents per batch of a full load: each batch is one round trip that must answer within the driver's socket
 * timeout (2.5 s) even on a busy development box, where FerretDB decodes every document in Go.
 */
const LOAD_BATCH = 250;
/** How long paged reads skip the catalog version after reading it failed (they go to the database meanwhile). */
const VERSION_RETRY_MS = 1000;

export interface AdminProductPage {
  total: number;
  /** The page's products as a JSON array, from the rows' own JSON (nothing parsed or serialised again). */
  body: string;
}

/**
 * The admin product list (every product, published or not) in this replica's memory, for the paged list: on the
 * development FerretDB a search, a sort or a count reads and decodes every product of the collection per query
 * (docs/performance.md, "Admin lists"), while here a page is one walk over a sorted array.
 *
 * It follows the catalog's change log exactly as the public read model does (CatalogCache): before each paged
 * read it reads the catalog version (a GET sent after the read arrived) and replays what it has not seen — stock
 * writes from the log itself, admin edits by reloading those products, anything else (`all`, a gap, a version
 * that went back) by loading everything. So a write that finished before a request arrived shows in it, on every
 * replica. It is loaded at the first paged read, not at start: a replica no admin asks costs nothing. While the
 * version cannot be read (Redis away), paged reads load every product from the database: slow, never stale.
 */
@Injectable()
export class AdminCatalogue {
  private readonly logger = new Logger(AdminCatalogue.name);
  private readonly toJson: (doc: LeanProduct) => ProductJson;
  private rows?: Map<string, AdminProductRow>;
  private at = 0;
  /** Sorted copies of the rows, per field (ascending), made at the first read after a change. */
  private sorted = new Map<string, AdminProductRow[]>();
  /** Every row's text in one string for searches, made at the first search after a change. */
  private search?: RowSearch;
  private queue: Promise<unknown> = Promise.resolve();
  private versionUnreadableUntil = 0;

  constructor(
    @InjectModel(Product.name) private readonly products: Model<Product>,
    private readonly feed: CatalogCache,
    private readonly config: CatalogConfig,
  ) {
    const toPublicUrl = assetUrlsOf(config).toPublic;
    this.toJson = (doc) => toProductJson(doc, toPublicUrl);
  }

  async page(query: AdminProductListQuery): Promise<AdminProductPage> {
    const rows = await this.current();
    const { field, direction } = query.sort;
    let sorted = rows ? this.sorted.get(field) : undefined;
    if (!sorted) {
      sorted = [...(rows ?? (await this.loadAll())).values()].sort(ascending(field));
      if (rows) this.sorted.set(field, sorted);
    }
    const found = pageOf(sorted, direction, matcher(query, this.config.LOW_STOCK_THRESHOLD), query.page, query.limit);
    return { total: found.total, body: `[${found.rows.map((row) => row.json).join(',')}]` };
  }

  /** The rows as of a catalog version read after this call began; undefined while it cannot be read. */
  private async current(): Promise<Map<string, AdminProductRow> | undefined> {
    if (Date.now() < this.versionUnreadableUntil) return undefined;
    let version: number;
    try {
      version = Number(await this.feed.readVersion());
    } catch {
      this.versionUnreadableUntil = Date.now() + VERSION_RETRY_MS;
      return undefined;
    }
    if (this.rows && version === this.at) return this.rows;
    const caughtUp = this.queue.then(() => this.catchUp(version));
    this.queue = caughtUp.catch(() => undefined);
    return caughtUp;
  }

  private async catchUp(version: number): Promise<Map<string, AdminProductRow>> {
    if (this.rows && version === this.at) return this.rows;
    const changes = this.rows && version > this.at ? await this.feed.changesSince(this.at, version) : undefined;
    if (this.rows && changes && !changes.some((c) => 'all' in c) && (await this.replay(this.rows, changes))) {
      this.at = version;
    } else {
      this.rows = await this.loadAll();
      this.at = version;
    }
    this.sorted.clear();
    this.search = undefined;
    return this.rows;
  }

  /** Applies the changes; false when so many products were edited that a full load is cheaper. */
  private async replay(rows: Map<string, AdminProductRow>, changes: CatalogChange[]): Promise<boolean> {
    const edited = new Set<string>();
    for (const change of changes) if ('edited' in change) change.edited.forEach((id) => edited.add(id));
    if (edited.size > RELOAD_ABOVE) return false;
    for (const change of changes) {
      if (!('stock' in change) || edited.has(change.stock.productId)) continue;
      const row = rows.get(change.stock.productId);
      if (row) rows.set(row.id, withStock(row, change.stock.write));
    }
    // One lookup by _id each (an index seek on every server), run together.
    const docs = await Promise.all(
      [...edited].map((id) => this.products.findById(id, PRODUCT_PROJECTION).lean<LeanProduct>().exec()),
    );
    for (const [i, id] of [...edited].entries()) {
      const doc = docs[i];
      if (doc) rows.set(id, this.rowOf(doc));
      else rows.delete(id);
    }
    return true;
  }

  private rowOf(doc: LeanProduct): AdminProductRow {
    return rowOf(this.toJson(doc), doc.pricePence);
  }

  private async loadAll(): Promise<Map<string, AdminProductRow>> {
    const started = Date.now();
    const rows = new Map<string, AdminProductRow>();
    const cursor = this.products.find({}, PRODUCT_PROJECTION).lean<LeanProduct>().cursor({ batchSize: LOAD_BATCH });
    for await (const doc of cursor) {
      const row = this.rowOf(doc as LeanProduct);
      rows.set(row.id, row);
    }
    this.logger.log(`admin list loaded: ${rows.size} products in ${Date.now() - started} ms`);
    return rows;
  }
}
