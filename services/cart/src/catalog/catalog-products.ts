import { Injectable, Logger } from '@nestjs/common';
import { cartProductOfPricedLine, type CartProduct } from '../cart/model';
import { PATTERNS, type PriceLinesResponse } from '@shop/contracts';
import { RpcClient } from '@shop/nest-common';
import { CartConfig } from '../config/cart.config';

/** What a cart needs to know of a product: enough to price a line and check its size, colour and variant's stock. */
export interface ProductInfo extends CartProduct {
  productId: string;
  sizes: string[];
  colors: string[];
}

interface Entry {
  /** null: the catalog does not sell it (unknown, deleted or unpublished). */
  info: ProductInfo | null;
  fetchedAt: number;
}

const MAX_ENTRIES = 20_000;
/** The most lines one `catalog.products.price` request may carry. */
const REQUEST_LINES = 100;

/**
 * The catalogue as the cart sees it: prices, options and stock asked of the catalog over RabbitMQ
 * (`catalog.products.price`), and kept in this replica's memory until catalog announces a change to
 * that product (`catalog.product.changed` / `.deleted`, heard by every replica) or PRODUCT_CACHE_TTL_MS
 * passes. A cart read is then one Redis or MongoDB read and no RabbitMQ round trip.
 *
 * A fetch that was on the wire when its product changed is not kept (per-product generation), so a
 * change announced before an answer arrives is never overwritten by the older answer.
 */
@Injectable()
export class CatalogProducts {
  private readonly logger = new Logger(CatalogProducts.name);
  private readonly entries = new Map<string, Entry>();
  private readonly generations = new Map<string, number>();
  private epoch = 0;
  private readonly inflight = new Map<string, Promise<void>>();
  private readonly ttlMs: number;

  constructor(
    private readonly catalog: RpcClient,
    config: CartConfig,
  ) {
    this.ttlMs = config.PRODUCT_CACHE_TTL_MS;
  }

  /** The products (lower-case ids), fetching what this replica does not hold fresh; 503 when the catalog is away. */
  async getMany(ids: Iterable<string>): Promise<Map<string, ProductInfo | null>> {
    const wanted = [...new Set(ids)];
    const fresh = (id: string) => {
      const entry = this.entries.get(id);
      return entry && Date.now() - entry.fetchedAt < this.ttlMs ? entry : undefined;
    };
    const missing = wanted.filter((id) => !fresh(id));
    if (missing.length) {
      const toFetch = missing.filter((id) => !this.inflight.has(id));
      if (toFetch.length) {
        const fetching = this.fetch(toFetch);
        for (const id of toFetch) this.inflight.set(id, fetching);
        void fetching
          .finally(() => toFetch.forEach((id) => this.inflight.get(id) === fetching && this.inflight.delete(id)))
          .catch(() => undefined);
      }
      await Promise.all(missing.map((id) => this.inflight.get(id)));
    }
    const found = new Map<string, ProductInfo | null>();
    for (const id of wanted) {
      // An answer that lost to a change (or arrived with a TTL of 0) was not kept: ask again, once.
      const entry = this.entries.get(id) ?? (await this.fetchOne(id));
      found.set(id, entry.info);
    }
    return found;
  }

  async get(id: string): Promise<ProductInfo | null> {
    return (await this.getMany([id])).get(id) ?? null;
  }

  /** Catalog changed this product: the next request asks again. */
  invalidate(productId: string): void {
    const id = productId.toLowerCase();
    this.entries.delete(id);
    this.generations.set(id, (this.generations.get(id) ?? 0) + 1);
  }

  /** Forget everything (e.g. change events may have been missed while the broker was away). */
  clear(): void {
    this.entries.clear();
    this.epoch++;
  }

  private async fetchOne(id: string): Promise<Entry> {
    const entries = await this.request([id]);
    return entries.get(id)!;
  }

  private async fetch(ids: string[]): Promise<void> {
    const epoch = this.epoch;
    const generations = new Map(ids.map((id) => [id, this.generations.get(id) ?? 0]));
    const answered = await this.request(ids);
    if (this.ttlMs === 0 || epoch !== this.epoch) return;
    for (const [id, entry] of answered) {
      if ((this.generations.get(id) ?? 0) !== generations.get(id)) continue;
      this.entries.delete(id);
      this.entries.set(id, entry);
    }
    while (this.entries.size > MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value!);
  }

  private async request(ids: string[]): Promise<Map<string, Entry>> {
    // the catalog prices at most REQUEST_LINES lines at once (a full wishlist and the product being saved are more)
    const answers = await Promise.all(
      Array.from({ length: Math.ceil(ids.length / REQUEST_LINES) }, (_, i) =>
        this.catalog.send<PriceLinesResponse>(PATTERNS.catalog.priceLines, {
          lines: ids.slice(i * REQUEST_LINES, (i + 1) * REQUEST_LINES).map((productId) => ({ productId, quantity: 1 })),
        }),
      ),
    );
    const fetchedAt = Date.now();
    const entries = new Map<string, Entry>();
    for (const line of answers.flatMap((a) => a.lines)) {
      const id = line.productId.toLowerCase();
      const known = line.problem !== 'not_found' && line.problem !== 'invalid_product_id';
      entries.set(id, {
        fetchedAt,
        info: known
          ? {
              productId: id,
              ...cartProductOfPricedLine(line),
              sizes: line.sizes ?? [],
              colors: line.colors ?? [],
            }
          : null,
      });
    }
    for (const id of ids) if (!entries.has(id)) entries.set(id, { fetchedAt, info: null });
    this.logger.debug({ products: ids.length }, 'products fetched from the catalog');
    return entries;
  }
}
