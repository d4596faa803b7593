import { randomUUID } from 'node:crypto';
import {
  CART_MESSAGES,
  lineOptionProblem,
  MAX_CART_LINE_QUANTITY,
  MAX_CART_LINES,
  variantOption,
  type VariantJson,
} from '@shop/contracts';
import type { CartOwner, StoredCart, StoredLine } from './stored-cart';

/** What makes a line: the same product in another size or colour is another line. */
export type LineKey = Pick<StoredLine, 'productId' | 'size' | 'color'>;

/** What the rules of a line need of its product: its options, and its variants with the units still for sale. */
export interface LineProduct {
  name: string;
  sizes: readonly string[];
  colors: readonly string[];
  variants: readonly VariantJson[];
}

/** A change the rules refuse: the status and message the cart service answers it with. */
export interface LineRefusal {
  status: 400 | 409;
  message: string;
}

export function sameLine(a: LineKey, b: LineKey): boolean {
  return a.productId === b.productId && a.size === b.size && a.color === b.color;
}

export function findLine(cart: StoredCart, key: LineKey): StoredLine | undefined {
  return cart.lines.find((line) => sameLine(line, key));
}

export function emptyCart(now = new Date()): StoredCart {
  const at = now.toISOString();
  return { lines: [], mergedCarts: [], appliedOrders: [], createdAt: at, updatedAt: at };
}

/** What a change starts from when there is no cart yet: a guest's gets a random id (for a merge to recognise). */
export function newCart(owner: CartOwner): StoredCart {
  return { ...emptyCart(), ...(owner.kind === 'guest' ? { cartId: randomUUID() } : {}) };
}

/** Why this product cannot be bought in this size and colour, if it cannot (400): the contracts' one rule. */
export function optionProblem(product: LineProduct, key: LineKey): string | undefined {
  return lineOptionProblem(product, key)?.message;
}

/** The variant a line names ('' as a size or colour: none), if the product has it. */
export function variantOf(product: Pick<LineProduct, 'variants'>, key: Pick<LineKey, 'size' | 'color'>) {
  const size = variantOption(key.size);
  const color = variantOption(key.color);
  return product.variants.find((v) => v.size === size && v.color === color);
}

/** The units of the line's variant that can still be bought (0 for a variant the product does not have). */
export function stockOf(product: Pick<LineProduct, 'variants'>, key: Pick<LineKey, 'size' | 'color'>): number {
  return variantOf(product, key)?.countInStock ?? 0;
}

/** Why a line may not hold this many, if it may not: over 99 (400), over its variant's stock (409). */
export function quantityProblem(quantity: number, inStock: number): LineRefusal | undefined {
  if (quantity > MAX_CART_LINE_QUANTITY)
    return { status: 400, message: `You can have at most ${MAX_CART_LINE_QUANTITY} of one item in your cart` };
  if (quantity > inStock) return { status: 409, message: CART_MESSAGES.onlyLeft(inStock) };
  return undefined;
}

/**
 * The cart with `quantity` more of the line (a new line if the cart has none like it), or why not: the line past
 * 99 or its variant's stock, or one line too many. The product's options are checked before (optionProblem).
 */
export function withLineAdded(
  cart: StoredCart,
  key: LineKey,
  quantity: number,
  product: LineProduct,
): StoredCart | LineRefusal {
  const existing = findLine(cart, key);
  const total = (existing?.quantity ?? 0) + quantity;
  const refused = quantityProblem(total, stockOf(product, key));
  if (refused) return refused;
  if (existing) return { ...cart, lines: cart.lines.map((l) => (l === existing ? { ...l, quantity: total } : l)) };
  if (cart.lines.length >= MAX_CART_LINES) return { status: 400, message: CART_MESSAGES.tooManyLines };
  return { ...cart, lines: [...cart.lines, { ...key, quantity: total }] };
}

export function isRefusal(value: StoredCart | LineRefusal): value is LineRefusal {
  return 'status' in value;
}
