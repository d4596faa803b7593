import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';

/**
 * The register of variant SKUs: one record per SKU in use, keyed by the SKU upper-cased. A variant SKU is unique
 * across the catalogue because its record's `_id` is: FerretDB accepts a unique index on `variants.sku` (a field of
 * an array of subdocuments) but does not enforce it — measured: two products with the same variant SKU, and one
 * product with two, were both stored — while an `_id` (like any unique index on a plain field) is enforced
 * atomically, races included (docs/pitfalls.md#unique-indexes-on-ferretdb).
 */
@Schema({ collection: 'variant_skus', versionKey: false })
export class VariantSku {
  /** skuKey(sku): the SKU trimmed and upper-cased. */
  @Prop({ type: String, required: true })
  _id!: string;

  @Prop({ required: true })
  productId!: string;

  /** As the variant spells it. */
  @Prop({ required: true })
  sku!: string;

  @Prop({ required: true })
  claimedAt!: Date;
}

export type LeanVariantSku = VariantSku;
export const VariantSkuSchema = SchemaFactory.createForClass(VariantSku);
VariantSkuSchema.index({ productId: 1 });
