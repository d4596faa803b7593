import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';

/**
 * Who received which product: catalog's own record, kept from orders' `orders.order.status-changed` events (a
 * Delivered order's lines), so that a review needs no question to orders. One record per customer and product, by its
 * `_id` `<userId>:<productId>` (unique, so a redelivered event or a second delivered order adds nothing:
 * docs/pitfalls.md#unique-indexes-on-ferretdb). A delivery stays recorded: the customer did receive the product,
 * whatever happens to the order later.
 */
@Schema({ collection: 'deliveries', versionKey: false })
export class Delivery {
  /** deliveryKey(userId, productId). */
  @Prop({ type: String, required: true })
  _id!: string;

  @Prop({ required: true })
  userId!: string;

  @Prop({ required: true })
  productId!: string;

  /** The first delivered order that held it. */
  @Prop({ required: true })
  orderId!: string;

  @Prop({ required: true })
  deliveredAt!: Date;
}

export const deliveryKey = (userId: string, productId: string): string =>
  `${userId.toLowerCase()}:${productId.toLowerCase()}`;

export const DeliverySchema = SchemaFactory.createForClass(Delivery);
