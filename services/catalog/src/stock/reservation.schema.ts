import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';
import type { HydratedDocument, Types } from 'mongoose';

/**
 * Where a checkout's units of one product are:
 * - pending: about to be held (the product write may or may not have happened: see `generation`);
 * - held: taken out of countInStock for the checkout until expiresAt;
 * - released: given back (expired, released by checkout, or never applied);
 * - committed: sold by a placed order (counted in the product's soldCount);
 * - returned: the order was cancelled; units are back on the shelf.
 */
export const RESERVATION_STATUSES = ['pending', 'held', 'released', 'committed', 'returned'] as const;
export type ReservationStatus = (typeof RESERVATION_STATUSES)[number];

@Schema({ collection: 'reservations', timestamps: true, versionKey: false })
export class Reservation {
  @Prop({ required: true })
  checkoutId!: string;

  @Prop({ required: true })
  productId!: string;

  @Prop({ required: true, min: 0 })
  quantity!: number;

  @Prop({ type: String, required: true, enum: RESERVATION_STATUSES })
  status!: ReservationStatus;

  /**
   * Counts the reservation's transitions. A transition from generation g writes the product with the
   * key `<id>:<g>:<verb>` in its stock journal, then moves this record to g + 1; a retry after a crash
   * in between finds the key and only finishes the second step.
   */
  @Prop({ required: true, default: 0 })
  generation!: number;

  @Prop({ required: true })
  expiresAt!: Date;

  @Prop()
  orderId?: string;

  createdAt!: Date;
  updatedAt!: Date;
}

export type ReservationDocument = HydratedDocument<Reservation>;
export type LeanReservation = Reservation & { _id: Types.ObjectId };
export const ReservationSchema = SchemaFactory.createForClass(Reservation);
// Exactly one record per checkout and product, whatever races: the unique index is atomic on FerretDB.
ReservationSchema.index({ checkoutId: 1, productId: 1 }, { unique: true });
ReservationSchema.index({ status: 1, expiresAt: 1 });
