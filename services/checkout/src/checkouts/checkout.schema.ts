import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';
import { Schema as MongooseSchema, type Types } from 'mongoose';
import type { PaymentDetailsJson, PaymentStatus, ShippingAddress } from '@shop/contracts';

/** A line as the catalogue priced it when the checkout was made (integer pence). */
@Schema({ _id: false, versionKey: false })
export class CheckoutLine {
  @Prop({ required: true }) productId!: string;
  @Prop({ required: true }) name!: string;
  @Prop({ default: '' }) image!: string;
  @Prop({ required: true }) pricePence!: number;
  @Prop({ required: true }) quantity!: number;
  @Prop({ default: '' }) size!: string;
  @Prop({ default: '' }) color!: string;
  /** The variant's SKU (its size × colour) when the checkout was made; '' for checkouts made before variants. */
  @Prop({ default: '' }) sku!: string;
}

/** The buyer as identity knew them at checkout: the order keeps this copy. */
@Schema({ _id: false, versionKey: false })
export class Buyer {
  @Prop({ required: true }) _id!: string;
  @Prop({ required: true }) name!: string;
  @Prop() email?: string;
}

/** The discount code a checkout applied (pence), and the counters holding its use (DiscountsService.hold). */
@Schema({ _id: false, versionKey: false })
export class AppliedDiscount {
  @Prop({ required: true }) codeId!: string;
  @Prop({ required: true }) code!: string;
  @Prop({ required: true }) amountPence!: number;
  @Prop({ type: [String], default: [] }) slots!: string[];
}

/**
 * One purchase on its way from the cart to an order. Every write after creation is conditional on the state it
 * changes (paid only if unpaid and its hold not given back, finalized once, `stockReleased` only while unpaid).
 */
@Schema({ collection: 'checkouts', timestamps: true, versionKey: false })
export class Checkout {
  @Prop({ type: SchemaFactory.createForClass(Buyer), required: true }) user!: Buyer;
  @Prop({ type: [SchemaFactory.createForClass(CheckoutLine)], required: true }) checkoutItems!: CheckoutLine[];
  @Prop({ type: MongooseSchema.Types.Mixed, required: true }) shippingAddress!: ShippingAddress;
  @Prop({ required: true, default: 'PayPal' }) paymentMethod!: 'PayPal';
  /** The merchandise before any discount; absent from checkouts made before discount codes (then the total). */
  @Prop() subtotalPence?: number;
  @Prop({ type: SchemaFactory.createForClass(AppliedDiscount) }) discount?: AppliedDiscount;
  /** What PayPal must be paid: the subtotal less the discount. */
  @Prop({ required: true }) totalPence!: number;
  @Prop({ default: false }) priceAdjusted!: boolean;
  @Prop({ required: true }) reservationExpiresAt!: Date;
  @Prop({ default: false }) isPaid!: boolean;
  @Prop() paidAt?: Date;
  @Prop({ type: String, default: 'pending' }) paymentStatus!: PaymentStatus;
  @Prop({ type: MongooseSchema.Types.Mixed }) paymentDetails?: PaymentDetailsJson;
  /**
   * The catalog asked to give back the hold once it expired unpaid, and this checkout agreed (checkout's
   * `expiredHold`): paying it holds its lines again. Never set on a paid checkout: one write decides which came first.
   */
  @Prop() stockReleased?: boolean;
  @Prop({ default: false }) isFinalized!: boolean;
  @Prop() finalizedAt?: Date;
  createdAt!: Date;
  updatedAt!: Date;
}

export type LeanCheckout = Checkout & { _id: Types.ObjectId };
export const CheckoutSchema = SchemaFactory.createForClass(Checkout);
CheckoutSchema.index({ 'user._id': 1, createdAt: -1 });
// Whether an address has placed an order (the welcome code's `usable`).
CheckoutSchema.index({ 'user.email': 1 });
