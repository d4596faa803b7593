import { Module } from '@nestjs/common';
import { MongooseModule } from '@nestjs/mongoose';
import { CatalogModule } from '../catalog/catalog.module';
import { OrdersModule } from '../orders/orders.module';
import { AdminStatsController } from './admin-stats.controller';
import { SalesDay, SalesDaySchema } from './sales-day.schema';
import { SalesDays } from './sales-days';
import { StatsService } from './stats.service';

@Module({
  imports: [OrdersModule, CatalogModule, MongooseModule.forFeature([{ name: SalesDay.name, schema: SalesDaySchema }])],
  controllers: [AdminStatsController],
  providers: [StatsService, SalesDays],
})
export class StatsModule {}
