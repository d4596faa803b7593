import type { CartJson } from './cart';
import type { VariantJson } from './catalog';

// ---- HTTP shapes of /api/wishlist (the cart service owns wishlists: services/cart/README.md)

/** Most products one wishlist holds. */
export const MAX_WISHLIST_ITEMS = 100;

/** A saved product as every wishlist answer shows it: the catalogue's current name, image, price and stock. */
export interface WishlistItemJson {
  productId: string;
  name: string;
  image: string;
  /** Current unit price in GBP (two decimals). */
  price: number;
  /** Units of the whole product that can be bought now (the sum of its variants). */
  countInStock: number;
  sizes: string[];
  colors: string[];
  /** Every variant (size × colour) with its stock now. */
  variants: VariantJson[];
  /** When it was saved (ISO). */
  addedAt: string;
}

/** A wishlist: a signed-in user's (`user`) or a guest's (`guestId`), newest first. */
export interface WishlistJson {
  user?: string;
  guestId?: string;
  items: WishlistItemJson[];
  count: number;
  /** MAX_WISHLIST_ITEMS, so a client can say how many more fit. */
  limit: number;
}

/** POST /api/wishlist/:productId/move: the cart with the line added, and the wishlist without the product. */
export interface MoveToCartJson {
  cart: CartJson;
  wishlist: WishlistJson;
}

export const WISHLIST_MESSAGES = {
  notYours: 'Not authorized to use this wishlist',
  productNotFound: 'Product not found',
  notInWishlist: 'Product not found in wishlist',
  full: `Your wishlist is full: it holds at most ${MAX_WISHLIST_ITEMS} items. Remove one to save another.`,
} as const;
