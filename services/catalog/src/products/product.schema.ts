import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';
import { CATEGORIES, COLORS, GENDERS, SIZES, type Category, type Gender } from '@shop/contracts';
import type { HydratedDocument, Types } from 'mongoose';

@Schema({ _id: false, versionKey: false })
export class ProductImage {
  @Prop({ required: true, trim: true })
  url!: string;

  @Prop({ trim: true, default: '' })
  altText!: string;
}
const ProductImageSchema = SchemaFactory.createForClass(ProductImage);

/**
 * A product as stored. Money is integer pence (`pricePence`); the API shows pounds (`price`).
 * `countInStock` is what can still be sold: units held by checkout reservations are already taken
 * out of it (see stock/). Every write to a product runs under its Redis lock (FerretDB writes the
 * whole document back, so two unserialised writers lose each other's changes).
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

  @Prop({ required: true, min: 0, default: 0 })
  countInStock!: number;

  /** Unique, and so always required (PITFALLS §3.5: FerretDB lets many missing values through). */
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

  /** Units sold by placed (and not cancelled) orders: the best seller and popularity read it. */
  @Prop({ default: 0, min: 0 })
  soldCount!: number;

  /**
   * Keys of the most recent stock operations applied to this document (bounded). A stock change and
   * its key land in one single-document write, so a crash between that write and the reservation's
   * own update is detected and finished on retry, never applied twice.
   */
  @Prop({ type: [String], default: [] })
  stockJournal!: string[];

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

/** How many stock operation keys a product remembers. */
export const STOCK_JOURNAL_LENGTH = 200;
