import {
  BadRequestException,
  ConflictException,
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
  type ExtendStockResponse,
  type ReleaseStockResponse,
  type ReservedLine,
  type ReserveStockResponse,
} from '@shop/contracts';
import { EventBus, indexesBuilt, isDuplicateKeyError } from '@shop/nest-common';
import type { Model } from 'mongoose';
import { CatalogCache } from '../cache/catalog-cache';
import { assetUrlsOf } from '../config/asset-urls';
import { CatalogConfig } from '../config/catalog.config';
import { ProductLocks } from '../products/product-locks';
import { Product, STOCK_JOURNAL_LENGTH, type LeanProduct } from '../products/product.schema';
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
import { linesOf, Reservation, type LeanReservation, type ReservationLine } from './reservation.schema';

export const MAX_LINE_QUANTITY = 99;
const MAX_LINES = 100;
/** A pending reservation older than this lost its writer (crash, lock expiry) and is finished by the sweeper. */
const PENDING_GRACE_MS = 30_000;
const OBJECT_ID = /^[0-9a-f]{24}$/i;

/** What a transition does to one variant: units back on (+) or off (−) the shelf, units sold (+) or returned (−). */
interface VariantDelta extends VariantKey {
  stock: number;
  sold: number;
}
/**
 * A transition's change, from the product's variants as they are. A delta naming no variant (one removed since,
 * or an order line no variant matches) moves only the product's soldCount.
 */
type StockChange = (variants: StoredVariant[]) => VariantDelta[];

/** `<name> is out of stock` / `Only N left in stock for <name>`: the name of a variant, e.g. "Jersey (M, Red)". */
export function outOfStockMessage(name: string, available: number): string {
  return available <= 0 ? `${name} is out of stock` : `Only ${available} left in stock for ${name}`;
}

function isQuantity(q: unknown): q is number {
  return typeof q === 'number' && Number.isInteger(q) && q >= 1 && q <= MAX_LINE_QUANTITY;
}

function checkoutIdOf(raw: unknown): string {
  if (typeof raw !== 'string' || !raw.trim() || raw.length > 100)
    throw new BadRequestException('checkoutId is required');
  return raw.trim();
}

/** A hold time in seconds: a whole number from 1 to 86,400, or the default when absent. */
function ttlOf(raw: unknown, fallback: number): number {
  if (raw === undefined) return fallback;
  if (typeof raw !== 'number' || !Number.isInteger(raw) || raw < 1 || raw > 86_400)
    throw new BadRequestException('ttlSeconds must be a whole number from 1 to 86400');
  return raw;
}

/** The distinct product ids of a request (lower case), at least one and at most MAX_LINES. */
function productIdsOf(raw: unknown): string[] {
  if (!Array.isArray(raw) || raw.length === 0) throw new BadRequestException('productIds must be a non-empty list');
  if (raw.length > MAX_LINES) throw new BadRequestException(`At most ${MAX_LINES} products at once`);
  if (!raw.every((id): id is string => typeof id === 'string' && OBJECT_ID.test(id)))
    throw new BadRequestException('Invalid product id');
  return [...new Set(raw.map((id) => id.toLowerCase()))];
}

/** Validates request lines and groups them per product (their variants are told apart under the product's lock). */
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

/** Adds up deltas per variant. */
class Deltas {
  private readonly byKey = new Map<string, VariantDelta>();

  add(key: VariantKey, stock: number, sold: number): void {
    const k = keyString(key);
    const d = this.byKey.get(k) ?? { size: key.size, color: key.color, stock: 0, sold: 0 };
    d.stock += stock;
    d.sold += sold;
    this.byKey.set(k, d);
  }

  stockOf(key: VariantKey): number {
    return this.byKey.get(keyString(key))?.stock ?? 0;
  }

  list(): VariantDelta[] {
    return [...this.byKey.values()];
  }
}

function total(lines: ReadonlyArray<{ quantity: number }>): number {
  return lines.reduce((sum, l) => sum + l.quantity, 0);
}

function sameLines(a: ReservationLine[], b: ReservationLine[]): boolean {
  const quantities = (lines: ReservationLine[]) =>
    JSON.stringify(lines.map((l) => [keyString(l), l.quantity] as const).sort(([x], [y]) => x.localeCompare(y)));
  return quantities(a) === quantities(b);
}

/**
 * Stock that never oversells, on a database whose update operators are not atomic (PITFALLS §3.4), kept per
 * variant (a product's size × colour).
 *
 * - Every change to a product's stock happens inside that product's Redis lock, as a plain
 *   read-compute-write of absolute values: the variants' levels and the product's sums in one document write.
 * - Each checkout holds at most one reservation record per product (its `lines` say how many units of each
 *   variant): a unique index on {checkoutId, productId} decides, whatever races.
 * - Every transition of a reservation (hold, resize, release, commit, return) carries a key that lands in the
 *   product's stock journal in the same single-document write as the stock change, so retrying a transition (a
 *   redelivered event, a second release, a crash half-way) never applies it twice.
 */
@Injectable()
export class StockService implements OnModuleInit {
  private readonly logger = new Logger(StockService.name);

  constructor(
    @InjectModel(Product.name) private readonly products: Model<Product>,
    @InjectModel(Reservation.name) private readonly reservations: Model<Reservation>,
    private readonly locks: ProductLocks,
    private readonly cache: CatalogCache,
    private readonly events: EventBus,
    private readonly config: CatalogConfig,
  ) {}

  /** The unique indexes must exist before the first write relies on them. */
  async onModuleInit(): Promise<void> {
    await indexesBuilt([this.reservations, this.products]);
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
          .filter((id): id is string => typeof id === 'string' && OBJECT_ID.test(id)),
      ),
    ];
    const found = await this.products
      .find({ _id: { $in: ids }, isPublished: true }, { stockJournal: 0 })
      .lean<LeanProduct[]>()
      .exec();
    const byId = new Map(found.map((p) => [String(p._id), { product: p, variants: variantsOf(p) }]));

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

  // ------------------------------------------------------------------ reservations

  /**
   * Holds every line for the checkout, per variant, or none. Reserving again for the same checkout is idempotent
   * (a different quantity of a variant resizes the hold).
   */
  async reserve(raw: unknown): Promise<ReserveStockResponse> {
    const req = (raw ?? {}) as { checkoutId?: unknown; lines?: unknown; ttlSeconds?: unknown; notAfter?: unknown };
    const checkoutId = checkoutIdOf(req.checkoutId);
    const wanted = parseLines(req.lines);
    const ttl = ttlOf(req.ttlSeconds, this.config.RESERVATION_TTL_SECONDS);
    const refuseIfGivenUp = this.refuseIfGivenUp(checkoutId, req.notAfter);
    const expiresAt = new Date(Date.now() + ttl * 1000);
    const ids = [...wanted.keys()];
    const changed: string[] = [];
    const reserved = await this.locks.withProducts(ids, async () => {
      refuseIfGivenUp('arrived after');
      // Both reads at once: the lock is held for them, and every buyer queued for a product waits that long. The
      // products are read whole (with their stock journal): under the lock they are current, and the hold writes
      // them from this read.
      const [products, existing] = await Promise.all([
        this.products
          .find({ _id: { $in: ids } })
          .lean<LeanProduct[]>()
          .exec(),
        this.reservations
          .find({ checkoutId, productId: { $in: ids } })
          .lean<LeanReservation[]>()
          .exec(),
      ]);
      const byId = new Map(products.map((p) => [String(p._id), p]));
      const resById = new Map<string, LeanReservation>();
      // A pending record here lost its writer (we hold the lock): settle it before counting what is held.
      for (const r of existing) resById.set(r.productId, r.status === 'pending' ? await this.resolvePending(r) : r);

      // Check everything first: nothing is held unless everything can be.
      const plans = new Map<string, { product: LeanProduct; lines: ReservationLine[] }>();
      for (const [id, { lines }] of wanted) {
        const product = byId.get(id);
        if (!product || !product.isPublished) throw new NotFoundException(PRODUCT_NOT_FOUND);
        const variants = variantsOf(product);
        const perVariant = new Map<string, { variant: StoredVariant; quantity: number }>();
        for (const line of lines) {
          const resolved = resolveLine(product, variants, line);
          if (!('variant' in resolved)) {
            if (resolved.problem === 'out_of_stock') throw new ConflictException(resolved.message);
            throw new BadRequestException(resolved.message);
          }
          const k = keyString(resolved.variant);
          const entry = perVariant.get(k) ?? { variant: resolved.variant, quantity: 0 };
          entry.quantity += line.quantity;
          perVariant.set(k, entry);
        }
        const res = resById.get(id);
        if (res?.status !== 'committed') {
          const held = res?.status === 'held' ? linesOf(res, variants) : [];
          for (const { variant, quantity } of perVariant.values()) {
            const alreadyHeld = total(held.filter((l) => sameKey(l, variant)));
            if (quantity - alreadyHeld > variant.countInStock) {
              throw new ConflictException(
                outOfStockMessage(variantLabel(product.name, variant), variant.countInStock + alreadyHeld),
              );
            }
          }
        }
        const planned = [...perVariant.values()].map(({ variant, quantity }) => ({
          size: variant.size,
          color: variant.color,
          sku: variant.sku,
          quantity,
        }));
        plans.set(id, { product, lines: planned });
      }

      // The reads above may have waited out a database outage: nothing is written for a caller who left meanwhile.
      refuseIfGivenUp('was read after');
      for (const [id, { lines }] of plans) {
        let res = resById.get(id);
        const quantity = total(lines);
        if (res?.status === 'committed') continue; // this checkout's order already took these units
        if (res?.status === 'held') {
          const heldRes = res;
          const held = (variants: StoredVariant[]) => linesOf(heldRes, variants);
          if (sameLines(held(variantsOf(plans.get(id)!.product)), lines)) {
            await this.reservations.updateOne({ _id: res._id }, { $set: { expiresAt, lines } }).exec();
            continue;
          }
          await this.transition(
            res,
            'resize',
            (variants) => {
              const deltas = new Deltas();
              for (const l of held(variants)) deltas.add(l, l.quantity, 0);
              for (const l of lines) deltas.add(l, -l.quantity, 0);
              return deltas.list();
            },
            () => ({ status: 'held', quantity, lines, expiresAt }),
            plans.get(id)!.product,
          );
          changed.push(id);
          continue;
        }
        // none, released or returned: hold afresh, announcing the intent first (pending) so a crash is recoverable.
        if (!res)
          res = await this.insertReservation({
            checkoutId,
            productId: id,
            quantity,
            lines,
            status: 'pending',
            generation: 0,
            expiresAt,
          });
        else {
          await this.reservations
            .updateOne({ _id: res._id }, { $set: { status: 'pending', quantity, lines, expiresAt } })
            .exec();
          res = { ...res, status: 'pending', quantity, lines, expiresAt };
        }
        await this.transition(
          res,
          'hold',
          () => lines.map((l) => ({ size: l.size, color: l.color, stock: -l.quantity, sold: 0 })),
          () => ({ status: 'held', expiresAt }),
          plans.get(id)!.product,
        );
        changed.push(id);
      }
      const assets = assetUrlsOf(this.config);
      return [...plans].flatMap(([id, { product, lines }]): ReservedLine[] =>
        lines.map((l) => ({
          productId: id,
          quantity: l.quantity,
          name: product.name,
          image: assets.toPublic(product.images?.[0]?.url ?? ''),
          unitPricePence: product.pricePence,
          size: l.size,
          color: l.color,
          sku: l.sku,
        })),
      );
    });

    this.changed(changed);
    return { checkoutId, expiresAt: expiresAt.toISOString(), lines: reserved };
  }

  /**
   * Keeps holding what the checkout holds, until `ttlSeconds` from now: one write, under the products' locks (a
   * sweeper releasing an expired hold takes them too). `extended` is false when a hold is no longer held (released
   * when it expired, or never made): the caller then reserves the lines again, which checks the stock.
   */
  async extend(raw: unknown): Promise<ExtendStockResponse> {
    const req = (raw ?? {}) as { checkoutId?: unknown; productIds?: unknown; ttlSeconds?: unknown; notAfter?: unknown };
    const checkoutId = checkoutIdOf(req.checkoutId);
    const ids = productIdsOf(req.productIds);
    const ttl = ttlOf(req.ttlSeconds, this.config.RESERVATION_TTL_SECONDS);
    const refuseIfGivenUp = this.refuseIfGivenUp(checkoutId, req.notAfter);
    return this.locks.withProducts(ids, async () => {
      refuseIfGivenUp('arrived after');
      const expiresAt = new Date(Date.now() + ttl * 1000);
      const { matchedCount } = await this.reservations
        .updateMany({ checkoutId, productId: { $in: ids }, status: 'held' }, { $set: { expiresAt } })
        .exec();
      return { checkoutId, expiresAt: expiresAt.toISOString(), extended: matchedCount === ids.length };
    });
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

  /** Gives back what the checkout holds. Releasing again (or after the order was placed) gives nothing back. */
  async release(raw: unknown): Promise<ReleaseStockResponse> {
    const checkoutId = checkoutIdOf((raw as { checkoutId?: unknown })?.checkoutId);
    const held = await this.reservations
      .find({ checkoutId, status: { $in: ['held', 'pending'] } })
      .lean<LeanReservation[]>()
      .exec();
    const released: ReleaseStockResponse['released'] = [];
    for (const candidate of held) {
      const quantity = await this.locks.withProduct(candidate.productId, () => this.releaseOne(candidate._id));
      if (quantity > 0) released.push({ productId: candidate.productId, quantity });
    }
    this.changed(released.map((r) => r.productId));
    return { checkoutId, released };
  }

  /** Under the product's lock: releases a held reservation, returning the units given back (0 if none). */
  private async releaseOne(id: LeanReservation['_id'], onlyIfExpiredAt?: Date): Promise<number> {
    let res = await this.reservations.findById(id).lean<LeanReservation>().exec();
    if (res?.status === 'pending') res = await this.resolvePending(res);
    if (!res || res.status !== 'held') return 0;
    if (onlyIfExpiredAt && res.expiresAt > onlyIfExpiredAt) return 0; // extended meanwhile
    const held = res;
    await this.transition(
      res,
      'release',
      (variants) => linesOf(held, variants).map((l) => ({ size: l.size, color: l.color, stock: l.quantity, sold: 0 })),
      () => ({ status: 'released' }),
    );
    return res.quantity;
  }

  // ------------------------------------------------------------------ orders (events)

  /**
   * orders.order.placed: the checkout's held units become sold, per variant; units never held are taken now (never
   * below 0) — from what the checkout held of the product first when a line names no variant.
   */
  async commitOrder(event: OrderPlacedEvent): Promise<void> {
    const { checkoutId, items } = this.orderRefs(event);
    const changed: string[] = [];
    for (const [productId, ordered] of items) {
      const did = await this.locks.withProduct(productId, async () => {
        let res = await this.findOrCreate(checkoutId, productId);
        if (res.status === 'pending') res = await this.resolvePending(res);
        if (res.status === 'committed' || res.status === 'returned') return false; // done before, or already cancelled
        const current = res;
        let sold: ReservationLine[] = [];
        await this.transition(
          res,
          'commit',
          (variants) => {
            const held = current.status === 'held' ? linesOf(current, variants) : [];
            const plan = this.commitPlan(variants, held, ordered);
            sold = plan.sold;
            return plan.deltas;
          },
          () => ({ status: 'committed', quantity: total(ordered), lines: sold, orderId: event.orderId }),
        );
        return true;
      });
      if (did) changed.push(productId);
    }
    this.changed(changed);
  }

  /** What committing an order does to the variants: the held units given back, the ordered ones taken and sold. */
  private commitPlan(
    variants: StoredVariant[],
    held: ReservationLine[],
    ordered: Array<VariantKey & { quantity: number }>,
  ): { deltas: VariantDelta[]; sold: ReservationLine[] } {
    const deltas = new Deltas();
    for (const l of held) deltas.add(l, l.quantity, 0);
    const sold: ReservationLine[] = [];
    const take = (v: VariantKey & { sku: string }, quantity: number) => {
      deltas.add(v, -quantity, quantity);
      sold.push({ size: v.size, color: v.color, sku: v.sku, quantity });
    };
    for (const line of ordered) {
      const variant = orderedVariant(variants, line);
      if (variant) {
        take(variant, line.quantity);
        continue;
      }
      // No variant fits the line: take what the checkout held, then whatever is on the shelf, in the variants' order.
      let left = line.quantity;
      const sources = [
        ...held.map((h) => variants.find((v) => sameKey(v, h))).filter((v): v is StoredVariant => !!v),
        ...variants,
      ];
      for (const v of sources) {
        const available = v.countInStock + deltas.stockOf(v);
        const n = Math.min(left, Math.max(0, available));
        if (n > 0) take(v, n);
        left -= n;
      }
      if (left > 0) {
        // Sold all the same (the order is paid): counted on the product, from no variant's shelf.
        deltas.add(line, 0, left);
        sold.push({ size: line.size, color: line.color, sku: '', quantity: left });
      }
      this.logger.warn(
        `order line matched no variant (size ${line.size}, color ${line.color}): its ${line.quantity} unit(s) taken where there were some`,
      );
    }
    return { deltas: deltas.list(), sold };
  }

  /** orders.order.cancelled: sold units go back on the shelf, once. A later "placed" for the checkout changes nothing. */
  async returnOrder(event: OrderCancelledEvent): Promise<void> {
    const { checkoutId, items } = this.orderRefs(event);
    const known = await this.reservations.find({ checkoutId }).lean<LeanReservation[]>().exec();
    const productIds = new Set([...known.map((r) => r.productId), ...items.keys()]);
    const changed: string[] = [];
    for (const productId of productIds) {
      const did = await this.locks.withProduct(productId, async () => {
        let res = await this.findOrCreate(checkoutId, productId);
        if (res.status === 'pending') res = await this.resolvePending(res);
        if (res.status === 'returned') return false;
        const current = res;
        const change: StockChange | null =
          current.status === 'committed'
            ? (variants) => linesOf(current, variants).map((l) => ({ ...key(l), stock: l.quantity, sold: -l.quantity }))
            : current.status === 'held'
              ? (variants) => linesOf(current, variants).map((l) => ({ ...key(l), stock: l.quantity, sold: 0 }))
              : null;
        await this.transition(res, 'return', change, () => ({ status: 'returned', orderId: event.orderId }));
        return change !== null;
      });
      if (did) changed.push(productId);
    }
    this.changed(changed);
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
    return { checkoutId, items };
  }

  // ------------------------------------------------------------------ expiry

  /** Releases expired holds and finishes abandoned pending ones. Safe on every replica at once. */
  async sweep(now = new Date()): Promise<number> {
    const expired = await this.reservations
      .find({ status: 'held', expiresAt: { $lt: now } }, { _id: 1, productId: 1 })
      .limit(200)
      .lean<LeanReservation[]>()
      .exec();
    const stale = await this.reservations
      .find(
        { status: 'pending', updatedAt: { $lt: new Date(now.getTime() - PENDING_GRACE_MS) } },
        { _id: 1, productId: 1 },
      )
      .limit(200)
      .lean<LeanReservation[]>()
      .exec();
    const changed: string[] = [];
    for (const r of expired) {
      const quantity = await this.locks.withProduct(r.productId, () => this.releaseOne(r._id, now));
      if (quantity > 0) changed.push(r.productId);
    }
    for (const r of stale) {
      await this.locks.withProduct(r.productId, async () => {
        const res = await this.reservations.findById(r._id).lean<LeanReservation>().exec();
        if (res?.status === 'pending') await this.resolvePending(res);
      });
    }
    if (changed.length) this.logger.log(`${changed.length} expired reservation(s) released`);
    this.changed(changed);
    return changed.length;
  }

  // ------------------------------------------------------------------ the two-step transition

  /**
   * Moves a reservation from generation g to g + 1. The product's stock change and the key
   * `<id>:<g>:<verb>` land in one document write; then the reservation is updated with `next()` (called after the
   * change, which may tell it what it did). Run under the product's lock. A retry of the same transition finds the
   * key and skips the stock change. `product`: the product as read under this lock (whole), when the caller has it.
   */
  private async transition(
    res: LeanReservation,
    verb: string,
    change: StockChange | null,
    next: () => Partial<Reservation>,
    product?: LeanProduct,
  ): Promise<LeanReservation> {
    if (change)
      await this.applyToProduct(res.productId, `${String(res._id)}:${res.generation}:${verb}`, change, product);
    const set = { ...next(), generation: res.generation + 1 };
    await this.reservations.updateOne({ _id: res._id }, { $set: set }).exec();
    return { ...res, ...set } as LeanReservation;
  }

  /**
   * Applies a change to the product's variants and sums in one write with the operation's key. The change is
   * computed even when the key shows it was applied before (a retry), so that its caller learns what it did.
   * `known`: the product as read under this lock, which then need not be read again.
   */
  private async applyToProduct(
    productId: string,
    opKey: string,
    change: StockChange,
    known?: LeanProduct,
  ): Promise<'applied' | 'already' | 'missing'> {
    const p =
      known ??
      (await this.products
        .findById(productId, {
          name: 1,
          sku: 1,
          sizes: 1,
          colors: 1,
          countInStock: 1,
          soldCount: 1,
          variants: 1,
          stockJournal: 1,
        })
        .lean<LeanProduct>()
        .exec());
    if (!p) return 'missing'; // deleted meanwhile: nothing to give back to
    const variants = variantsOf(p);
    const deltas = change(variants);
    const journal = p.stockJournal ?? [];
    if (journal.includes(opKey)) return 'already';
    const soldBefore = p.soldCount ?? 0;
    let soldCount = soldBefore;
    for (const d of deltas) {
      soldCount += d.sold;
      const variant = variants.find((v) => sameKey(v, d));
      if (variant) {
        variant.countInStock += d.stock;
        variant.soldCount += d.sold;
      } else if (d.stock !== 0) {
        this.logger.warn(
          `${opKey}: ${d.stock} unit(s) of ${variantLabel(p.name, d)} not put back: the product no longer has that variant`,
        );
      }
    }
    for (const v of variants) {
      if (v.countInStock < 0) {
        this.logger.error(
          `${opKey}: more units of ${variantLabel(p.name, v)} (product ${productId}) sold than were left (${v.countInStock}): stock clamped at 0`,
        );
      }
      v.countInStock = Math.max(0, v.countInStock);
      v.soldCount = Math.max(0, v.soldCount);
    }
    const countInStock = stockOf(variants);
    soldCount = Math.max(0, soldCount);
    // updatedAt set here rather than by mongoose, so that the change log can carry it to every read model.
    const updatedAt = new Date();
    await this.products
      .updateOne(
        { _id: p._id },
        {
          $set: {
            variants,
            countInStock,
            soldCount,
            updatedAt,
            stockJournal: [...journal, opKey].slice(-STOCK_JOURNAL_LENGTH),
          },
        },
        { timestamps: false },
      )
      .exec();
    // Still under the product's lock: writes reach the change log in the order they were made.
    const write = { countInStock, soldCount, updatedAt: updatedAt.toISOString(), variants: toVariantJson(variants) };
    await this.cache.stockChanged(productId, write, soldCount !== soldBefore);
    return 'applied';
  }

  /** A pending reservation whose writer stopped: held if its hold reached the product, else released. */
  private async resolvePending(res: LeanReservation): Promise<LeanReservation> {
    const p = await this.products.findById(res.productId, { stockJournal: 1 }).lean<LeanProduct>().exec();
    const held = !!p?.stockJournal?.includes(`${String(res._id)}:${res.generation}:hold`);
    const set = { status: held ? ('held' as const) : ('released' as const), generation: res.generation + 1 };
    await this.reservations.updateOne({ _id: res._id }, { $set: set }).exec();
    this.logger.warn(`abandoned pending reservation ${String(res._id)} finished as ${set.status}`);
    return { ...res, ...set };
  }

  private async insertReservation(doc: Omit<Reservation, 'createdAt' | 'updatedAt'>): Promise<LeanReservation> {
    try {
      return (await this.reservations.create(doc)).toObject() as LeanReservation;
    } catch (err) {
      if (!isDuplicateKeyError(err)) throw err;
      // The unique index says one exists (a writer outside our lock, e.g. after a lock expiry): use it.
      const existing = await this.reservations
        .findOne({ checkoutId: doc.checkoutId, productId: doc.productId })
        .lean<LeanReservation>()
        .exec();
      if (!existing) throw err;
      return existing;
    }
  }

  /** The checkout's record for a product; a new one (released, nothing held) when there is none. */
  private async findOrCreate(checkoutId: string, productId: string): Promise<LeanReservation> {
    const found = await this.reservations.findOne({ checkoutId, productId }).lean<LeanReservation>().exec();
    return (
      found ??
      this.insertReservation({
        checkoutId,
        productId,
        quantity: 0,
        lines: [],
        status: 'released',
        generation: 0,
        expiresAt: new Date(),
      })
    );
  }

  /** Other services hear of every product whose stock changed (the read models already know: applyToProduct). */
  private changed(productIds: string[]): void {
    for (const productId of new Set(productIds)) {
      this.events.notify<ProductChangedEvent>(EVENTS.catalog.productChanged, { productId });
    }
  }
}

function key(l: VariantKey): VariantKey {
  return { size: l.size, color: l.color };
}
