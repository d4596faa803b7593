import {
  BadRequestException,
  ConflictException,
  HttpException,
  Injectable,
  Logger,
  NotFoundException,
  OnModuleInit,
  ServiceUnavailableException,
} from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import {
  EVENTS,
  lineOptionProblem,
  toPounds,
  type LineProblem,
  type LineRequest,
  type OrderCancelledEvent,
  type OrderPlacedEvent,
  type PricedLine,
  type PriceLinesResponse,
  type ProductChangedEvent,
  type ReleaseStockResponse,
  type ReservedLine,
  type ReserveStockResponse,
  type ReturnStatusChangedEvent,
} from '@shop/contracts';
import { EventBus, indexesBuilt } from '@shop/nest-common';
import { randomUUID } from 'node:crypto';
import type { Model } from 'mongoose';
import { CatalogCache } from '../cache/catalog-cache';
import { assetUrlsOf } from '../config/asset-urls';
import { CatalogConfig } from '../config/catalog.config';
import { Product, type LeanProduct } from '../products/product.schema';
import { PRODUCT_NOT_FOUND } from '../products/products.service';
import {
  keyString,
  optionOf,
  sameKey,
  stockOf,
  toVariantJson,
  variantLabel,
  variantsOf,
  type StoredVariant,
  type VariantKey,
} from '../variants/variants';
import { CheckoutHolds } from './checkout-holds';
import { StockReads, type StockProduct } from './stock-reads';
import { checkoutIdOf, holdPath, sameLines, stockWrite, unitsOf, type HoldLine, type StockHold } from './stock-hold';

export const MAX_LINE_QUANTITY = 99;
const MAX_LINES = 100;
const OBJECT_ID = /^[0-9a-f]{24}$/i;

/** `<name> is out of stock` / `Only N left in stock for <name>`: the name of a variant, e.g. "Jersey (M, Red)". */
export function outOfStockMessage(name: string, available: number): string {
  return available <= 0 ? `${name} is out of stock` : `Only ${available} left in stock for ${name}`;
}

function isQuantity(q: unknown): q is number {
  return typeof q === 'number' && Number.isInteger(q) && q >= 1 && q <= MAX_LINE_QUANTITY;
}

/** A hold time in seconds: a whole number from 1 to 86,400, or the default when absent. */
function ttlOf(raw: unknown, fallback: number): number {
  if (raw === undefined) return fallback;
  if (typeof raw !== 'number' || !Number.isInteger(raw) || raw < 1 || raw > 86_400)
    throw new BadRequestException('ttlSeconds must be a whole number from 1 to 86400');
  return raw;
}

/** Validates request lines and groups them per product. */
export function parseLines(raw: unknown): Map<string, { quantity: number; lines: LineRequest[] }> {
  if (!Array.isArray(raw) || raw.length === 0) throw new BadRequestException('No items to reserve');
  if (raw.length > MAX_LINES) throw new BadRequestException(`At most ${MAX_LINES} lines at once`);
  const byProduct = new Map<string, { quantity: number; lines: LineRequest[] }>();
  for (const line of raw as Array<Partial<LineRequest>>) {
    if (!line || typeof line.productId !== 'string' || !OBJECT_ID.test(line.productId))
      throw new BadRequestException('Invalid product id');
    if (!isQuantity(line.quantity))
      throw new BadRequestException(`Quantity must be a whole number from 1 to ${MAX_LINE_QUANTITY}`);
    const id = line.productId.toLowerCase();
    const entry = byProduct.get(id) ?? { quantity: 0, lines: [] };
    entry.quantity += line.quantity;
    entry.lines.push({ productId: id, quantity: line.quantity, size: line.size, color: line.color });
    byProduct.set(id, entry);
  }
  return byProduct;
}

type Resolved = { variant: StoredVariant } | { problem: LineProblem; message: string };

/** The variant a line names, or why it names none (`lineOptionProblem`, the contracts' one rule of a line's options). */
export function resolveLine(
  product: Pick<LeanProduct, 'name' | 'sizes' | 'colors'>,
  variants: StoredVariant[],
  line: Partial<LineRequest>,
): Resolved {
  const problem = lineOptionProblem(
    { name: product.name, sizes: product.sizes ?? [], colors: product.colors ?? [] },
    line,
  );
  if (problem) return problem;
  const key = { size: optionOf(line.size), color: optionOf(line.color) };
  const variant = variants.find((v) => sameKey(v, key));
  if (!variant) return { problem: 'out_of_stock', message: outOfStockMessage(variantLabel(product.name, key), 0) };
  return { variant };
}

/**
 * The variant an order line was for. Lines of orders are checked at checkout, so this is exact; a line naming less
 * (an order from before variants) takes the one variant that fits, if only one does.
 */
function orderedVariant(variants: StoredVariant[], line: VariantKey): StoredVariant | undefined {
  const exact = variants.find((v) => sameKey(v, line));
  if (exact) return exact;
  const fits = variants.filter(
    (v) => (line.size === null || v.size === line.size) && (line.color === null || v.color === line.color),
  );
  return fits.length === 1 ? fits[0] : undefined;
}

/** A product as the stock code reads it: everything but the checkouts whose returns it remembers. */
const STOCK_READ = { returnedCheckouts: 0, restockedReturns: 0 } as const;
/** How often one write is tried again after the product changed under it (another buyer, an admin edit). */
const WRITE_ATTEMPTS = 8;
/** How often a reservation reads and holds afresh when a hold it renews was given back meanwhile (it expired). */
const RENEW_ATTEMPTS = 3;

/** A hold this request took or resized, and how to undo it if a later product of the request cannot be held. */
interface Taken {
  productId: string;
  hold: StockHold;
  before?: StockHold;
}

/**
 * Stock that never oversells, kept per variant (a product's size × colour), on MongoDB's one guarantee: a write of
 * one document is atomic, its condition checked as it writes (our FerretDB build keeps it: sqlite-atomic-writes).
 *
 * A checkout's units of a product are a hold in the product document (`holds.<checkoutId>`, stock-hold.ts). Every
 * change is one conditional write that moves the variants' stock, the product's sums and the hold together:
 * - take: the hold is absent and every variant has the units → the hold is written and the units leave the shelf;
 * - give back (released, expired, cancelled before its order was placed): the hold with this `ref` is there → it
 *   goes and its units return; an expired one only as read (its time unchanged) and only once its checkout agreed
 *   it is unpaid (checkout's `expiredHold`, which makes that checkout's pay hold its lines again);
 * - sell (the order is placed): the hold is there → it goes and its units count as sold;
 * - return (the order is cancelled after its sale): the checkout is not in `returnedCheckouts` and holds nothing →
 *   the order's units return and the checkout is remembered.
 * So a hold is there or it is not, each transition applies once whatever repeats it, and no lock is taken. A write
 * whose condition fails reads the product again and decides anew (another buyer took the units; an admin moved a
 * variant). A paid checkout's hold stays until its order takes it (the sweeper keeps it: keepPaidHold), so a hold
 * that is gone when its order is placed was sold or returned already.
 */
@Injectable()
export class StockService implements OnModuleInit {
  private readonly logger = new Logger(StockService.name);

  constructor(
    @InjectModel(Product.name) private readonly products: Model<Product>,
    private readonly reads: StockReads,
    private readonly cache: CatalogCache,
    private readonly events: EventBus,
    private readonly config: CatalogConfig,
    private readonly checkoutHolds: CheckoutHolds,
  ) {}

  /** The sweeper's index must exist before it is relied on. */
  async onModuleInit(): Promise<void> {
    await indexesBuilt([this.products]);
  }

  // ------------------------------------------------------------------ pricing (cart and checkout)

  /**
   * Each line priced, with the stock of its variant (or of the product, for a line naming no variant: what the
   * cart asks to learn a product), the product's variants, and whether it can be sold as asked.
   */
  async priceLines(raw: unknown): Promise<PriceLinesResponse> {
    const lines = (raw as { lines?: unknown })?.lines;
    if (!Array.isArray(lines)) throw new BadRequestException('lines must be a list');
    if (lines.length > MAX_LINES) throw new BadRequestException(`At most ${MAX_LINES} lines at once`);
    const ids = [
      ...new Set(
        lines
          .map((l) => (l as LineRequest)?.productId)
          .filter((id): id is string => typeof id === 'string' && OBJECT_ID.test(id))
          .map((id) => id.toLowerCase()),
      ),
    ];
    const found = await this.reads.published(ids);
    const byId = new Map([...found].map(([id, p]) => [id, { product: p, variants: variantsOf(p) }]));

    const priced = (lines as Array<Partial<LineRequest>>).map((line): PricedLine => {
      const base: PricedLine = {
        productId: String(line?.productId ?? ''),
        quantity: line?.quantity as number,
        ...(line?.size !== undefined ? { size: line.size } : {}),
        ...(line?.color !== undefined ? { color: line.color } : {}),
        ok: false,
      };
      if (typeof line?.productId !== 'string' || !OBJECT_ID.test(line.productId)) {
        return { ...base, problem: 'invalid_product_id', message: 'Invalid product id' };
      }
      const known = byId.get(line.productId.toLowerCase());
      if (!known) return { ...base, problem: 'not_found', message: PRODUCT_NOT_FOUND };
      const { product, variants } = known;
      const resolved = resolveLine(product, variants, line);
      const variant = 'variant' in resolved ? resolved.variant : undefined;
      const described: PricedLine = {
        ...base,
        name: product.name,
        image: assetUrlsOf(this.config).toPublic(product.images?.[0]?.url ?? ''),
        unitPricePence: product.pricePence,
        price: toPounds(product.pricePence),
        sizes: product.sizes,
        colors: product.colors,
        countInStock: variant ? variant.countInStock : stockOf(variants),
        ...(variant ? { sku: variant.sku } : {}),
        variants: toVariantJson(variants),
      };
      if (!isQuantity(line.quantity)) {
        return {
          ...described,
          problem: 'invalid_quantity',
          message: `Quantity must be a whole number from 1 to ${MAX_LINE_QUANTITY}`,
        };
      }
      if (!variant) return { ...described, ...(resolved as { problem: LineProblem; message: string }) };
      if (variant.countInStock <= 0) {
        const message = outOfStockMessage(variantLabel(product.name, variant), 0);
        return { ...described, problem: 'out_of_stock', message };
      }
      if (line.quantity > variant.countInStock) {
        return { ...described, problem: 'insufficient_stock', message: `Only ${variant.countInStock} left in stock` };
      }
      return { ...described, ok: true };
    });
    const totalPence = priced.filter((l) => l.ok).reduce((sum, l) => sum + (l.unitPricePence ?? 0) * l.quantity, 0);
    return { lines: priced, totalPence, ok: priced.every((l) => l.ok) };
  }

  // ------------------------------------------------------------------ holds

  /**
   * Holds every line for the checkout, per variant, or none: what is held already (a retry) is kept and its time
   * renewed, a different quantity resizes the hold, and a product that cannot be held undoes what this request took.
   */
  async reserve(raw: unknown): Promise<ReserveStockResponse> {
    const req = (raw ?? {}) as { checkoutId?: unknown; lines?: unknown; ttlSeconds?: unknown; notAfter?: unknown };
    const checkoutId = checkoutIdOf(req.checkoutId);
    const wanted = parseLines(req.lines);
    const ttl = ttlOf(req.ttlSeconds, this.config.RESERVATION_TTL_SECONDS);
    const refuseIfGivenUp = this.refuseIfGivenUp(checkoutId, req.notAfter);
    const expiresAt = new Date(Date.now() + ttl * 1000);
    const ids = [...wanted.keys()];
    refuseIfGivenUp('arrived after');

    // Everything is checked before anything is written: a request that cannot be held as read holds nothing.
    const planFrom = (byId: Map<string, StockProduct>) =>
      [...wanted].map(([id, { lines }]) => {
        const product = byId.get(id);
        if (!product || !product.isPublished) throw new NotFoundException(PRODUCT_NOT_FOUND);
        const plan = { product, lines: this.holdLines(product, lines) };
        this.checkAvailable(plan.product, checkoutId, plan.lines);
        return plan;
      });
    const [known] = await Promise.all([this.reads.published(ids), this.cache.assertReachable()]);
    let plans: ReturnType<typeof planFrom>;
    try {
      plans = planFrom(known);
    } catch (err) {
      // The read model knows no holds (a retry may resize its own): a refusal is decided on the database's read.
      if (!(err instanceof HttpException)) throw err;
      plans = planFrom(await this.stockRead(ids));
    }

    let taken: Taken[] = [];
    for (let attempt = 1; ; attempt++) {
      // The read may have waited out an outage: nothing is written for a caller who left meanwhile.
      refuseIfGivenUp('was read after');
      taken = [];
      const renewed: string[] = [];
      try {
        for (const { product, lines } of plans) {
          const change = await this.hold(product, checkoutId, lines, expiresAt);
          if (change === 'same') renewed.push(String(product._id));
          else taken.push(change);
        }
      } catch (err) {
        await this.undo(checkoutId, taken);
        throw err;
      }
      if (!renewed.length || (await this.renew(checkoutId, renewed, expiresAt))) break;
      // A hold found the same was given back (it had expired) before its renewal: what this request took goes back,
      // and the lines are read and held afresh (held again, or refused if the stock is gone meanwhile).
      await this.undo(checkoutId, taken);
      if (attempt >= RENEW_ATTEMPTS) throw new ServiceUnavailableException('The stock is changing: try again');
      plans = planFrom(await this.stockRead(ids));
    }
    this.changed(taken.map((t) => t.productId));

    const assets = assetUrlsOf(this.config);
    const lines = plans.flatMap(({ product, lines }): ReservedLine[] =>
      lines.map((l) => ({
        productId: String(product._id),
        quantity: l.quantity,
        name: product.name,
        image: assets.toPublic(product.images?.[0]?.url ?? ''),
        unitPricePence: product.pricePence,
        size: l.size,
        color: l.color,
        sku: l.sku,
      })),
    );
    return { checkoutId, expiresAt: expiresAt.toISOString(), lines };
  }

  /** The products as the stock code reads them from the database, holds included, published or not. */
  private async stockRead(ids: string[]): Promise<Map<string, StockProduct>> {
    const products = await this.products
      .find({ _id: { $in: ids } }, STOCK_READ)
      .lean<LeanProduct[]>()
      .exec();
    return new Map(products.map((p) => [String(p._id), p]));
  }

  /** A product's request lines as the variants they name, one line per variant (400/409 for a line naming none). */
  private holdLines(product: StockProduct, lines: LineRequest[]): HoldLine[] {
    const variants = variantsOf(product);
    const perVariant = new Map<string, HoldLine>();
    for (const line of lines) {
      const resolved = resolveLine(product, variants, line);
      if (!('variant' in resolved)) {
        if (resolved.problem === 'out_of_stock') throw new ConflictException(resolved.message);
        throw new BadRequestException(resolved.message);
      }
      const { size, color, sku } = resolved.variant;
      const k = keyString(resolved.variant);
      const entry = perVariant.get(k) ?? { size, color, sku, quantity: 0 };
      entry.quantity += line.quantity;
      perVariant.set(k, entry);
    }
    return [...perVariant.values()];
  }

  /** 409 when a variant has fewer units on the shelf than the lines want beyond what the checkout holds already. */
  private checkAvailable(product: StockProduct, checkoutId: string, lines: HoldLine[]): void {
    const held = holdOf(product, checkoutId)?.lines ?? [];
    for (const variant of variantsOf(product)) {
      const want = unitsOf(lines.filter((l) => sameKey(l, variant)));
      const have = unitsOf(held.filter((l) => sameKey(l, variant)));
      if (want - have > variant.countInStock)
        throw new ConflictException(
          outOfStockMessage(variantLabel(product.name, variant), variant.countInStock + have),
        );
    }
  }

  /**
   * One product's hold made to be `lines`, in one conditional write: taken when the checkout holds nothing here,
   * resized when it holds other units; 'same' when it holds these already (the caller renews them). A write whose
   * condition fails reads the product again: another buyer took the units (409), or the product changed.
   */
  private async hold(
    read: StockProduct,
    checkoutId: string,
    lines: HoldLine[],
    expiresAt: Date,
  ): Promise<Taken | 'same'> {
    const path = holdPath(checkoutId);
    let product = read;
    for (let attempt = 1; ; attempt++) {
      const before = holdOf(product, checkoutId);
      if (before && sameLines(before.lines, lines)) return 'same';
      const hold: StockHold = { ref: randomUUID(), lines, expiresAt };
      const moves = [
        ...(before?.lines ?? []).map((l) => ({ ...keyOf(l), stock: l.quantity, sold: 0 })),
        ...lines.map((l) => ({ ...keyOf(l), stock: -l.quantity, sold: 0 })),
      ];
      const { condition, inc, lost } = stockWrite(variantsOf(product), moves);
      if (lost.length) throw new ConflictException(outOfStockMessage(variantLabel(product.name, lost[0]), 0));
      const written = await this.writeStock(
        String(product._id),
        { isPublished: true, ...condition, [`${path}.ref`]: before ? before.ref : { $exists: false } },
        { $inc: inc, $set: { [path]: hold, hasHolds: true } },
      );
      if (written) return { productId: String(product._id), hold, before };
      const again = await this.products.findById(product._id, STOCK_READ).lean<LeanProduct>().exec();
      if (!again || !again.isPublished) throw new NotFoundException(PRODUCT_NOT_FOUND);
      this.checkAvailable(again, checkoutId, lines);
      if (attempt >= WRITE_ATTEMPTS) throw new ServiceUnavailableException('The stock is changing: try again');
      product = again;
    }
  }

  /** Undoes what a failed request took: each hold it made given back, each it resized set back as it was. */
  private async undo(checkoutId: string, taken: Taken[]): Promise<void> {
    for (const { productId, hold, before } of taken) {
      const settled = await this.settle(productId, checkoutId, (held) => held.ref === hold.ref, {
        next: before,
        sold: false,
      });
      if (!settled && before) this.logger.warn(`checkout ${checkoutId}: hold of product ${productId} not set back`);
    }
    this.changed(taken.map((t) => t.productId));
  }

  /** Renews the time of the checkout's holds found the same; false when one was given back before its renewal. */
  private async renew(checkoutId: string, productIds: string[], expiresAt: Date): Promise<boolean> {
    const { matchedCount } = await this.products
      .updateMany(
        { _id: { $in: productIds }, [holdPath(checkoutId)]: { $exists: true } },
        { $set: { [`${holdPath(checkoutId)}.expiresAt`]: expiresAt } },
        { timestamps: false },
      )
      .exec();
    return matchedCount === productIds.length;
  }

  /** Refuses (503) work for a caller that gave up waiting at `notAfter`: nothing is held that it would never hear of. */
  private refuseIfGivenUp(checkoutId: string, rawNotAfter: unknown): (when: string) => void {
    const notAfter = rawNotAfter === undefined ? undefined : Date.parse(String(rawNotAfter));
    if (Number.isNaN(notAfter)) throw new BadRequestException('notAfter must be an ISO time');
    return (when) => {
      if (notAfter === undefined || Date.now() <= notAfter) return;
      this.logger.warn(`reservation for checkout ${checkoutId} ${when} its caller gave up: not applied`);
      throw new ServiceUnavailableException('The reservation request expired');
    };
  }

  /** Gives back what the checkout holds. Releasing again (or after its order was placed) gives nothing back. */
  async release(raw: unknown): Promise<ReleaseStockResponse> {
    const checkoutId = checkoutIdOf((raw as { checkoutId?: unknown })?.checkoutId);
    const released: ReleaseStockResponse['released'] = [];
    for (const productId of await this.productsHolding(checkoutId)) {
      const units = await this.settle(productId, checkoutId, () => true, { sold: false });
      if (units) released.push({ productId, quantity: units });
    }
    this.changed(released.map((r) => r.productId));
    return { checkoutId, released };
  }

  /** The products where the checkout holds units (found among the products holding any: `hasHolds` is indexed). */
  private async productsHolding(checkoutId: string): Promise<string[]> {
    const found = await this.products
      .find({ hasHolds: true, [holdPath(checkoutId)]: { $exists: true } }, { _id: 1 })
      .lean<Array<{ _id: unknown }>>()
      .exec();
    return found.map((p) => String(p._id));
  }

  /**
   * Ends the checkout's hold of a product when `which` accepts it, in one write conditional on its `ref`: its units
   * sold, or given back to the shelf (and, with `next`, a hold set in its place). Returns the units it ended (0:
   * no such hold, or it changed and no longer passes `which`).
   */
  private async settle(
    productId: string,
    checkoutId: string,
    which: (held: StockHold) => boolean,
    how: { sold: boolean; next?: StockHold; returned?: boolean; expired?: boolean },
  ): Promise<number> {
    const path = holdPath(checkoutId);
    for (let attempt = 1; attempt <= WRITE_ATTEMPTS; attempt++) {
      const product = await this.products.findById(productId, STOCK_READ).lean<LeanProduct>().exec();
      const held = product && holdOf(product, checkoutId);
      if (!product || !held || !which(held)) return 0;
      const moves = held.lines.map((l) =>
        how.sold ? { ...keyOf(l), stock: 0, sold: l.quantity } : { ...keyOf(l), stock: l.quantity, sold: 0 },
      );
      for (const l of how.next?.lines ?? []) moves.push({ ...keyOf(l), stock: -l.quantity, sold: 0 });
      const { condition, inc, lost } = stockWrite(variantsOf(product), moves);
      const update: Record<string, unknown> = { $inc: inc };
      if (how.next) update.$set = { [path]: how.next };
      else update.$unset = { [path]: '' };
      if (how.returned) update.$addToSet = { returnedCheckouts: checkoutId };
      // An expired hold goes only as read: a renewal since (a retried checkout) moved its time and wins.
      const expiry = how.expired ? { [`${path}.expiresAt`]: held.expiresAt } : {};
      if (await this.writeStock(productId, { ...condition, [`${path}.ref`]: held.ref, ...expiry }, update)) {
        for (const l of lost) {
          this.logger.warn(
            `checkout ${checkoutId}: ${l.stock} unit(s) of ${variantLabel(product.name, l)} not put back: the product no longer has that variant`,
          );
        }
        return unitsOf(held.lines);
      }
    }
    throw new ServiceUnavailableException('The stock is changing: try again');
  }

  // ------------------------------------------------------------------ orders (events)

  /**
   * orders.order.placed: the checkout's held units of the order's products become sold, per variant, once (the
   * order's lines are the checkout's, which it held). A checkout holding nothing of a product was sold (a
   * redelivered event) or cancelled already.
   */
  async commitOrder(event: OrderPlacedEvent): Promise<void> {
    const { checkoutId, items } = this.orderRefs(event);
    const known = await this.reads.published([...items.keys()]);
    const sold: string[] = [];
    for (const [productId, ordered] of items) {
      const units =
        (await this.sellAsOrdered(known.get(productId), checkoutId, ordered)) ||
        (await this.settle(productId, checkoutId, () => true, { sold: true }));
      if (units) sold.push(productId);
      else this.logger.debug(`checkout ${checkoutId}: nothing held of product ${productId} (sold or returned before)`);
    }
    this.changed(sold);
  }

  /**
   * The sale in one write, planned without reading the hold: the order's lines are the checkout's, which it held, so
   * they name the hold's units. Conditional on the hold being there and each variant still at its place (read from
   * the read model); 0 when that is not so, and the caller settles the hold as the database has it. Selling moves
   * no unit on the shelf, only the variants' sales.
   */
  private async sellAsOrdered(
    product: StockProduct | undefined,
    checkoutId: string,
    ordered: Array<VariantKey & { quantity: number }>,
  ): Promise<number> {
    if (!product || !ordered.length) return 0;
    const moves = ordered.map((l) => ({ ...keyOf(l), stock: 0, sold: l.quantity }));
    const { condition, inc, lost } = stockWrite(variantsOf(product), moves);
    if (lost.length) return 0;
    const path = holdPath(checkoutId);
    const written = await this.writeStock(
      String(product._id),
      { ...condition, [path]: { $exists: true } },
      { $inc: inc, $unset: { [path]: '' } },
    );
    return written ? unitsOf(ordered) : 0;
  }

  /**
   * orders.order.cancelled: the order's units go back on the shelf, once. A hold still there (the cancellation came
   * before the sale) is given back; otherwise the order's lines return from its sale, unless this checkout's
   * units came back already (`returnedCheckouts`).
   */
  async returnOrder(event: OrderCancelledEvent): Promise<void> {
    const { checkoutId, items } = this.orderRefs(event);
    const productIds = new Set([...items.keys(), ...(await this.productsHolding(checkoutId))]);
    const changed: string[] = [];
    for (const productId of productIds) {
      const units = await this.settle(productId, checkoutId, () => true, { sold: false, returned: true });
      if (units || (await this.returnSale(productId, checkoutId, items.get(productId) ?? []))) changed.push(productId);
    }
    this.changed(changed);
  }

  /** A sold order's lines of one product back on the shelf and out of its sales, once per checkout. */
  private async returnSale(
    productId: string,
    checkoutId: string,
    ordered: Array<VariantKey & { quantity: number }>,
  ): Promise<boolean> {
    if (!ordered.length) return false;
    const path = holdPath(checkoutId);
    for (let attempt = 1; attempt <= WRITE_ATTEMPTS; attempt++) {
      const product = await this.products.findById(productId).lean<LeanProduct>().exec();
      if (!product || product.returnedCheckouts?.includes(checkoutId) || holdOf(product, checkoutId)) return false;
      const variants = variantsOf(product);
      const moves = ordered.map((l) => {
        const variant = orderedVariant(variants, l) ?? l;
        return { size: variant.size, color: variant.color, stock: l.quantity, sold: -l.quantity };
      });
      const { condition, inc } = stockWrite(variants, moves);
      const written = await this.writeStock(
        productId,
        { ...condition, returnedCheckouts: { $ne: checkoutId }, [path]: { $exists: false } },
        { $inc: inc, $push: { returnedCheckouts: checkoutId } },
      );
      if (written) return true;
    }
    throw new ServiceUnavailableException('The stock is changing: try again');
  }

  /**
   * orders.return.status-changed, Received: the returned units the admin put back on sale go back to their variant's
   * stock, and every returned unit leaves the sales (soldCount), once per return and product: one write per product
   * conditional on the return not being in its `restockedReturns`, which it adds. A redelivered event changes nothing.
   */
  async restockReturn(event: ReturnStatusChangedEvent): Promise<void> {
    if (event?.status !== 'Received') return;
    const returnId = typeof event.returnId === 'string' && OBJECT_ID.test(event.returnId) ? event.returnId : '';
    if (!returnId) throw new Error('return event without a returnId');
    const byProduct = new Map<string, Array<VariantKey & { quantity: number; restock: boolean }>>();
    for (const l of Array.isArray(event.lines) ? event.lines : []) {
      if (typeof l?.productId !== 'string' || !OBJECT_ID.test(l.productId) || !isQuantity(l.quantity)) {
        this.logger.warn(`return ${returnId}: line skipped, not a product id and quantity: ${JSON.stringify(l)}`);
        continue;
      }
      const id = l.productId.toLowerCase();
      byProduct.set(id, [
        ...(byProduct.get(id) ?? []),
        { size: optionOf(l.size), color: optionOf(l.color), quantity: l.quantity, restock: l.restock === true },
      ]);
    }
    const changed: string[] = [];
    for (const [productId, lines] of byProduct) {
      if (await this.restockProduct(productId, returnId, lines)) changed.push(productId);
    }
    this.changed(changed);
  }

  private async restockProduct(
    productId: string,
    returnId: string,
    lines: Array<VariantKey & { quantity: number; restock: boolean }>,
  ): Promise<boolean> {
    for (let attempt = 1; attempt <= WRITE_ATTEMPTS; attempt++) {
      const product = await this.products
        .findById(productId, { holds: 0, returnedCheckouts: 0 })
        .lean<LeanProduct>()
        .exec();
      if (!product || product.restockedReturns?.includes(returnId)) return false;
      const variants = variantsOf(product);
      const moves = lines.map((l) => {
        const variant = orderedVariant(variants, l) ?? l;
        return { size: variant.size, color: variant.color, stock: l.restock ? l.quantity : 0, sold: -l.quantity };
      });
      const { condition, inc, lost } = stockWrite(variants, moves);
      const written = await this.writeStock(
        productId,
        { ...condition, restockedReturns: { $ne: returnId } },
        { $inc: inc, $push: { restockedReturns: returnId } },
      );
      if (written) {
        for (const l of lost)
          this.logger.warn(
            `return ${returnId}: ${l.stock} unit(s) of ${variantLabel(product.name, l)} not restocked: the product no longer has that variant`,
          );
        return true;
      }
    }
    throw new ServiceUnavailableException('The stock is changing: try again');
  }

  private orderRefs(event: OrderPlacedEvent | OrderCancelledEvent): {
    checkoutId: string;
    items: Map<string, Array<VariantKey & { quantity: number }>>;
  } {
    const checkoutId =
      typeof event?.checkoutId === 'string' && event.checkoutId
        ? event.checkoutId
        : typeof event?.orderId === 'string' && event.orderId
          ? `order:${event.orderId}`
          : '';
    if (!checkoutId) throw new Error('order event without checkoutId or orderId');
    const items = new Map<string, Array<VariantKey & { quantity: number }>>();
    for (const item of Array.isArray(event.items) ? event.items : []) {
      if (typeof item?.productId !== 'string' || !OBJECT_ID.test(item.productId) || !isQuantity(item.quantity)) {
        this.logger.warn(
          `order item skipped (checkout ${checkoutId}): not a product id and quantity: ${JSON.stringify(item)}`,
        );
        continue;
      }
      const id = item.productId.toLowerCase();
      const lines = items.get(id) ?? [];
      const line = { size: optionOf(item.size), color: optionOf(item.color), quantity: item.quantity };
      const same = lines.find((l) => sameKey(l, line));
      if (same) same.quantity += line.quantity;
      else lines.push(line);
      items.set(id, lines);
    }
    return { checkoutId: checkoutIdOf(checkoutId), items };
  }

  // ------------------------------------------------------------------ expiry

  /**
   * Gives back the holds that expired, each in a write conditional on its `ref` and its time (an extension or a
   * sale since the read wins), and clears `hasHolds` where no hold is left. Safe on every replica at once.
   */
  async sweep(now = new Date()): Promise<number> {
    // Every product holding anything (paid checkouts' holds stay until their orders settle them, so a page of the
    // first few could starve the rest): read by a cursor, holds only.
    const holding = this.products
      .find({ hasHolds: true }, { holds: 1 })
      .lean<Array<Pick<LeanProduct, '_id' | 'holds'>>>()
      .cursor({ batchSize: 200 });
    const changed: string[] = [];
    for await (const product of holding) {
      const productId = String(product._id);
      const holds = Object.entries(product.holds ?? {});
      if (!holds.length) {
        await this.products
          .updateOne(
            { _id: product._id, hasHolds: true, holds: {} },
            { $set: { hasHolds: false } },
            { timestamps: false },
          )
          .exec();
        continue;
      }
      for (const [checkoutId, hold] of holds) {
        if (new Date(hold.expiresAt) >= now) continue;
        // Checkout away: this sweep ends here (its error is logged), and the next one asks again.
        if (!(await this.checkoutHolds.mayRelease(checkoutId))) {
          await this.keepPaidHold(productId, checkoutId, hold, now);
          continue;
        }
        const expired = (held: StockHold) => held.ref === hold.ref && new Date(held.expiresAt) < now;
        if (await this.settle(productId, checkoutId, expired, { sold: false, expired: true })) changed.push(productId);
      }
    }
    if (changed.length) this.logger.log(`${changed.length} expired hold(s) given back`);
    this.changed(changed);
    return changed.length;
  }

  /**
   * A paid checkout's expired hold stays until its order takes it: its time moves PAID_HOLD_SECONDS on, unless the
   * hold changed since it was read.
   */
  private async keepPaidHold(productId: string, checkoutId: string, hold: StockHold, now: Date): Promise<void> {
    const path = holdPath(checkoutId);
    await this.products
      .updateOne(
        { _id: productId, [`${path}.ref`]: hold.ref, [`${path}.expiresAt`]: hold.expiresAt },
        { $set: { [`${path}.expiresAt`]: new Date(now.getTime() + this.config.PAID_HOLD_SECONDS * 1000) } },
        { timestamps: false },
      )
      .exec();
  }

  // ------------------------------------------------------------------ the write

  /**
   * One conditional write of a product's stock, returning whether it applied. What it set goes to every replica's
   * read model with the product's stockVersion, which orders writes that no lock orders.
   */
  private async writeStock(
    productId: string,
    condition: Record<string, unknown>,
    update: Record<string, unknown>,
  ): Promise<boolean> {
    await this.cache.assertReachable();
    const updatedAt = new Date();
    const set = { ...((update.$set as object | undefined) ?? {}), updatedAt };
    const after = await this.products
      .findOneAndUpdate(
        { _id: productId, ...condition },
        { ...update, $set: set },
        {
          returnDocument: 'after',
          timestamps: false,
        },
      )
      .lean<LeanProduct>()
      .exec();
    if (!after) return false;
    const soldChanged = Object.keys((update.$inc as object | undefined) ?? {}).includes('soldCount');
    const variants = variantsOf(after);
    const write = {
      countInStock: stockOf(variants),
      soldCount: after.soldCount ?? 0,
      updatedAt: updatedAt.toISOString(),
      variants: toVariantJson(variants),
      stockVersion: after.stockVersion,
    };
    await this.cache.stockChanged(productId, write, soldChanged);
    return true;
  }

  /** Other services hear of every product whose stock changed (the read models already know: writeStock). */
  private changed(productIds: string[]): void {
    for (const productId of new Set(productIds)) {
      this.events.notify<ProductChangedEvent>(EVENTS.catalog.productChanged, { productId });
    }
  }
}

/** The checkout's hold in a product as read, if any. */
function holdOf(product: { holds?: LeanProduct['holds'] }, checkoutId: string): StockHold | undefined {
  const hold = product.holds?.[checkoutId];
  return hold && typeof hold.ref === 'string' && Array.isArray(hold.lines) ? hold : undefined;
}

function keyOf(l: VariantKey): VariantKey {
  return { size: l.size, color: l.color };
}
