import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';
import { OutboxEntrySchema, type OutboxEntry } from '@shop/nest-common';

/**
 * A newsletter subscriber (the footer's "10% off your first order"). Its `identity.subscriber.subscribed` event
 * travels in its own outbox, written with it (IdentityOutbox).
 */
@Schema({ collection: 'subscribers', timestamps: true })
export class Subscriber {
  @Prop({ required: true, unique: true, lowercase: true, trim: true })
  email!: string;

  @Prop({ type: [OutboxEntrySchema], default: [] }) outbox!: OutboxEntry[];
  @Prop({ required: true, default: false, index: true }) outboxPending!: boolean;
}

export const SubscriberSchema = SchemaFactory.createForClass(Subscriber);
