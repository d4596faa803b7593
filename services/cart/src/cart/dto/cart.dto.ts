import { OptionField, OwnerIdField, ProductIdField, QuantityField } from './cart-fields';

/** `?userId&guestId` of GET /api/cart. */
export class CartOwnerQuery {
  @OwnerIdField('guestId')
  guestId?: string;

  @OwnerIdField('userId')
  userId?: string;
}

/** DELETE /api/cart: which line. */
export class CartLineDto extends CartOwnerQuery {
  @ProductIdField()
  productId!: string;

  @OptionField('Size')
  size?: string;

  @OptionField('Color')
  color?: string;
}

/** POST /api/cart: add this many (1–99) of a line. */
export class AddToCartDto extends CartLineDto {
  @QuantityField(1)
  quantity!: number;
}

/** PUT /api/cart: set a line's quantity (0 removes it). */
export class UpdateCartLineDto extends CartLineDto {
  @QuantityField(0)
  quantity!: number;
}

/** POST /api/cart/merge: the guest cart to take in (a `user` field is ignored: the token decides). */
export class MergeCartDto {
  @OwnerIdField('guestId')
  guestId?: string;
}
