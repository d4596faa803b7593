import { Module } from '@nestjs/common';
import { ProductsModule } from '../products/products.module';
import { StockEvents } from './stock.events';
import { StockMessages } from './stock.messages';
import { StockService } from './stock.service';

@Module({
  // The Reservation model is registered by ProductsModule (admin edits read the holds).
  imports: [ProductsModule],
  controllers: [StockMessages],
  providers: [StockService, StockEvents],
  exports: [StockService],
})
export class StockModule {}
