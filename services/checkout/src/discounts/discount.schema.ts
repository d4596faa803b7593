import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';
import type { DiscountType } from '@shop/contracts';
import { OutboxEntrySchema, type OutboxEntry } from '@shop/nest-common';
import { Schema as MongooseSchema, type Types } from 'mongoose';

/**
 * The counter of one allowance of uses, kept in one document so that each change is one conditional write: `taken`
 * units of it are used or held (`used` of them used), and each holding checkout is named in `unpaid` (its hold ends at
 * `unpaidUntil[checkoutId]`) or in `paid` (paid: kept until its order is placed). A checkout's unit is taken, moved,
 * given back or turned into a use only by an update whose filter finds the checkout's id in the list it leaves, so
 * each happens once whatever retries or races (discount-counters.ts).
 */
export interface UnitCounter {
  taken: number;
  used: number;
  unpaid: string[];
  unpaidUntil?: Record<string, Date>;
  paid: string[];
}

/**
 * A discount code. Money is integer pence (`amountPence` for a fixed code, `minSubtotalPence`); a percent code keeps
 * its whole `percent`. Codes are never deleted: an order may name one (DELETE deactivates). The code is its own
 * counter of uses ({@link UnitCounter}), limited or not: a limited code's `taken` never passes its `usageLimit`.
 */
@Schema({ collection: 'discount_codes', timestamps: true, versionKey: false })
export class DiscountCode {
  /** Upper-case; unique (a unique index is atomic on FerretDB, a lookup is not). */
  @Prop({ required: true, unique: true }) code!: string;
  @Prop({ type: String, required: true, enum: ['percent', 'fixed'] }) type!: DiscountType;
  /** percent codes: 1–100. */
  @Prop() percent?: number;
  /** fixed codes: pence off, > 0. */
  @Prop() amountPence?: number;
  @Prop({ type: Number, default: null }) minSubtotalPence!: number | null;
  @Prop({ type: Date, default: null }) startsAt!: Date | null;
  @Prop({ type: Date, default: null }) endsAt!: Date | null;
  @Prop({ type: Number, default: null }) usageLimit!: number | null;
  @Prop({ type: Number, default: null }) perCustomerLimit!: number | null;
  @Prop({ default: false }) firstOrderOnly!: boolean;
  @Prop({ default: true }) active!: boolean;
  /** A personal code (the newsletter's): the only address it is for, lower-case. */
  @Prop() email?: string;
  // The counter (UnitCounter). Absent from a code made before counters until the start-up backfill writes it.
  @Prop({ type: Number, default: 0 }) taken!: number;
  @Prop({ type: Number, default: 0 }) used!: number;
  @Prop({ type: [String], default: [] }) unpaid!: string[];
  @Prop({ type: MongooseSchema.Types.Mixed }) unpaidUntil?: Record<string, Date>;
  @Prop({ type: [String], default: [] }) paid!: string[];
  createdAt!: Date;
  updatedAt!: Date;
}
export type LeanDiscountCode = DiscountCode & { _id: Types.ObjectId };
export const DiscountCodeSchema = SchemaFactory.createForClass(DiscountCode);
DiscountCodeSchema.index({ createdAt: -1 });

/**
 * One customer's allowance of a code (its per-customer limit, or the one use of a first-order code): a
 * {@link UnitCounter} keyed `<codeId>:<userId>`, made by the first hold (an upsert: the unique `_id` decides a race).
 */
@Schema({ collection: 'discount_customers', versionKey: false })
export class DiscountCustomer {
  @Prop({ type: String, required: true }) _id!: string;
  @Prop({ type: Number, default: 0 }) taken!: number;
  @Prop({ type: Number, default: 0 }) used!: number;
  @Prop({ type: [String], default: [] }) unpaid!: string[];
  @Prop({ type: MongooseSchema.Types.Mixed }) unpaidUntil?: Record<string, Date>;
  @Prop({ type: [String], default: [] }) paid!: string[];
}
export const DiscountCustomerSchema = SchemaFactory.createForClass(DiscountCustomer);

/**
 * Before counters (read only by the start-up backfill, discount-backfill.ts): one unit of a limited code's allowance,
 * held by one checkout. `_id` names the unit: `<codeId>:<n>` for the n-th of
 * the code's `usageLimit` uses, `<codeId>:<userId>:<n>` for the n-th of a customer's `perCustomerLimit`. Claimed by
 * insert (the unique `_id` decides whatever races), freed by delete when an
 * unpaid checkout's hold ends, kept for good once the checkout's order is placed.
 */
@Schema({ collection: 'discount_slots', versionKey: false })
export class DiscountSlot {
  @Prop({ type: String, required: true }) _id!: string;
  @Prop({ required: true, index: true }) codeId!: string;
  @Prop({ required: true, index: true }) checkoutId!: string;
  @Prop({ required: true }) userId!: string;
  /** total: one of the code's `usageLimit`; customer: one of the buyer's `perCustomerLimit`. */
  @Prop({ type: String, required: true, enum: ['total', 'customer'] }) kind!: SlotKind;
  /** An unpaid checkout's hold ends then; null once paid (its order takes it) or used. */
  @Prop({ type: Date, default: null, index: true }) expiresAt!: Date | null;
  @Prop({ type: Date, default: null }) usedAt!: Date | null;
}
export type SlotKind = 'total' | 'customer';
export const DiscountSlotSchema = SchemaFactory.createForClass(DiscountSlot);

/** Before counters (read only by the start-up backfill): a use of a code, one per placed order, keyed by checkout. */
@Schema({ collection: 'discount_uses', versionKey: false })
export class DiscountUse {
  @Prop({ type: String, required: true }) _id!: string;
  @Prop({ required: true, index: true }) codeId!: string;
  @Prop({ required: true }) code!: string;
  @Prop({ required: true }) userId!: string;
  @Prop() orderId?: string;
  @Prop({ required: true }) amountPence!: number;
  @Prop({ required: true }) usedAt!: Date;
}
export const DiscountUseSchema = SchemaFactory.createForClass(DiscountUse);

/**
 * The newsletter's personal code of an address, once per address: `_id` is the lower-case email (unique). Each
 * `identity.subscriber.subscribed` for it appends a `checkout.welcome-code.issued` to its outbox (under the address's
 * lock), relayed until the broker confirms.
 */
@Schema({ collection: 'welcome_codes', timestamps: true, versionKey: false })
export class WelcomeCode {
  @Prop({ type: String, required: true }) _id!: string;
  @Prop({ required: true }) codeId!: string;
  @Prop({ required: true }) code!: string;
  @Prop({ type: [OutboxEntrySchema], default: [] }) outbox!: OutboxEntry[];
  @Prop({ required: true, default: false, index: true }) outboxPending!: boolean;
  createdAt!: Date;
  updatedAt!: Date;
}
export type LeanWelcomeCode = WelcomeCode;
export const WelcomeCodeSchema = SchemaFactory.createForClass(WelcomeCode);
