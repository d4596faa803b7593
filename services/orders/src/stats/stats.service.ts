import { Injectable, Logger } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { RECENT_ORDERS, STATS_DAYS, toPounds, type AdminStatsJson } from '@shop/contracts';
import type { Model } from 'mongoose';
import { CatalogProducts } from '../catalog/catalog-products';
import { toOrderJson } from '../orders/order.mapper';
import { NEWEST_FIRST, Order, ORDER_PROJECTION, type LeanOrder } from '../orders/order.schema';
import { revenueByDay, type Sales } from './revenue';
import { SalesDays } from './sales-days';

/**
 * The admin dashboard's figures. The revenue, the order count and the last days come from the sales days (one small
 * document per day that has orders, kept current by SalesDays), never from every order ever placed; the recent
 * orders are an indexed page; the catalog's count is the only remote figure.
 */
@Injectable()
export class StatsService {
  private readonly logger = new Logger(StatsService.name);

  constructor(
    @InjectModel(Order.name) private readonly orders: Model<Order>,
    private readonly salesDays: SalesDays,
    private readonly catalog: CatalogProducts,
  ) {}

  async adminStats(now = new Date()): Promise<AdminStatsJson> {
    const flagged = { externalRefundedAt: { $exists: true } };
    const [days, products, recent, alerts, alertCount] = await Promise.all([
      this.salesDays.all(),
      this.productCount(),
      this.orders.find({}, ORDER_PROJECTION).sort(NEWEST_FIRST).limit(RECENT_ORDERS).lean<LeanOrder[]>().exec(),
      // Payments PayPal gave back outside the shop: the latest, for an admin to look at (a sparse index).
      this.orders
        .find(flagged, ORDER_PROJECTION)
        .sort({ externalRefundedAt: -1 })
        .limit(RECENT_ORDERS * 2)
        .lean<LeanOrder[]>()
        .exec(),
      this.orders.countDocuments(flagged).exec(),
    ]);
    const total = days.reduce(
      (sum, day) => ({ orders: sum.orders + day.orders, revenuePence: sum.revenuePence + day.revenuePence }),
      { orders: 0, revenuePence: 0 },
    );
    return {
      revenue: toPounds(total.revenuePence),
      orders: total.orders,
      products,
      recentOrders: recent.map(toOrderJson),
      revenueByDay: revenueByDay(new Map<string, Sales>(days.map((day) => [day._id, day])), now, STATS_DAYS),
      paymentAlerts: { count: alertCount, orders: alerts.map(toOrderJson) },
    };
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
