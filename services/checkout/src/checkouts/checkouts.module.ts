import { Module } from '@nestjs/common';
import { MongooseModule } from '@nestjs/mongoose';
import { AdminDiscountsController } from '../discounts/admin-discounts.controller';
import { DiscountBackfill } from '../discounts/discount-backfill';
import { DiscountEvents } from '../discounts/discount-events';
import {
  DiscountCode,
  DiscountCodeSchema,
  DiscountCustomer,
  DiscountCustomerSchema,
  DiscountSlot,
  DiscountSlotSchema,
  DiscountUse,
  DiscountUseSchema,
  WelcomeCode,
  WelcomeCodeSchema,
} from '../discounts/discount.schema';
import { DiscountsService } from '../discounts/discounts.service';
import { WelcomeCodes } from '../discounts/welcome-codes';
import { PayPalModule } from '../paypal/paypal.module';
import { PeersModule } from '../peers/peers';
import { CheckoutFinalizer } from './checkout-finalizer';
import { CheckoutHoldsMessages } from './checkout-holds.messages';
import { CheckoutLocks } from './checkout-locks';
import { Checkout, CheckoutSchema } from './checkout.schema';
import { CheckoutsController } from './checkouts.controller';
import { CheckoutsService } from './checkouts.service';
import { Payment, PaymentSchema } from './payment.schema';

/** Checkouts and the discount codes they apply (checkout owns pricing). */
@Module({
  imports: [
    MongooseModule.forFeature([
      { name: Checkout.name, schema: CheckoutSchema },
      { name: Payment.name, schema: PaymentSchema },
      { name: DiscountCode.name, schema: DiscountCodeSchema },
      { name: DiscountCustomer.name, schema: DiscountCustomerSchema },
      { name: DiscountSlot.name, schema: DiscountSlotSchema },
      { name: DiscountUse.name, schema: DiscountUseSchema },
      { name: WelcomeCode.name, schema: WelcomeCodeSchema },
    ]),
    PayPalModule,
    PeersModule,
  ],
  controllers: [CheckoutsController, CheckoutHoldsMessages, AdminDiscountsController],
  providers: [
    CheckoutLocks,
    CheckoutsService,
    DiscountBackfill,
    DiscountsService,
    WelcomeCodes,
    DiscountEvents,
    CheckoutFinalizer,
  ],
  // PayPal's webhooks (src/paypal/webhooks/) pay a checkout through pay itself, and give back a denied one's code.
  exports: [CheckoutsService, DiscountsService],
})
export class CheckoutsModule {}
