import { GUEST_ID_PATTERN, MAX_CART_LINE_QUANTITY } from '@shop/contracts';

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

/** A product id as the cart stores it (the add's id, trimmed and lower-cased; the catalogue's `_id`). */
const STORED_PRODUCT_ID = /^[0-9a-f]{24}$/;

function isPlainLine(line: unknown): line is StoredLine {
  if (line === null || typeof line !== 'object' || Array.isArray(line)) return false;
  const { productId, size, color, quantity } = line as Record<string, unknown>;
  return (
    typeof productId === 'string' &&
    STORED_PRODUCT_ID.test(productId) &&
    typeof size === 'string' &&
    typeof color === 'string' &&
    typeof quantity === 'number' &&
    Number.isInteger(quantity) &&
    quantity >= 1 &&
    quantity <= MAX_CART_LINE_QUANTITY
  );
}

/**
 * A parsed guest cart of exactly the shape the cart service writes: its lines plain (a lower-case 24-hex product
 * id, text size and colour, a quantity 1–99), its times text, no `_id`. What a reader other than the cart (the
 * gateway) may price by itself; anything else, it leaves to the cart service.
 */
export function isPlainGuestCart(value: unknown): value is StoredCart {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const cart = value as Partial<Record<keyof StoredCart, unknown>>;
  return (
    Array.isArray(cart.lines) &&
    cart.lines.every(isPlainLine) &&
    cart._id === undefined &&
    (cart.cartId === undefined || typeof cart.cartId === 'string') &&
    typeof cart.createdAt === 'string' &&
    typeof cart.updatedAt === 'string'
  );
}

/**
 * A guest cart as a reader other than the cart service reads it from Redis: null for none, the cart when it is
 * plainly the cart service's own format (isPlainGuestCart), undefined for anything else (not JSON, another shape),
 * which such a reader leaves to the cart service.
 */
export function plainStoredGuestCart(raw: string | null): StoredCart | null | undefined {
  if (raw === null) return null;
  let parsed: unknown;
  try {
    parsed = parseStoredCart(raw);
  } catch {
    return undefined;
  }
  return isPlainGuestCart(parsed) ? parsed : undefined;
}

/** A guest read's whole query: `guestId=` and a guest id, whose characters (GUEST_ID_PATTERN) need no decoding. */
const GUEST_READ_PREFIX = 'guestId=';

/**
 * The guest id of a cart read whose whole query string is just `guestId=<a well-formed guest id>` (what the SPA
 * sends): what the cart's ValidationPipe and owner rules would take unchanged. Anything else is undefined.
 */
export function plainGuestReadId(query: string): string | undefined {
  if (!query.startsWith(GUEST_READ_PREFIX)) return undefined;
  const guestId = query.slice(GUEST_READ_PREFIX.length);
  return GUEST_ID_PATTERN.test(guestId) ? guestId : undefined;
}
