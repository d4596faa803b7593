// Stock per size and colour (issue 22): which variant a pick is, what is left of it, and what is sold out.
import type { ProductJson, VariantJson } from '@shop/contracts';

/** "Only N left" shows at this many units or fewer. */
export const LOW_STOCK = 5;

/** A pick of a size and a colour; '' (or null) where the product offers none, or none is chosen yet. */
export interface VariantPick {
  size?: string | null;
  color?: string | null;
}

const same = (a: string | null, b: string | null | undefined) => (a ?? '') === (b ?? '');

/** The variant a full pick names (a size of '' matches a variant without size, the same for colour). */
export function findVariant(product: ProductJson, pick: VariantPick): VariantJson | undefined {
  return product.variants?.find((v) => same(v.size, pick.size) && same(v.color, pick.color));
}

/**
 * Units that can be bought of what is picked so far: the variant's stock once both are chosen, else the most any
 * variant matching the pick has. A product without variants (an older answer) has its total.
 */
export function stockFor(product: ProductJson, pick: VariantPick): number {
  const variants = product.variants ?? [];
  if (!variants.length) return product.countInStock;
  const matching = variants.filter(
    (v) => (!pick.size || same(v.size, pick.size)) && (!pick.color || same(v.color, pick.color)),
  );
  return matching.reduce((most, v) => Math.max(most, v.countInStock), 0);
}

/** True when nothing of the product can be bought: every variant is at 0. */
export function isSoldOut(product: ProductJson): boolean {
  const variants = product.variants ?? [];
  return variants.length ? variants.every((v) => v.countInStock <= 0) : product.countInStock <= 0;
}
