import { Module } from '@nestjs/common';
import { rpcClientProvider } from '@shop/nest-common';
import { ProductsModule } from '../products/products.module';
import { CheckoutHolds } from './checkout-holds';
import { HoldsMigration } from './holds.migration';
import { StockEvents } from './stock.events';
import { StockMessages } from './stock.messages';
import { StockReads } from './stock-reads';
import { StockService } from './stock.service';

@Module({
  imports: [ProductsModule],
  controllers: [StockMessages],
  providers: [rpcClientProvider('checkout'), CheckoutHolds, StockService, StockReads, StockEvents, HoldsMigration],
  exports: [StockService],
})
export class StockModule {}
