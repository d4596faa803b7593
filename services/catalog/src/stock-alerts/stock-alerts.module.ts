import { Module } from '@nestjs/common';
import { MongooseModule } from '@nestjs/mongoose';
import { rpcClientProvider } from '@shop/nest-common';
import { ProductsModule } from '../products/products.module';
import { StockAlert, StockAlertSchema } from './stock-alert.schema';
import { StockAlertsController } from './stock-alerts.controller';
import { IDENTITY, StockAlertsService } from './stock-alerts.service';
import { StockAlertsSweeper } from './stock-alerts.sweeper';

/** Back-in-stock requests (README "Back-in-stock emails"). */
@Module({
  imports: [MongooseModule.forFeature([{ name: StockAlert.name, schema: StockAlertSchema }]), ProductsModule],
  controllers: [StockAlertsController],
  providers: [StockAlertsService, StockAlertsSweeper, rpcClientProvider('identity', IDENTITY)],
  exports: [StockAlertsService],
})
export class StockAlertsModule {}
