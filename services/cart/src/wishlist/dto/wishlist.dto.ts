import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsInt, IsOptional, Max, Min } from 'class-validator';
import { MAX_CART_LINE_QUANTITY } from '@shop/contracts';
import { OptionField, OwnerIdField, ProductIdField } from '../../cart/dto/cart-fields';

/** `?userId&guestId`: whose wishlist (checked against the token by wishlistOwner()). */
export class WishlistOwnerQuery {
  @OwnerIdField('guestId')
  guestId?: string;

  @OwnerIdField('userId')
  userId?: string;
}

/** POST /api/wishlist: save a product. */
export class SaveToWishlistDto extends WishlistOwnerQuery {
  @ProductIdField()
  productId!: string;
}

/** `:productId` of DELETE /api/wishlist/:productId and POST /api/wishlist/:productId/move. */
export class WishlistProductParam {
  @ProductIdField()
  productId!: string;
}

/** POST /api/wishlist/:productId/move: the size and colour chosen, and how many (default 1). */
export class MoveToCartDto extends WishlistOwnerQuery {
  @OptionField('Size')
  size?: string;

  @OptionField('Color')
  color?: string;

  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: MAX_CART_LINE_QUANTITY, default: 1 })
  @IsOptional()
  @IsInt({ message: `Quantity must be a whole number from 1 to ${MAX_CART_LINE_QUANTITY}` })
  @Min(1, { message: `Quantity must be a whole number from 1 to ${MAX_CART_LINE_QUANTITY}` })
  @Max(MAX_CART_LINE_QUANTITY, { message: `Quantity must be a whole number from 1 to ${MAX_CART_LINE_QUANTITY}` })
  quantity?: number;
}

/** POST /api/wishlist/merge: the guest list to take in (the token decides whose list it joins). */
export class MergeWishlistDto {
  @OwnerIdField('guestId')
  guestId?: string;
}
