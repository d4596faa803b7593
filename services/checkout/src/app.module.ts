import { Module } from '@nestjs/common';
import { ServiceDefaultsModule } from '@shop/nest-common';
import { CheckoutsModule } from './checkouts/checkouts.module';
import { CheckoutConfig } from './config/checkout.config';
import { ShopConfigModule } from './shop-config/shop-config.module';

@Module({
  imports: [
    ServiceDefaultsModule.forRoot({ service: 'checkout', config: CheckoutConfig }),
    CheckoutsModule,
    ShopConfigModule,
  ],
})
export class AppModule {}
