import { Module } from '@nestjs/common';
import { MongooseModule } from '@nestjs/mongoose';
import { PayPalModule } from '../paypal/paypal.module';
import { PeersModule } from '../peers/peers';
import { CheckoutFinalizer } from './checkout-finalizer';
import { Checkout, CheckoutSchema } from './checkout.schema';
import { CheckoutsController } from './checkouts.controller';
import { CheckoutsService } from './checkouts.service';
import { Payment, PaymentSchema } from './payment.schema';

@Module({
  imports: [
    MongooseModule.forFeature([
      { name: Checkout.name, schema: CheckoutSchema },
      { name: Payment.name, schema: PaymentSchema },
    ]),
    PayPalModule,
    PeersModule,
  ],
  controllers: [CheckoutsController],
  providers: [CheckoutsService, CheckoutFinalizer],
})
export class CheckoutsModule {}
