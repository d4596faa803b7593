import { Module } from '@nestjs/common';
import { OrdersModule } from '../orders/orders.module';
import { PaymentAlertsController } from './payment-alerts.controller';
import { PaymentReversalsMessages } from './payment-reversals.messages';
import { PaymentReversals } from './payment-reversals.service';

/** What PayPal reports about an order's payment after the fact (through checkout's webhooks), and its review. */
@Module({
  imports: [OrdersModule],
  controllers: [PaymentReversalsMessages, PaymentAlertsController],
  providers: [PaymentReversals],
})
export class PaymentsModule {}
