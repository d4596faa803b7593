import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';

@Schema({ _id: false, versionKey: false })
export class WishlistItem {
  @Prop({ required: true }) productId!: string;
  @Prop({ required: true }) addedAt!: string;
}

/**
 * A signed-in user's wishlist: one document per user (unique), written whole by a compare-and-set on `version`
 * (WishlistRepository), as a user's cart is.
 */
@Schema({ collection: 'wishlists', timestamps: true, versionKey: false })
export class UserWishlist {
  @Prop({ required: true, unique: true }) user!: string;
  @Prop({ type: [SchemaFactory.createForClass(WishlistItem)], default: [] }) items!: WishlistItem[];
  @Prop({ required: true }) version!: number;
}

export const UserWishlistSchema = SchemaFactory.createForClass(UserWishlist);
