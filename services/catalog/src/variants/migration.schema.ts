import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';

/** A data migration that has run to its end on this database: its `_id` (the migration's versioned name) is unique. */
@Schema({ collection: 'migrations', versionKey: false })
export class MigrationRecord {
  @Prop({ type: String, required: true })
  _id!: string;

  @Prop({ required: true })
  ranAt!: Date;

  /** Documents it changed. */
  @Prop({ required: true, default: 0 })
  changed!: number;
}

export const MigrationRecordSchema = SchemaFactory.createForClass(MigrationRecord);

/** The migrations of the products collection, by the versioned names they are recorded under once run. */
export const VARIANTS_MIGRATION = 'product-variants-v1';
export const RATINGS_MIGRATION = 'product-ratings-from-reviews-v1';
export const HOLDS_MIGRATION = 'product-holds-v1';
/**
 * All of them: a seed writes products in today's shape, and records these as run (seed.main.ts), so that a first
 * start does not look through a large seeded catalogue for products to migrate (at 100,000 products on FerretDB,
 * one such scan outlasted the 2.5 s socket timeout and the catalog could not start).
 */
export const PRODUCT_MIGRATIONS = [VARIANTS_MIGRATION, RATINGS_MIGRATION, HOLDS_MIGRATION];
