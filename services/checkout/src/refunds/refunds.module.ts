import { Module } from '@nestjs/common';
import { MongooseModule } from '@nestjs/mongoose';
import { CheckoutLocks } from '../checkouts/checkout-locks';
import { Payment, PaymentSchema } from '../checkouts/payment.schema';
import { PayPalModule } from '../paypal/paypal.module';
import { OrderRefundsService } from './order-refunds.service';
import { RefundsMessages } from './refunds.messages';

/** Refunds of the payments of cancelled orders (checkout owns the payments and is the one that talks to PayPal). */
@Module({
  imports: [MongooseModule.forFeature([{ name: Payment.name, schema: PaymentSchema }]), PayPalModule],
  controllers: [RefundsMessages],
  providers: [OrderRefundsService, CheckoutLocks],
})
export class RefundsModule {}
