import { BadRequestException } from '@nestjs/common';
import { keyString, sameKey, type StoredVariant, type VariantKey } from '../variants/variants';

/** Units of one variant a checkout holds. */
export interface HoldLine extends VariantKey {
  /** The variant's SKU when the units were taken (informative: the variant is its size and colour). */
  sku: string;
  quantity: number;
}

/**
 * A checkout's units of one product, taken off the shelf (out of the variants' countInStock) until `expiresAt`,
 * kept in the product document under `holds.<checkoutId>`. Taking, resizing, giving back and selling a hold are each
 * one conditional write of that document, which moves the stock in the same write: a hold is there (its units
 * taken) or it is not (they were given back or sold). `ref` names this hold's lines: each take or resize draws a new
 * one, and every later write of the hold is conditional on it, so it settles exactly the units it read.
 */
export interface StockHold {
  ref: string;
  lines: HoldLine[];
  expiresAt: Date;
}

/** Where a checkout's hold lives in a product document. */
export function holdPath(checkoutId: string): string {
  return `holds.${checkoutId}`;
}

/**
 * A checkout id as a request names it. It is a key of the product's `holds`, so it must be one MongoDB takes as a
 * field name: no `.`, no leading `$`.
 */
export function checkoutIdOf(raw: unknown): string {
  const id = typeof raw === 'string' ? raw.trim() : '';
  if (!id || id.length > 100 || id.includes('.') || id.startsWith('$') || id.includes('\0'))
    throw new BadRequestException('checkoutId is required');
  return id;
}

/** What one write does to a variant: units onto (+) or off (−) the shelf, units sold (+) or returned (−). */
export interface VariantMove extends VariantKey {
  stock: number;
  sold: number;
}

/** Adds up moves per variant. */
export function combineMoves(moves: Iterable<VariantMove>): VariantMove[] {
  const byKey = new Map<string, VariantMove>();
  for (const m of moves) {
    const k = keyString(m);
    const d = byKey.get(k) ?? { size: m.size, color: m.color, stock: 0, sold: 0 };
    d.stock += m.stock;
    d.sold += m.sold;
    byKey.set(k, d);
  }
  return [...byKey.values()].filter((m) => m.stock !== 0 || m.sold !== 0);
}

/**
 * The condition and increments of one conditional write that moves variants' stock and sales, with the product's
 * sums and its stockVersion. Each variant is named by its place in `variants` (MongoDB's dotted path; FerretDB v1 has
 * no positional operator) and guarded by its SKU there as read (SKUs are unique), in case an admin edit moved it
 * since; a variant giving units up is guarded by having them. A move for a variant the product no longer has
 * changes only the product's soldCount: it is listed in `lost`.
 */
export function stockWrite(
  variants: readonly StoredVariant[],
  moves: readonly VariantMove[],
): { condition: Record<string, unknown>; inc: Record<string, number>; lost: VariantMove[] } {
  const condition: Record<string, unknown> = {};
  const inc: Record<string, number> = { stockVersion: 1 };
  const lost: VariantMove[] = [];
  const add = (path: string, n: number) => {
    if (n !== 0) inc[path] = (inc[path] ?? 0) + n;
  };
  for (const move of combineMoves(moves)) {
    add('soldCount', move.sold);
    const at = variants.findIndex((v) => sameKey(v, move));
    if (at < 0) {
      lost.push(move);
      continue;
    }
    const path = `variants.${at}`;
    condition[`${path}.sku`] = variants[at].sku;
    if (move.stock < 0) condition[`${path}.countInStock`] = { $gte: -move.stock };
    add(`${path}.countInStock`, move.stock);
    add(`${path}.soldCount`, move.sold);
    add('countInStock', move.stock);
  }
  return { condition, inc, lost };
}

/** The same units per variant, whatever the order of the lines. */
export function sameLines(a: readonly HoldLine[], b: readonly HoldLine[]): boolean {
  const quantities = (lines: readonly HoldLine[]) =>
    JSON.stringify(
      combineMoves(lines.map((l) => ({ size: l.size, color: l.color, stock: l.quantity, sold: 0 })))
        .map((m) => [keyString(m), m.stock] as const)
        .sort(([x], [y]) => x.localeCompare(y)),
    );
  return quantities(a) === quantities(b);
}

export const unitsOf = (lines: ReadonlyArray<{ quantity: number }>): number =>
  lines.reduce((sum, l) => sum + l.quantity, 0);
