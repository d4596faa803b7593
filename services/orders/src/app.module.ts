import { Module } from '@nestjs/common';
import { ServiceDefaultsModule } from '@shop/nest-common';
import { AdminOrdersQueryModule } from './admin-orders/admin-orders-query.module';
import { OrdersConfig } from './config/orders.config';
import { OrdersModule } from './orders/orders.module';
import { ReturnsModule } from './returns/returns.module';
import { PaymentsModule } from './payments/payments.module';
import { StatsModule } from './stats/stats.module';

@Module({
  imports: [
    ServiceDefaultsModule.forRoot({ service: 'orders', config: OrdersConfig }),
    OrdersModule,
    ReturnsModule,
    AdminOrdersQueryModule,
    StatsModule,
    PaymentsModule,
  ],
})
export class AppModule {}
