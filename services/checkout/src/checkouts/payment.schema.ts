import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';
import { Schema as MongooseSchema } from 'mongoose';
import type { PaymentDetailsJson } from '@shop/contracts';

export const PAYMENT_STATES = ['claimed', 'captured', 'refunded'] as const;
export type PaymentState = (typeof PAYMENT_STATES)[number];

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
  /**
   * claimed: verified and claimed, the checkout not marked paid yet (the stock hold is being settled);
   * captured: it pays its checkout; refunded: the stock was gone, the money went back.
   * A payment left `claimed` (a timeout, a crash) is settled by the sweeper: paid, or refunded.
   */
  @Prop({ type: String, required: true, default: 'claimed', enum: PAYMENT_STATES }) status!: PaymentState;
  /** PayPal's id of the refund (stock gone, or the order cancelled): one per payment, whatever asked for it. */
  @Prop() refundId?: string;
  /** What the refund gave back (pence), and when; absent from refunds recorded before they were kept. */
  @Prop() refundedPence?: number;
  @Prop() refundedAt?: Date;
  /** The order whose cancellation refunded the payment (absent for a refund of a checkout whose stock was gone). */
  @Prop() refundedOrderId?: string;
  /**
   * The partial refunds of its order's returns (issue 38), one per return: PayPal's refund id and what it gave back
   * (pence). With `refundedPence` of a full refund, never more than `amountPence` in all.
   */
  @Prop({
    type: [{ _id: false, returnId: String, refundId: String, amountPence: Number, at: Date }],
    default: undefined,
  })
  returnRefunds?: Array<{ returnId: string; refundId: string; amountPence: number; at: Date }>;

  /**
   * Money PayPal gave back outside the shop (a refund in PayPal's dashboard, a chargeback), as its webhooks reported
   * it: each refund once, by PayPal's id (src/paypal/webhooks/).
   */
  @Prop({ type: [MongooseSchema.Types.Mixed], default: undefined })
  externalRefunds?: Array<{ id: string; kind: 'refund' | 'reversal'; amountPence: number; currency: string; at: Date }>;
  createdAt!: Date;
  updatedAt!: Date;
}

export const PaymentSchema = SchemaFactory.createForClass(Payment);
// The sweeper's question: verified payments whose checkout was not marked paid.
PaymentSchema.index({ status: 1, createdAt: 1 });
// A refund's webhook names the capture, not the PayPal order.
PaymentSchema.index({ 'details.captureId': 1 });

/**
 * The PayPal-Request-Id of the one refund a payment can have, whoever asks for it (pay finding the stock gone, the
 * sweeper, an admin cancelling its order — again after a timeout): PayPal answers a repeat with the refund it made.
 */
export const refundRequestId = (paypalOrderId: string): string => `refund-${paypalOrderId}`;

/** The PayPal-Request-Id of a return's partial refund: one per return, so PayPal answers a repeat with the refund it made. */
export const returnRefundRequestId = (returnId: string): string => `return-${returnId}`;
