import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';

@Schema({ _id: false, versionKey: false })
export class UserCartLine {
  @Prop({ required: true }) productId!: string;
  @Prop({ default: '' }) size!: string;
  @Prop({ default: '' }) color!: string;
  @Prop({ required: true }) quantity!: number;
}

/**
 * A signed-in user's cart: one document per user (unique), written whole by a compare-and-set on `version`
 * (MongoCartStore.saveIfUnchanged).
 */
@Schema({ collection: 'carts', timestamps: true, versionKey: false })
export class UserCart {
  @Prop({ required: true, unique: true }) user!: string;
  @Prop({ type: [SchemaFactory.createForClass(UserCartLine)], default: [] }) lines!: UserCartLine[];
  @Prop({ type: [String], default: [] }) mergedCarts!: string[];
  @Prop({ type: [String], default: [] }) appliedOrders!: string[];
  /** Raised by each write; absent from a cart written before versions (its first change sets it). */
  @Prop() version?: number;
}

export const UserCartSchema = SchemaFactory.createForClass(UserCart);
