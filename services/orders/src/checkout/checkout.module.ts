import { Module } from '@nestjs/common';
import { rpcClientProvider } from '@shop/nest-common';
import { CheckoutPayments } from './checkout-payments';

/** Checkout as orders reaches it: a RabbitMQ request client. */
@Module({
  providers: [rpcClientProvider('checkout'), CheckoutPayments],
  exports: [CheckoutPayments],
})
export class CheckoutModule {}
