import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';
import { OutboxEntrySchema, type OutboxEntry } from '@shop/nest-common';
import type { Types } from 'mongoose';

/**
 * An outstanding password reset: the SHA-256 of its token (never the token), whose account, until when. Its
 * `identity.password-reset.requested` event travels in its own outbox, written with it, the token in it sealed
 * (reset-token.ts). Deleted when any reset of the account succeeds; expired ones are purged by the sweep
 * (FerretDB has no TTL indexes, docs/pitfalls.md#no-ttl-or-text-indexes).
 */
@Schema({ collection: 'password_resets', versionKey: false })
export class PasswordReset {
  /** Unique, and so required (docs/pitfalls.md#unique-indexes-on-ferretdb). */
  @Prop({ required: true, unique: true }) tokenHash!: string;
  @Prop({ required: true, index: true }) userId!: string;
  @Prop({ required: true, index: true }) expiresAt!: Date;

  @Prop({ type: [OutboxEntrySchema], default: [] }) outbox!: OutboxEntry[];
  @Prop({ required: true, default: false, index: true }) outboxPending!: boolean;
}

export type LeanPasswordReset = PasswordReset & { _id: Types.ObjectId };
export const PasswordResetSchema = SchemaFactory.createForClass(PasswordReset);

/**
 * A used token, keyed by its hash: inserting it is the claim, and the unique `_id` lets exactly one of two
 * concurrent resets with the same token through (a unique key holds against
 * concurrent inserts: docs/pitfalls.md#unique-indexes-on-ferretdb). Kept until the token would have expired anyway.
 */
@Schema({ collection: 'password_reset_claims', versionKey: false })
export class PasswordResetClaim {
  @Prop({ type: String, required: true }) _id!: string;
  @Prop({ required: true }) userId!: string;
  @Prop({ required: true, index: true }) expiresAt!: Date;
}

export const PasswordResetClaimSchema = SchemaFactory.createForClass(PasswordResetClaim);
