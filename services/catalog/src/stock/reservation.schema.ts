import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';
import type { HydratedDocument, Types } from 'mongoose';
import { splitEvenly } from '../variants/variants';

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

/** The units of one variant (size × colour) a reservation is about. */
@Schema({ _id: false, versionKey: false })
export class ReservationLine {
  @Prop({ type: String, default: null })
  size!: string | null;

  @Prop({ type: String, default: null })
  color!: string | null;

  /** The variant's SKU when the units were held (informative: the variant is its size and colour). */
  @Prop({ default: '' })
  sku!: string;

  @Prop({ required: true, min: 0 })
  quantity!: number;
}
const ReservationLineSchema = SchemaFactory.createForClass(ReservationLine);

/**
 * A checkout's units of one product, per variant (`lines`), and their state. Every transition changes the
 * variants' levels and the product's sums in one product write (see StockService).
 */
@Schema({ collection: 'reservations', timestamps: true, versionKey: false })
export class Reservation {
  @Prop({ required: true })
  checkoutId!: string;

  @Prop({ required: true })
  productId!: string;

  /** The sum of the lines' quantities. */
  @Prop({ required: true, min: 0 })
  quantity!: number;

  /**
   * Per variant: what is held (pending, held), was sold (committed), or was last held or sold (released,
   * returned). Reservations made before variants have none: see linesOf.
   */
  @Prop({ type: [ReservationLineSchema], default: undefined })
  lines?: ReservationLine[];

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

/**
 * A reservation's lines. One made before variants existed has none: its units are read as the migration split the
 * product's stock — all on the one variant, or spread evenly over the variants in order — which is where giving
 * them back puts them.
 */
export function linesOf(
  res: Pick<Reservation, 'lines' | 'quantity'>,
  variants: ReadonlyArray<{ size: string | null; color: string | null; sku: string }>,
): ReservationLine[] {
  if (Array.isArray(res.lines)) return res.lines.filter((l) => l.quantity > 0);
  if (!variants.length || res.quantity <= 0) return [];
  const parts = splitEvenly(res.quantity, variants.length);
  return variants
    .map((v, i) => ({ size: v.size, color: v.color, sku: v.sku, quantity: parts[i] }))
    .filter((l) => l.quantity > 0);
}
