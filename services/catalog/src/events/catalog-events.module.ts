import { Module } from '@nestjs/common';
import { ReviewsModule } from '../reviews/reviews.module';
import { StockModule } from '../stock/stock.module';
import { CatalogEvents } from './catalog-events';

@Module({
  imports: [StockModule, ReviewsModule],
  providers: [CatalogEvents],
})
export class CatalogEventsModule {}
