import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';

/**
 * A PayPal webhook event the shop has acted on, keyed by PayPal's event id (`_id`: unique), so that an event PayPal
 * delivers again — its retries, a resend, a replay — is answered 200 and changes nothing.
 */
@Schema({ collection: 'paypal_webhook_events', versionKey: false })
export class PayPalWebhookEvent {
  @Prop({ type: String, required: true }) _id!: string;
  @Prop({ required: true }) type!: string;
  /** What the shop did: paid, already-paid, refused, released, recorded, known, own-refund, ignored. */
  @Prop({ required: true }) outcome!: string;
  /** The checkout, capture and refund it was about, when it named them. */
  @Prop() checkoutId?: string;
  @Prop() captureId?: string;
  @Prop() refundId?: string;
  @Prop({ required: true }) receivedAt!: Date;
}

export const PayPalWebhookEventSchema = SchemaFactory.createForClass(PayPalWebhookEvent);
