import { Module } from '@nestjs/common';
import { MongooseModule } from '@nestjs/mongoose';
import { CheckoutModule } from '../checkout/checkout.module';
import { AdminOrdersController } from './admin-orders.controller';
import { OrderLocks } from './order-locks';
import { Order, OrderSchema } from './order.schema';
import { OrdersController } from './orders.controller';
import { OrdersMessages } from './orders.messages';
import { OrdersOutbox } from './orders-outbox';
import { OrdersService } from './orders.service';
import { PendingRefunds } from './pending-refunds';

@Module({
  imports: [MongooseModule.forFeature([{ name: Order.name, schema: OrderSchema }]), CheckoutModule],
  controllers: [OrdersController, AdminOrdersController, OrdersMessages],
  providers: [OrdersService, OrderLocks, OrdersOutbox, PendingRefunds],
  exports: [MongooseModule, OrdersService, OrderLocks, OrdersOutbox],
})
export class OrdersModule {}
