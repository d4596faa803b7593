import { variantCells, variantOption, type VariantJson } from '@shop/contracts';

/**
 * A product's variants: one per size × colour it offers (see `variantCells` in the contracts), each with its own
 * SKU, stock and sold count. They live in the product document (`variants`), so that a stock change of any variant
 * and the product's sums are one single-document write, under the product's lock.
 */
export interface StoredVariant {
  sku: string;
  size: string | null;
  color: string | null;
  /** Units that can still be sold: units held by checkouts are already taken out. */
  countInStock: number;
  /** Units sold by placed (and not cancelled) orders. */
  soldCount: number;
}

/** Which variant: its size and colour (null where the product offers none). */
export interface VariantKey {
  size: string | null;
  color: string | null;
}

/** What of a stored product the variants are made from. */
export interface VariantSource {
  sku: string;
  sizes?: string[] | null;
  colors?: string[] | null;
  countInStock?: number | null;
  soldCount?: number | null;
  variants?: StoredVariant[] | null;
}

/** A size or colour as a variant names it: '' and missing are "none" (null). */
export const optionOf = variantOption;

export function sameKey(a: VariantKey, b: VariantKey): boolean {
  return a.size === b.size && a.color === b.color;
}

export function keyString(key: VariantKey): string {
  return JSON.stringify([key.size, key.color]);
}

/** `<product sku>-<size>-<color>`, upper-case, with the parts present. */
export function defaultVariantSku(productSku: string, key: VariantKey): string {
  return [productSku, key.size, key.color]
    .filter((part): part is string => !!part)
    .join('-')
    .toUpperCase();
}

/** The key of a SKU in the catalogue-wide register of variant SKUs: SKUs differing only in case are the same. */
export function skuKey(sku: string): string {
  return sku.trim().toUpperCase();
}

/** `total` split over `parts` as evenly as whole units allow, the first parts taking the remainder. */
export function splitEvenly(total: number, parts: number): number[] {
  const whole = Math.max(0, Math.floor(total));
  const each = Math.floor(whole / parts);
  const rest = whole - each * parts;
  return Array.from({ length: parts }, (_, i) => each + (i < rest ? 1 : 0));
}

/**
 * The variants of a product stored before variants existed (one stock number): one per size × colour, default
 * SKUs, today's stock and sales split evenly and deterministically over them (in the order of the cells).
 * The migration stores exactly these; reads of a product not migrated yet show the same.
 */
export function legacyVariants(p: VariantSource): StoredVariant[] {
  const cells = variantCells(p.sizes ?? [], p.colors ?? []);
  const stock = splitEvenly(p.countInStock ?? 0, cells.length);
  const sold = splitEvenly(p.soldCount ?? 0, cells.length);
  return cells.map((cell, i) => ({
    sku: defaultVariantSku(p.sku, cell),
    size: cell.size,
    color: cell.color,
    countInStock: stock[i],
    soldCount: sold[i],
  }));
}

/** The product's variants: as stored, or (a product stored before variants) as the migration will store them. */
export function variantsOf(p: VariantSource): StoredVariant[] {
  return Array.isArray(p.variants) && p.variants.length
    ? p.variants.map((v) => ({
        sku: v.sku,
        size: optionOf(v.size),
        color: optionOf(v.color),
        countInStock: v.countInStock ?? 0,
        soldCount: v.soldCount ?? 0,
      }))
    : legacyVariants(p);
}

export function hasStoredVariants(p: VariantSource): boolean {
  return Array.isArray(p.variants) && p.variants.length > 0;
}

/** The variants as every response shows them. */
export function toVariantJson(variants: readonly StoredVariant[]): VariantJson[] {
  return variants.map((v) => ({ sku: v.sku, size: v.size, color: v.color, countInStock: v.countInStock }));
}

export function stockOf(variants: readonly StoredVariant[]): number {
  return variants.reduce((sum, v) => sum + v.countInStock, 0);
}

/** "Chiefs Home Jersey (M, Red)"; the name alone for a product without sizes or colours. */
export function variantLabel(name: string, key: VariantKey): string {
  const parts = [key.size, key.color].filter((part): part is string => !!part);
  return parts.length ? `${name} (${parts.join(', ')})` : name;
}
