/** A line as stored: what the shopper chose, never a price (prices are the catalogue's, read at every response). */
export interface StoredLine {
  productId: string;
  /** '' when the product has no sizes (or no colours). */
  size: string;
  color: string;
  quantity: number;
}

/** A cart as either store keeps it (a guest's as this object's JSON in Redis, a user's as a MongoDB document). */
export interface StoredCart {
  /** MongoDB id of a user cart. */
  _id?: string;
  /** A random id of a guest cart, so a merge recognises a cart it has already taken. */
  cartId?: string;
  lines: StoredLine[];
  /** Guest carts already merged into this (user) cart, newest last. */
  mergedCarts: string[];
  /** Orders whose lines were already taken out of this (user) cart, newest last. */
  appliedOrders: string[];
  createdAt: string;
  updatedAt: string;
}

/** Whose cart: a signed-in user's, or a guest's. */
export type CartOwner = { kind: 'user'; id: string } | { kind: 'guest'; id: string };

/** The Redis key of a guest's cart: the deployment's namespace (RABBITMQ_NAMESPACE), then this, then the guest id. */
export const GUEST_CART_KEY_INFIX = 'cart:guest:';

export function guestCartKey(namespace: string, guestId: string): string {
  return `${namespace}${GUEST_CART_KEY_INFIX}${guestId}`;
}

/** A guest cart as stored in Redis, read back: the JSON the cart service wrote (JSON.stringify of a StoredCart). */
export function parseStoredCart(raw: string): StoredCart {
  return JSON.parse(raw) as StoredCart;
}
