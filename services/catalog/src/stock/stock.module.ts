import { Module } from '@nestjs/common';
import { MongooseModule } from '@nestjs/mongoose';
import { ProductsModule } from '../products/products.module';
import { Reservation, ReservationSchema } from './reservation.schema';
import { StockEvents } from './stock.events';
import { StockMessages } from './stock.messages';
import { StockService } from './stock.service';

@Module({
  imports: [ProductsModule, MongooseModule.forFeature([{ name: Reservation.name, schema: ReservationSchema }])],
  controllers: [StockMessages],
  providers: [StockService, StockEvents],
  exports: [StockService],
})
export class StockModule {}
