import { Module } from '@nestjs/common';
import { MongooseModule } from '@nestjs/mongoose';
import { CheckoutLocks } from '../../checkouts/checkout-locks';
import { Checkout, CheckoutSchema } from '../../checkouts/checkout.schema';
import { CheckoutsModule } from '../../checkouts/checkouts.module';
import { Payment, PaymentSchema } from '../../checkouts/payment.schema';
import { PeersModule } from '../../peers/peers';
import { PayPalModule } from '../paypal.module';
import { PayPalWebhooksController } from './paypal-webhooks.controller';
import { PayPalWebhooksService } from './paypal-webhooks.service';
import { PayPalWebhookEvent, PayPalWebhookEventSchema } from './webhook-event.schema';

/** PayPal's webhooks: verified, handled once per event, reconciled with checkouts, payments and orders. */
@Module({
  imports: [
    MongooseModule.forFeature([
      { name: PayPalWebhookEvent.name, schema: PayPalWebhookEventSchema },
      { name: Checkout.name, schema: CheckoutSchema },
      { name: Payment.name, schema: PaymentSchema },
    ]),
    CheckoutsModule,
    PayPalModule,
    PeersModule,
  ],
  controllers: [PayPalWebhooksController],
  providers: [PayPalWebhooksService, CheckoutLocks],
})
export class PayPalWebhooksModule {}
