import { Module } from '@nestjs/common';
import { ServiceDefaultsModule } from '@shop/nest-common';
import { CheckoutsModule } from './checkouts/checkouts.module';
import { CheckoutConfig } from './config/checkout.config';
import { PayPalWebhooksModule } from './paypal/webhooks/paypal-webhooks.module';
import { RefundsModule } from './refunds/refunds.module';
import { ShopConfigModule } from './shop-config/shop-config.module';

@Module({
  imports: [
    ServiceDefaultsModule.forRoot({ service: 'checkout', config: CheckoutConfig }),
    CheckoutsModule,
    RefundsModule,
    PayPalWebhooksModule,
    ShopConfigModule,
  ],
})
export class AppModule {}
