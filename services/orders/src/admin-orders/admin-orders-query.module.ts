import { Module } from '@nestjs/common';
import { OrdersModule } from '../orders/orders.module';
import { AdminOrderQueriesController } from './admin-order-queries.controller';
import { AdminOrdersQueryService } from './admin-orders-query.service';
import { SearchKeysBackfill } from './search-keys.backfill';

/** The admin's list, order page and CSV export of orders (issue 25). */
@Module({
  imports: [OrdersModule],
  controllers: [AdminOrderQueriesController],
  providers: [AdminOrdersQueryService, SearchKeysBackfill],
})
export class AdminOrdersQueryModule {}
