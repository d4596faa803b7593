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
  toPounds,
  type ProductChangedEvent,
  type LineRequest,
  type OrderCancelledEvent,
  type OrderPlacedEvent,
  type PricedLine,
  type PriceLinesResponse,
  type ReleaseStockResponse,
  type ReserveStockResponse,
} from '@shop/contracts';
import { EventBus, isDuplicateKeyError } from '@shop/nest-common';
import type { Model } from 'mongoose';
import { CatalogCache } from '../cache/catalog-cache';
import { assetUrlsOf } from '../config/asset-urls';
import { CatalogConfig } from '../config/catalog.config';
import { ProductLocks } from '../products/product-locks';
import { Product, STOCK_JOURNAL_LENGTH, type LeanProduct } from '../products/product.schema';
import { PRODUCT_NOT_FOUND } from '../products/products.service';
import { Reservation, type LeanReservation } from './reservation.schema';

export const MAX_LINE_QUANTITY = 99;
const MAX_LINES = 100;
/** A pending reservation older than this lost its writer (crash, lock expiry) and is finished by the sweeper. */
const PENDING_GRACE_MS = 30_000;
const OBJECT_ID = /^[0-9a-f]{24}$/i;

type StockLevels = { countInStock: number; soldCount: number };
type StockChange = (current: StockLevels) => StockLevels;

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

/** Validates request lines and adds up quantities per product (stock is counted per product, not per size). */
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

/** Why a product cannot take this size or colour, if it cannot. */
function optionProblem(
  product: LeanProduct,
  line: Partial<LineRequest>,
): Pick<PricedLine, 'problem' | 'message'> | undefined {
  if (line.size !== undefined && line.size !== null && !product.sizes.includes(String(line.size))) {
    return { problem: 'size_not_offered', message: `Size ${String(line.size)} is not offered for ${product.name}` };
  }
  if (line.color !== undefined && line.color !== null && !product.colors.includes(String(line.color))) {
    return { problem: 'color_not_offered', message: `Color ${String(line.color)} is not offered for ${product.name}` };
  }
  return undefined;
}

/**
 * Stock that never oversells, on a database whose update operators are not atomic (PITFALLS §3.4).
 *
 * - Every change to a product's stock happens inside that product's Redis lock, as a plain
 *   read-compute-write of absolute values.
 * - Each checkout holds at most one reservation record per product: a unique index on
 *   {checkoutId, productId} decides, whatever races.
 * - Every transition of a reservation (hold, release, commit, return) carries a key that lands in the
 *   product's stock journal in the same single-document write as the stock change, so retrying a
 *   transition (a redelivered event, a second release, a crash half-way) never applies it twice.
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
    await Promise.all([this.reservations.init(), this.products.init()]);
  }

  // ------------------------------------------------------------------ pricing (cart and checkout)

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
    const byId = new Map(found.map((p) => [String(p._id), p]));

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
      const product = byId.get(line.productId.toLowerCase());
      if (!product) return { ...base, problem: 'not_found', message: PRODUCT_NOT_FOUND };
      const described: PricedLine = {
        ...base,
        name: product.name,
        image: assetUrlsOf(this.config).toPublic(product.images?.[0]?.url ?? ''),
        unitPricePence: product.pricePence,
        price: toPounds(product.pricePence),
        sizes: product.sizes,
        colors: product.colors,
        countInStock: product.countInStock,
      };
      if (!isQuantity(line.quantity)) {
        return {
          ...described,
          problem: 'invalid_quantity',
          message: `Quantity must be a whole number from 1 to ${MAX_LINE_QUANTITY}`,
        };
      }
      const option = optionProblem(product, line);
      if (option) return { ...described, ...option };
      if (product.countInStock <= 0)
        return { ...described, problem: 'out_of_stock', message: outOfStockMessage(product.name, 0) };
      if (line.quantity > product.countInStock) {
        return { ...described, problem: 'insufficient_stock', message: `Only ${product.countInStock} left in stock` };
      }
      return { ...described, ok: true };
    });
    const totalPence = priced.filter((l) => l.ok).reduce((sum, l) => sum + (l.unitPricePence ?? 0) * l.quantity, 0);
    return { lines: priced, totalPence, ok: priced.every((l) => l.ok) };
  }

  // ------------------------------------------------------------------ reservations

  /** Holds every line for the checkout, or none. Reserving again for the same checkout is idempotent. */
  async reserve(raw: unknown): Promise<ReserveStockResponse> {
    const req = (raw ?? {}) as { checkoutId?: unknown; lines?: unknown; ttlSeconds?: unknown; notAfter?: unknown };
    const checkoutId = checkoutIdOf(req.checkoutId);
    const wanted = parseLines(req.lines);
    let ttl = this.config.RESERVATION_TTL_SECONDS;
    if (req.ttlSeconds !== undefined) {
      if (
        typeof req.ttlSeconds !== 'number' ||
        !Number.isInteger(req.ttlSeconds) ||
        req.ttlSeconds < 1 ||
        req.ttlSeconds > 86_400
      ) {
        throw new BadRequestException('ttlSeconds must be a whole number from 1 to 86400');
      }
      ttl = req.ttlSeconds;
    }
    const notAfter = req.notAfter === undefined ? undefined : Date.parse(String(req.notAfter));
    if (Number.isNaN(notAfter)) throw new BadRequestException('notAfter must be an ISO time');
    const expiresAt = new Date(Date.now() + ttl * 1000);
    const ids = [...wanted.keys()];
    const changed: string[] = [];

    // The caller gave up waiting (busy locks, or a database that answered late): hold nothing it would never hear of.
    const refuseIfGivenUp = (when: string) => {
      if (notAfter === undefined || Date.now() <= notAfter) return;
      this.logger.warn(`reservation for checkout ${checkoutId} ${when} its caller gave up: not applied`);
      throw new ServiceUnavailableException('The reservation request expired');
    };
    const reserved = await this.locks.withProducts(ids, async () => {
      refuseIfGivenUp('arrived after');
      const products = await this.products
        .find({ _id: { $in: ids } }, { stockJournal: 0 })
        .lean<LeanProduct[]>()
        .exec();
      const byId = new Map(products.map((p) => [String(p._id), p]));
      const existing = await this.reservations
        .find({ checkoutId, productId: { $in: ids } })
        .lean<LeanReservation[]>()
        .exec();
      const resById = new Map<string, LeanReservation>();
      // A pending record here lost its writer (we hold the lock): settle it before counting what is held.
      for (const r of existing) resById.set(r.productId, r.status === 'pending' ? await this.resolvePending(r) : r);

      // Check everything first: nothing is held unless everything can be.
      for (const [id, { quantity, lines }] of wanted) {
        const product = byId.get(id);
        if (!product || !product.isPublished) throw new NotFoundException(PRODUCT_NOT_FOUND);
        for (const line of lines) {
          const option = optionProblem(product, line);
          if (option) throw new BadRequestException(option.message);
        }
        const res = resById.get(id);
        const alreadyHeld = res?.status === 'held' ? res.quantity : 0;
        if (res?.status !== 'committed' && quantity - alreadyHeld > product.countInStock) {
          throw new ConflictException(outOfStockMessage(product.name, product.countInStock + alreadyHeld));
        }
      }

      // The reads above may have waited out a database outage: nothing is written for a caller who left meanwhile.
      refuseIfGivenUp('was read after');
      for (const [id, { quantity }] of wanted) {
        let res = resById.get(id);
        if (res?.status === 'committed') continue; // this checkout's order already took these units
        if (res?.status === 'held') {
          if (res.quantity === quantity) {
            await this.reservations.updateOne({ _id: res._id }, { $set: { expiresAt } }).exec();
            continue;
          }
          const delta = quantity - res.quantity;
          await this.transition(res, `resize-${quantity}`, (s) => ({ ...s, countInStock: s.countInStock - delta }), {
            status: 'held',
            quantity,
            expiresAt,
          });
          changed.push(id);
          continue;
        }
        // none, released or returned: hold afresh, announcing the intent first (pending) so a crash is recoverable.
        if (!res)
          res = await this.insertReservation({
            checkoutId,
            productId: id,
            quantity,
            status: 'pending',
            generation: 0,
            expiresAt,
          });
        else {
          await this.reservations
            .updateOne({ _id: res._id }, { $set: { status: 'pending', quantity, expiresAt } })
            .exec();
          res = { ...res, status: 'pending', quantity, expiresAt };
        }
        await this.transition(res, 'hold', (s) => ({ ...s, countInStock: s.countInStock - quantity }), {
          status: 'held',
          expiresAt,
        });
        changed.push(id);
      }
      return ids.map((id) => {
        const product = byId.get(id)!;
        return {
          productId: id,
          quantity: wanted.get(id)!.quantity,
          name: product.name,
          unitPricePence: product.pricePence,
        };
      });
    });

    this.changed(changed);
    return { checkoutId, expiresAt: expiresAt.toISOString(), lines: reserved };
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
    const quantity = res.quantity;
    await this.transition(res, 'release', (s) => ({ ...s, countInStock: s.countInStock + quantity }), {
      status: 'released',
    });
    return quantity;
  }

  // ------------------------------------------------------------------ orders (events)

  /** orders.order.placed: the checkout's held units become sold; units never held are taken now (never below 0). */
  async commitOrder(event: OrderPlacedEvent): Promise<void> {
    const { checkoutId, items } = this.orderRefs(event);
    const changed: string[] = [];
    for (const [productId, quantity] of items) {
      const did = await this.locks.withProduct(productId, async () => {
        let res = await this.findOrCreate(checkoutId, productId);
        if (res.status === 'pending') res = await this.resolvePending(res);
        if (res.status === 'committed' || res.status === 'returned') return false; // done before, or already cancelled
        const held = res.status === 'held' ? res.quantity : 0;
        await this.transition(
          res,
          'commit',
          (s) => {
            const needed = quantity - held;
            if (needed > s.countInStock) {
              this.logger.error(
                `order placed for more units than are left: product ${productId}, checkout ${checkoutId}, needed ${needed}, available ${s.countInStock}; stock clamped at 0`,
              );
            }
            return { countInStock: s.countInStock - needed, soldCount: s.soldCount + quantity };
          },
          { status: 'committed', quantity, orderId: event.orderId },
        );
        return true;
      });
      if (did) changed.push(productId);
    }
    this.changed(changed);
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
        const { status, quantity } = res;
        const change: StockChange | null =
          status === 'committed'
            ? (s) => ({ countInStock: s.countInStock + quantity, soldCount: s.soldCount - quantity })
            : status === 'held'
              ? (s) => ({ ...s, countInStock: s.countInStock + quantity })
              : null;
        await this.transition(res, 'return', change, { status: 'returned', orderId: event.orderId });
        return change !== null;
      });
      if (did) changed.push(productId);
    }
    this.changed(changed);
  }

  private orderRefs(event: OrderPlacedEvent | OrderCancelledEvent): { checkoutId: string; items: Map<string, number> } {
    const checkoutId =
      typeof event?.checkoutId === 'string' && event.checkoutId
        ? event.checkoutId
        : typeof event?.orderId === 'string' && event.orderId
          ? `order:${event.orderId}`
          : '';
    if (!checkoutId) throw new Error('order event without checkoutId or orderId');
    const items = new Map<string, number>();
    for (const item of Array.isArray(event.items) ? event.items : []) {
      if (typeof item?.productId !== 'string' || !OBJECT_ID.test(item.productId) || !isQuantity(item.quantity)) {
        this.logger.warn(
          `order item skipped (checkout ${checkoutId}): not a product id and quantity: ${JSON.stringify(item)}`,
        );
        continue;
      }
      const id = item.productId.toLowerCase();
      items.set(id, (items.get(id) ?? 0) + item.quantity);
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
   * `<id>:<g>:<verb>` land in one document write; then the reservation is updated. Run under the
   * product's lock. A retry of the same transition finds the key and skips the stock change.
   */
  private async transition(
    res: LeanReservation,
    verb: string,
    change: StockChange | null,
    next: Partial<Reservation>,
  ): Promise<LeanReservation> {
    if (change) await this.applyToProduct(res.productId, `${String(res._id)}:${res.generation}:${verb}`, change);
    const set = { ...next, generation: res.generation + 1 };
    await this.reservations.updateOne({ _id: res._id }, { $set: set }).exec();
    return { ...res, ...set } as LeanReservation;
  }

  private async applyToProduct(
    productId: string,
    opKey: string,
    change: StockChange,
  ): Promise<'applied' | 'already' | 'missing'> {
    const p = await this.products
      .findById(productId, { countInStock: 1, soldCount: 1, stockJournal: 1 })
      .lean<LeanProduct>()
      .exec();
    if (!p) return 'missing'; // deleted meanwhile: nothing to give back to
    const journal = p.stockJournal ?? [];
    if (journal.includes(opKey)) return 'already';
    const soldBefore = p.soldCount ?? 0;
    const next = change({ countInStock: p.countInStock, soldCount: soldBefore });
    const countInStock = Math.max(0, next.countInStock);
    const soldCount = Math.max(0, next.soldCount);
    // updatedAt set here rather than by mongoose, so that the change log can carry it to every read model.
    const updatedAt = new Date();
    await this.products
      .updateOne(
        { _id: p._id },
        {
          $set: {
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
    const write = { countInStock, soldCount, updatedAt: updatedAt.toISOString() };
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
