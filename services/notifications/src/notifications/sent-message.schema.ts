import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';
import type { MailKind } from '../mail/mail-templates';

/**
 * One email the service sends: at most one per causing event and kind, by the unique index (FerretDB applies no
 * update atomically; a unique index it enforces). Inserted as `sending` (the claim) before the SMTP hand-over,
 * set to `sent` after it, deleted again when the hand-over failed. Never holds a password reset's token.
 */
@Schema({ collection: 'sent_messages', versionKey: false })
export class SentMessage {
  @Prop({ required: true }) eventId!: string;
  @Prop({ required: true, type: String }) kind!: MailKind;
  @Prop({ required: true }) eventType!: string;
  @Prop({ required: true }) to!: string;
  @Prop({ required: true }) messageId!: string;
  @Prop({ required: true }) subject!: string;
  @Prop({ required: true, enum: ['sending', 'sent'] }) state!: 'sending' | 'sent';
  @Prop({ required: true }) claimedAt!: Date;
  @Prop() sentAt?: Date;
}

export const SentMessageSchema = SchemaFactory.createForClass(SentMessage);
SentMessageSchema.index({ eventId: 1, kind: 1 }, { unique: true, name: 'eventId_1_kind_1' });
