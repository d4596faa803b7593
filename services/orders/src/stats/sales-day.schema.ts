import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';
import type { Connection } from 'mongoose';

/**
 * One UTC day that has orders, as the dashboard reads it (SalesDays): how many orders were placed on it and what
 * they earn (pence; revenue.ts says what earns). Derived from the orders, never the source of truth: each document
 * is recomputed whole from the day's orders, never incremented, so a recompute is exact whenever it runs.
 */
@Schema({ collection: 'sales_days', versionKey: false })
export class SalesDay {
  /** The day, `YYYY-MM-DD` (UTC). */
  @Prop({ type: String, required: true }) _id!: string;
  @Prop({ required: true, min: 1 }) orders!: number;
  @Prop({ required: true, min: 0 }) revenuePence!: number;
  /** When it was last recomputed (for whoever wonders how fresh a day is). */
  @Prop({ required: true }) computedAt!: Date;
}

export const SalesDaySchema = SchemaFactory.createForClass(SalesDay);

/**
 * Up to when the sales days have followed the orders (`at`): the start of the last catch-up that completed. Absent
 * until the days are first built from the orders there are.
 */
export const SALES_DAYS_WATERMARK = { collection: 'read_model_watermarks', id: 'sales_days' } as const;

/**
 * For a program that writes orders behind the service's back (the synthetic orders' seed and removal, which stamp no
 * `updatedAt` the catch-up would find and record no removal): forgets the watermark, so that the service builds every
 * day again in the background (the dashboard answers 503 meanwhile).
 */
export async function rebuildSalesDays(connection: Connection): Promise<void> {
  await connection
    .collection<{ _id: string }>(SALES_DAYS_WATERMARK.collection)
    .deleteOne({ _id: SALES_DAYS_WATERMARK.id });
}
