import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';
import { CATEGORIES, COLORS, GENDERS, SIZES, type Category, type Gender } from '@shop/contracts';
import { SchemaTypes, type HydratedDocument, type Types } from 'mongoose';
import type { StockHold } from '../stock/stock-hold';

@Schema({ _id: false, versionKey: false })
export class ProductImage {
  @Prop({ required: true, trim: true })
  url!: string;

  @Prop({ trim: true, default: '' })
  altText!: string;
}
const ProductImageSchema = SchemaFactory.createForClass(ProductImage);

/** One size × colour of a product (see variants/variants.ts). Null size or colour: the product offers none. */
@Schema({ _id: false, versionKey: false })
export class ProductVariant {
  /** Unique across the catalogue: the register of variant SKUs (variants/variant-skus.ts) decides. */
  @Prop({ required: true, trim: true, maxlength: 80 })
  sku!: string;

  @Prop({ type: String, default: null })
  size!: string | null;

  @Prop({ type: String, default: null })
  color!: string | null;

  @Prop({ required: true, min: 0, default: 0 })
  countInStock!: number;

  @Prop({ default: 0, min: 0 })
  soldCount!: number;
}
const ProductVariantSchema = SchemaFactory.createForClass(ProductVariant);

/**
 * A product as stored. Money is integer pence (`pricePence`); the API shows pounds (`price`).
 * Stock is kept per variant (`variants`: one per size × colour offered); `countInStock` is their sum, kept in the
 * same write. It is what can still be sold: units held by checkouts (`holds`) are already taken out of it (see
 * stock/). A stock change is one conditional write of this document; an admin edit writes only over the
 * `stockVersion` it read.
 */
@Schema({ collection: 'products', timestamps: true, versionKey: false })
export class Product {
  @Prop({ required: true, trim: true, maxlength: 200 })
  name!: string;

  @Prop({ required: true, trim: true, maxlength: 5000 })
  description!: string;

  @Prop({ required: true, min: 1 })
  pricePence!: number;

  @Prop({ type: Number, min: 0 })
  originalPricePence?: number | null;

  /** The sum of the variants' countInStock (read-only for clients). */
  @Prop({ required: true, min: 0, default: 0 })
  countInStock!: number;

  /**
   * One per size × colour offered, in the order of sizes, then colours. A product stored before variants has none
   * until the migration (variants/variants.migration.ts) gives it its own; reads meanwhile show those it will get.
   */
  @Prop({ type: [ProductVariantSchema], default: undefined })
  variants?: ProductVariant[];

  /**
   * Unique, and so always required: FerretDB lets many missing values through
   * (docs/pitfalls.md#unique-indexes-on-ferretdb).
   */
  @Prop({ required: true, unique: true, trim: true, maxlength: 64 })
  sku!: string;

  @Prop({ type: String, required: true, enum: CATEGORIES })
  category!: Category;

  @Prop({ trim: true, default: '' })
  brand!: string;

  @Prop({ type: [String], enum: SIZES, default: [] })
  sizes!: string[];

  @Prop({ type: [String], enum: COLORS, default: [] })
  colors!: string[];

  @Prop({ trim: true, default: '' })
  collections!: string;

  @Prop({ trim: true, default: '' })
  material!: string;

  @Prop({ type: String, enum: GENDERS, default: 'Unisex' })
  gender!: Gender;

  @Prop({ type: [ProductImageSchema], default: [] })
  images!: ProductImage[];

  @Prop({ default: 0, min: 0, max: 5 })
  rating!: number;

  @Prop({ default: 0, min: 0 })
  numReviews!: number;

  @Prop({ default: false })
  isFeatured!: boolean;

  @Prop({ default: true })
  isPublished!: boolean;

  @Prop({ type: [String], default: [] })
  tags!: string[];

  /**
   * Units sold by placed (and not cancelled) orders: the best seller and popularity read it. Moved with the
   * variants' sold counts, not summed from them, so a variant removed later takes no sales away.
   */
  @Prop({ default: 0, min: 0 })
  soldCount!: number;

  /**
   * Units held for checkouts not yet ordered, by checkout id (stock/stock-hold.ts): already out of the variants'
   * countInStock. A hold is taken, given back or sold by one conditional write of this document that moves the
   * stock with it.
   */
  @Prop({ type: SchemaTypes.Mixed, default: () => ({}) })
  holds!: Record<string, StockHold>;

  /** True from a hold's write until the sweeper finds `holds` empty: what the sweeper looks for (an indexed flag). */
  @Prop({ default: false })
  hasHolds!: boolean;

  /** Checkouts whose cancelled order's units came back to this product: a cancellation gives them back once. */
  @Prop({ type: [String], default: [] })
  returnedCheckouts!: string[];

  /** Returns (of delivered orders) whose received units came back to this product: each restocks once. */
  @Prop({ type: [String], default: undefined })
  restockedReturns?: string[];

  /**
   * Goes up by one with every write of the stock (holds, sales, returns, admin edits): a read model applies a logged
   * stock write only over an older one, and an admin edit writes only over the stock it read.
   */
  @Prop({ default: 0 })
  stockVersion!: number;

  createdAt!: Date;
  updatedAt!: Date;
}

export type ProductDocument = HydratedDocument<Product>;
export type LeanProduct = Product & { _id: Types.ObjectId };
export const ProductSchema = SchemaFactory.createForClass(Product);

// Public reads filter on these; the catalogue is small, so single-field indexes keep every filter cheap.
ProductSchema.index({ isPublished: 1, createdAt: -1 });
ProductSchema.index({ category: 1 });
ProductSchema.index({ gender: 1 });
ProductSchema.index({ brand: 1 });
ProductSchema.index({ collections: 1 });
ProductSchema.index({ material: 1 });
ProductSchema.index({ sizes: 1 });
ProductSchema.index({ colors: 1 });
ProductSchema.index({ pricePence: 1 });
ProductSchema.index({ soldCount: -1, rating: -1 });
// The admin list's orders (issue 25): the unpaged list reads newest first; a list answered from MongoDB (a
// deployment without the in-memory copy, or the copy's full load sorted) sorts by these, ties by _id.
ProductSchema.index({ createdAt: -1, _id: -1 });
ProductSchema.index({ name: 1, _id: 1 });
ProductSchema.index({ countInStock: 1, _id: 1 });
ProductSchema.index({ hasHolds: 1 });
