import { Injectable, Logger } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { RECENT_ORDERS, STATS_DAYS, toPounds, type AdminStatsJson } from '@shop/contracts';
import type { Model } from 'mongoose';
import { CatalogProducts } from '../catalog/catalog-products';
import { toOrderJson } from '../orders/order.mapper';
import { NEWEST_FIRST, Order, ORDER_PROJECTION, type LeanOrder } from '../orders/order.schema';
import { EARNS_REVENUE, firstDayOf, revenueByDay, revenuePenceOf, type RevenueFields } from './revenue';

/** The admin dashboard's figures. Every part is read at once; the catalog's count is the only remote one. */
@Injectable()
export class StatsService {
  private readonly logger = new Logger(StatsService.name);

  constructor(
    @InjectModel(Order.name) private readonly orders: Model<Order>,
    private readonly catalog: CatalogProducts,
  ) {}

  async adminStats(now = new Date()): Promise<AdminStatsJson> {
    const [revenuePence, orders, products, recent, ofLastDays] = await Promise.all([
      this.revenuePence(),
      this.orders.countDocuments().exec(),
      this.productCount(),
      this.orders.find({}, ORDER_PROJECTION).sort(NEWEST_FIRST).limit(RECENT_ORDERS).lean<LeanOrder[]>().exec(),
      this.orders
        .find(
          { createdAt: { $gte: firstDayOf(now, STATS_DAYS) } },
          { createdAt: 1, totalPence: 1, isPaid: 1, status: 1, statusHistory: 1 },
        )
        .lean<RevenueFields[]>()
        .exec(),
    ]);
    return {
      revenue: toPounds(revenuePence),
      orders,
      products,
      recentOrders: recent.map(toOrderJson),
      revenueByDay: revenueByDay(ofLastDays, now, STATS_DAYS),
    };
  }

  /**
   * Summed by the database ($match + $group with $sum: the accumulator both MongoDB and FerretDB serve), less the
   * refunds of the few orders that record one, read and taken off here (revenuePenceOf: never below zero).
   */
  private async revenuePence(): Promise<number> {
    const [[sum], refunded] = await Promise.all([
      this.orders
        .aggregate<{ pence: number }>([
          { $match: EARNS_REVENUE },
          { $group: { _id: null, pence: { $sum: '$totalPence' } } },
        ])
        .exec(),
      this.orders
        .find(
          { ...EARNS_REVENUE, 'statusHistory.refund': { $exists: true } },
          { createdAt: 1, totalPence: 1, isPaid: 1, status: 1, statusHistory: 1 },
        )
        .lean<RevenueFields[]>()
        .exec(),
    ]);
    const refunds = refunded.reduce((off, order) => off + order.totalPence - revenuePenceOf(order), 0);
    return (sum?.pence ?? 0) - refunds;
  }

  /** The catalog's count, or null when it does not answer: a dashboard never fails for one figure. */
  private async productCount(): Promise<number | null> {
    try {
      return await this.catalog.count();
    } catch (err) {
      this.logger.warn({ msg: 'product count unavailable: the dashboard shows none', err: (err as Error).message });
      return null;
    }
  }
}
