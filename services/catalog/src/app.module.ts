import { Module } from '@nestjs/common';
import { ServiceDefaultsModule } from '@shop/nest-common';
import { CatalogConfig } from './config/catalog.config';
import { CatalogEventsModule } from './events/catalog-events.module';
import { ProductsModule } from './products/products.module';
import { ReviewsModule } from './reviews/reviews.module';
import { StockAlertsModule } from './stock-alerts/stock-alerts.module';
import { StockModule } from './stock/stock.module';
import { UploadsModule } from './uploads/uploads.module';

@Module({
  imports: [
    ServiceDefaultsModule.forRoot({ service: 'catalog', config: CatalogConfig }),
    ProductsModule,
    StockModule,
    UploadsModule,
    ReviewsModule,
    StockAlertsModule,
    CatalogEventsModule,
  ],
})
export class AppModule {}
