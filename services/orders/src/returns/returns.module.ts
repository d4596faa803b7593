import { Module } from '@nestjs/common';
import { CheckoutModule } from '../checkout/checkout.module';
import { OrdersModule } from '../orders/orders.module';
import { AdminReturnsController } from './admin-returns.controller';
import { ReturnRefunds } from './return-refunds';
import { ReturnsController } from './returns.controller';
import { ReturnsService } from './returns.service';

/** Returns of delivered orders and their partial refunds (issue 38). */
@Module({
  imports: [OrdersModule, CheckoutModule],
  controllers: [ReturnsController, AdminReturnsController],
  providers: [ReturnsService, ReturnRefunds],
  exports: [ReturnsService],
})
export class ReturnsModule {}
