import { Module } from '@nestjs/common';
import { ProductsModule } from '../products/products.module';
import { HoldsMigration } from './holds.migration';
import { StockEvents } from './stock.events';
import { StockMessages } from './stock.messages';
import { StockService } from './stock.service';

@Module({
  imports: [ProductsModule],
  controllers: [StockMessages],
  providers: [StockService, StockEvents, HoldsMigration],
  exports: [StockService],
})
export class StockModule {}
