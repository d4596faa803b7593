import { sameLine, type StoredLine } from '@shop/cart-model';
import { MAX_CART_LINE_QUANTITY, type OrderItemRef } from '@shop/contracts';

// The stored format and the rules of a line are the shared package's (the gateway reads guest carts and adds to
// them too): one definition of each.
export { emptyCart, findLine, sameLine, type LineKey, type StoredCart, type StoredLine } from '@shop/cart-model';

/** How many merge and order markers a cart remembers (a replay older than that is long gone from the broker). */
export const MARKERS_KEPT = 50;

export function remember(markers: string[], marker: string): string[] {
  return [...markers.filter((m) => m !== marker), marker].slice(-MARKERS_KEPT);
}

/** The most of one line a shopper may hold: the stock, and never more than 99. */
export function lineCap(countInStock: number): number {
  return Math.max(0, Math.min(countInStock, MAX_CART_LINE_QUANTITY));
}

/**
 * Adds guest lines into a user's lines: the same line adds up, capped by its variant's stock (and 99); a product
 * that is gone or a variant sold out is left out. `capOf` answers undefined for a product that no longer sells.
 */
export function mergeLines(
  into: StoredLine[],
  from: StoredLine[],
  capOf: (line: StoredLine) => number | undefined,
): StoredLine[] {
  const merged = into.map((line) => ({ ...line }));
  for (const line of from) {
    const cap = capOf(line);
    if (cap === undefined || cap <= 0) continue;
    const existing = merged.find((l) => sameLine(l, line));
    if (existing) existing.quantity = Math.max(existing.quantity, Math.min(existing.quantity + line.quantity, cap));
    else merged.push({ ...line, quantity: Math.min(line.quantity, cap) });
  }
  return merged;
}

/** Takes an order's lines out of a cart (the whole cart in the usual case); lines added since stay. */
export function subtractOrder(lines: StoredLine[], items: OrderItemRef[]): StoredLine[] {
  const left = lines.map((line) => ({ ...line }));
  for (const item of items) {
    const line = left.find((l) =>
      sameLine(l, { productId: item.productId, size: item.size ?? '', color: item.color ?? '' }),
    );
    if (line) line.quantity -= item.quantity;
  }
  return left.filter((line) => line.quantity > 0);
}
