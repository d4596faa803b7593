import { Module } from '@nestjs/common';
import { CatalogModule } from '../catalog/catalog.module';
import { OrdersModule } from '../orders/orders.module';
import { AdminStatsController } from './admin-stats.controller';
import { StatsService } from './stats.service';

@Module({
  imports: [OrdersModule, CatalogModule],
  controllers: [AdminStatsController],
  providers: [StatsService],
})
export class StatsModule {}
