import {
  Inject,
  Injectable,
  Logger,
  OnApplicationBootstrap,
  OnApplicationShutdown,
  OnModuleInit,
  ServiceUnavailableException,
} from '@nestjs/common';
import { InjectConnection, InjectModel } from '@nestjs/mongoose';
import { assertDatabaseReachable, REDIS, withRedisLock } from '@shop/nest-common';
import type Redis from 'ioredis';
import type { Connection, Model } from 'mongoose';
import { setTimeout as sleep } from 'node:timers/promises';
import { OrdersConfig } from '../config/orders.config';
import { ORDER_REMOVALS, type OrderRemoval } from '../orders/order-removals';
import { Order, type LeanOrder } from '../orders/order.schema';
import { dayBounds, REVENUE_PROJECTION, salesOf, utcDay, type RevenueFields, type Sales } from './revenue';
import { SALES_DAYS_WATERMARK, SalesDay } from './sales-day.schema';

/**
 * How far before the watermark a catch-up looks: an order's `updatedAt` is stamped by the writing replica before its
 * write commits (and by that replica's clock), so a change stamped just before a catch-up began may only become
 * visible after that catch-up read. Looking a minute further back finds it the next time.
 */
export const WATERMARK_OVERLAP_MS = 60_000;

/** How long a day's lock lives if its holder dies (ms): well beyond the longest recompute of a day. */
const DAY_LOCK_TTL_MS = 30_000;

/** How long a dashboard read waits for this replica's first build of the days before answering 503. */
const BUILD_WAIT_MS = 2_000;

/** 503 while the days are first built from the orders there are (once per database, at the first start). */
export const SALES_DAYS_BUILDING =
  "The dashboard's figures are being worked out from the orders already placed; please try again in a minute";

type WatermarkDoc = { _id: string; at: Date };

/**
 * The dashboard's read model: one document per UTC day that has orders (`sales_days`, SalesDay), so the dashboard
 * reads a few hundred small documents rather than every order ever placed.
 *
 * A day's document is recomputed from that day's orders (a range on the indexed `createdAt`), under the day's Redis
 * lock, never incremented: whenever and however often it runs, it ends exact (two recomputes unserialised could
 * write an older reading last).
 *
 * Which days: a catch-up recomputes the days of the orders changed (`updatedAt`) or removed (`order_removals`)
 * since the watermark, less WATERMARK_OVERLAP_MS, then moves the watermark to the catch-up's start. One runs before
 * every dashboard read, so the figures are current, and every SALES_DAYS_SWEEP_MS so that read has little to do.
 * Without a watermark (the first start over existing orders), every day with orders is built first, one day at a
 * time, in the background; the dashboard answers 503 until then.
 */
@Injectable()
export class SalesDays implements OnModuleInit, OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(SalesDays.name);
  private readonly lockPrefix: string;
  private timer?: NodeJS.Timeout;
  private stopping = false;
  /** This replica's build of every day, while it runs. */
  private building?: Promise<void>;
  /** The catch-up running, and the one queued after it (shared by everyone who asks meanwhile). */
  private current?: Promise<boolean>;
  private next?: Promise<boolean>;
  /**
   * The writes (`<order id>@<updatedAt>@<status>`, or `<order id>@removed`) whose days this replica recomputed after
   * finding them, with their time; forgotten once older than the overlap (catchUpOnce).
   */
  private readonly counted = new Map<string, number>();

  constructor(
    @InjectModel(Order.name) private readonly orders: Model<Order>,
    @InjectModel(SalesDay.name) private readonly days: Model<SalesDay>,
    @InjectConnection() private readonly connection: Connection,
    @Inject(REDIS) private readonly redis: Redis,
    private readonly config: OrdersConfig,
  ) {
    this.lockPrefix = `${config.RABBITMQ_NAMESPACE}orders:sales-day:`;
  }

  /** The catch-up reads the removals recorded since the watermark: a range this index serves. */
  async onModuleInit(): Promise<void> {
    await this.connection.collection(ORDER_REMOVALS).createIndex({ removedAt: 1 });
  }

  onApplicationBootstrap(): void {
    this.build();
    this.timer = setInterval(() => void this.tick(), this.config.SALES_DAYS_SWEEP_MS);
    this.timer.unref();
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopping = true;
    clearInterval(this.timer);
    await Promise.all([this.building, this.current?.catch(() => undefined)]);
  }

  /**
   * Every day that has orders, current as of this call: what the dashboard reads. Catches up first; while the days
   * are first being built, waits a moment for this replica's build, then answers 503.
   */
  async all(): Promise<Array<Sales & { _id: string }>> {
    if (!(await this.catchUp())) {
      await Promise.race([this.build(), sleep(BUILD_WAIT_MS, undefined, { ref: false })]);
      if (!(await this.catchUp())) throw new ServiceUnavailableException(SALES_DAYS_BUILDING);
    }
    return this.days.find({}, { orders: 1, revenuePence: 1 }).lean<Array<Sales & { _id: string }>>().exec();
  }

  /**
   * Recomputes the days of the orders changed or removed since the watermark; resolves false, doing nothing, while
   * the days have not been built. A caller who asks while one runs gets the next one: the running one may have read
   * the orders before the caller's change.
   */
  catchUp(): Promise<boolean> {
    if (!this.current) return this.startCatchUp();
    this.next ??= this.current
      .catch(() => undefined)
      .then(() => {
        this.next = undefined;
        return this.startCatchUp();
      });
    return this.next;
  }

  /** Recomputes one day (`YYYY-MM-DD`) from its orders, under the day's lock; a day left without orders goes. */
  async recomputeDay(day: string): Promise<Sales> {
    return withRedisLock(
      this.redis,
      this.lockPrefix + day,
      async () => {
        const { start, end } = dayBounds(day);
        const placed = await this.orders
          .find({ createdAt: { $gte: start, $lt: end } }, REVENUE_PROJECTION)
          .lean<RevenueFields[]>()
          .exec();
        const sales = salesOf(placed);
        if (sales.orders === 0) await this.days.deleteOne({ _id: day }).exec();
        else await this.days.replaceOne({ _id: day }, { ...sales, computedAt: new Date() }, { upsert: true }).exec();
        return sales;
      },
      // Reading a day would outlast the default 10 s past about 5,000 orders a day on the dev server.
      { ttlMs: DAY_LOCK_TTL_MS, requires: () => assertDatabaseReachable(this.connection) },
    );
  }

  /**
   * Builds every day once when there is no watermark (the first start over existing orders; again after a build that
   * did not finish). Runs at most once at a time in this replica; resolves when done or failed (logged).
   */
  build(): Promise<void> {
    this.building ??= this.buildDays()
      .catch((err: Error) =>
        this.logger.warn({ msg: 'sales days not built yet: tried again shortly', err: err.message }),
      )
      .finally(() => (this.building = undefined));
    return this.building;
  }

  private async tick(): Promise<void> {
    try {
      if (!(await this.catchUp())) await this.build();
    } catch (err) {
      this.logger.warn({ msg: 'sales days not caught up: tried again shortly', err: (err as Error).message });
    }
  }

  private startCatchUp(): Promise<boolean> {
    const run: Promise<boolean> = this.catchUpOnce().finally(() => {
      if (this.current === run) this.current = undefined;
    });
    this.current = run;
    return run;
  }

  /**
   * The catch-up's query finds a write again and again while it is within the overlap; once a recompute of its day
   * has read the orders after the write was found, it is in the day's figures, and finding it again needs no
   * recompute. So a dashboard read recomputes the days of what changed since the last catch-up, not of everything
   * changed in the last minute.
   */
  private async catchUpOnce(): Promise<boolean> {
    const startedAt = new Date();
    const watermark = await this.watermark();
    if (!watermark) return false;
    const since = new Date(watermark.getTime() - WATERMARK_OVERLAP_MS);
    const [changed, removed] = await Promise.all([
      this.orders
        .find({ updatedAt: { $gt: since } }, { createdAt: 1, updatedAt: 1, status: 1 })
        .lean<Array<Pick<LeanOrder, '_id' | 'createdAt' | 'updatedAt' | 'status'>>>()
        .exec(),
      this.connection
        .collection<OrderRemoval>(ORDER_REMOVALS)
        .find({ removedAt: { $gt: since } })
        .toArray(),
    ]);
    const writes = [
      ...changed.map((o) => ({ key: `${String(o._id)}@${o.updatedAt.getTime()}@${o.status}`, at: o.updatedAt, ...o })),
      ...removed.map((r) => ({ key: `${r._id}@removed`, at: r.removedAt, createdAt: r.createdAt })),
    ].filter((write) => write.createdAt && !this.counted.has(write.key));
    const days = new Set(writes.map((write) => utcDay(write.createdAt)));
    for (const day of [...days].sort()) await this.recomputeDay(day);
    for (const write of writes) this.counted.set(write.key, write.at.getTime());
    for (const [key, at] of this.counted) if (at <= since.getTime()) this.counted.delete(key);
    await this.moveWatermark(watermark, startedAt);
    return true;
  }

  /**
   * Every day from the first order's to the last order's, jumping over days without orders (one indexed query finds
   * the next order), so that no query reads more than a day of orders; then the days recorded that have no orders
   * any more (a build cut short, then orders removed). The watermark is set to the build's start last: a change made
   * meanwhile is caught up from there.
   */
  private async buildDays(): Promise<void> {
    if (await this.watermark()) return;
    const startedAt = new Date();
    this.logger.log({ msg: 'building the sales days from the orders' });
    const built = new Set<string>();
    let orders = 0;
    for (let next = await this.firstPlacedFrom(undefined); next && !this.stopping;) {
      const day = utcDay(next);
      orders += (await this.recomputeDay(day)).orders;
      built.add(day);
      next = await this.firstPlacedFrom(dayBounds(day).end);
    }
    if (this.stopping) return;
    const recorded = await this.days.find({}, { _id: 1 }).lean<Array<{ _id: string }>>().exec();
    for (const { _id } of recorded) if (!built.has(_id)) await this.recomputeDay(_id);
    await this.setWatermark(startedAt);
    this.logger.log({
      msg: 'sales days built',
      days: built.size,
      orders,
      ms: Date.now() - startedAt.getTime(),
    });
  }

  /** When the first order placed at or after `from` (or at all) was placed: a range and sort the createdAt index serves. */
  private async firstPlacedFrom(from: Date | undefined): Promise<Date | undefined> {
    const first = await this.orders
      .findOne({ createdAt: { $gte: from ?? new Date(0) } }, { createdAt: 1 })
      .sort({ createdAt: 1 })
      .lean<Pick<Order, 'createdAt'>>()
      .exec();
    return first?.createdAt;
  }

  private watermarks() {
    return this.connection.collection<WatermarkDoc>(SALES_DAYS_WATERMARK.collection);
  }

  private async watermark(): Promise<Date | undefined> {
    return (await this.watermarks().findOne({ _id: SALES_DAYS_WATERMARK.id }))?.at;
  }

  /** Set by a build: every day is counted as of `at`. */
  private async setWatermark(at: Date): Promise<void> {
    await this.watermarks().replaceOne({ _id: SALES_DAYS_WATERMARK.id }, { at }, { upsert: true });
  }

  /**
   * Moved by a catch-up, only from where it read it and never recreated: a watermark forgotten meanwhile (the
   * synthetic seed, rebuildSalesDays) stays forgotten, so the build runs. Not atomic on FerretDB, and need not be: two
   * catch-ups that race leave one of their starts, and either is covered.
   */
  private async moveWatermark(from: Date, to: Date): Promise<void> {
    await this.watermarks().updateOne({ _id: SALES_DAYS_WATERMARK.id, at: from }, { $set: { at: to } });
  }
}
