import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';
import { Schema as MongooseSchema } from 'mongoose';
import type { PaymentDetailsJson } from '@shop/contracts';

/**
 * One PayPal order, claimed by the checkout it paid. The unique `paypalOrderId` is what makes a PayPal payment
 * pay one checkout only, whatever races (a unique index is atomic on FerretDB; a lookup is not a guarantee).
 */
@Schema({ collection: 'payments', timestamps: true, versionKey: false })
export class Payment {
  @Prop({ required: true, unique: true }) paypalOrderId!: string;
  @Prop({ required: true }) checkoutId!: string;
  @Prop({ required: true }) userId!: string;
  @Prop({ required: true }) amountPence!: number;
  @Prop({ type: MongooseSchema.Types.Mixed, required: true }) details!: PaymentDetailsJson;
  /** captured: it pays its checkout; refunded: the stock was gone, the money went back. */
  @Prop({ type: String, required: true, default: 'captured' }) status!: 'captured' | 'refunded';
  @Prop() refundId?: string;
}

export const PaymentSchema = SchemaFactory.createForClass(Payment);
