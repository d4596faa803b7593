// ---- HTTP shapes (docs/api.md#cart)

/**
 * A guest cart's id as the SPA makes it (`guest_<timestamp>`); 1–64 of [A-Za-z0-9_-] after the prefix
 * (docs/api.md#whose-cart).
 */
export const GUEST_ID_PATTERN = /^guest_[A-Za-z0-9_-]{1,64}$/;

/** Most units of one line (product + size + colour) a cart holds. */
export const MAX_CART_LINE_QUANTITY = 99;

/** Most distinct lines one cart holds. */
export const MAX_CART_LINES = 50;

/** One line as every cart response shows it: name, image and price are the catalogue's current ones. */
export interface CartLineJson {
  productId: string;
  name: string;
  image: string;
  /** Current unit price in GBP (two decimals). */
  price: number;
  quantity: number;
  /** '' when the product comes in one size or colour only. */
  size: string;
  color: string;
  /** The SKU of the line's variant (size × colour), when known. */
  sku?: string;
  /** Cart lines: the variant's stock now; below `quantity` when it fell after the line was added. */
  countInStock?: number;
}

/** A cart: a signed-in user's (`user`) or a guest's (`guestId`). */
export interface CartJson {
  /** Present for a stored user cart. */
  _id?: string;
  user?: string;
  guestId?: string;
  products: CartLineJson[];
  /** Sum of price × quantity, computed in pence. */
  totalPrice: number;
  createdAt?: string;
  updatedAt?: string;
}

/** What the cart service answers with (docs/api.md#cart). */
export const CART_MESSAGES = {
  guestIdRequired: 'guestId is required',
  invalidGuestId: 'Invalid guestId',
  notYourCart: 'Not authorized to use this cart',
  productNotFound: 'Product not found',
  notInCart: 'Product not found in cart',
  tooManyLines: `A cart holds at most ${MAX_CART_LINES} different items`,
  onlyLeft: (n: number) => (n <= 0 ? 'This item is out of stock' : `Only ${n} left in stock`),
} as const;
