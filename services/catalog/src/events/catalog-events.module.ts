import { Module } from '@nestjs/common';
import { ReviewsModule } from '../reviews/reviews.module';
import { StockAlertsModule } from '../stock-alerts/stock-alerts.module';
import { StockModule } from '../stock/stock.module';
import { CatalogEvents } from './catalog-events';

@Module({
  imports: [StockModule, ReviewsModule, StockAlertsModule],
  providers: [CatalogEvents],
})
export class CatalogEventsModule {}
