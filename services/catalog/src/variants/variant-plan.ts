import { BadRequestException } from '@nestjs/common';
import { variantCells, type VariantInput } from '@shop/contracts';
import { defaultVariantSku, keyString, optionOf, skuKey, type StoredVariant, type VariantKey } from './variants';

/** What an admin write says about stock and options, with the product as it is (none on create). */
export interface VariantPlanInput {
  /** The product's SKU after the write. */
  productSku: string;
  /** Sizes and colours after the write. */
  sizes: readonly string[];
  colors: readonly string[];
  /** The variants now (empty on create). */
  current: readonly StoredVariant[];
  /** As sent (`variants`), if sent. */
  variants?: readonly VariantInput[];
  /** A bare countInStock, if sent. */
  countInStock?: number;
}

export interface VariantPlan {
  /** The product's variants after the write, in the order of its cells. */
  variants: StoredVariant[];
  /** Variants the write removes (their size or colour is no longer offered). */
  removed: StoredVariant[];
}

function describe(key: VariantKey): string {
  return `${key.size === null ? 'without a size' : `size ${key.size}`}, ${key.color === null ? 'without a color' : `color ${key.color}`}`;
}

export function bareStockMessage(variants: number): string {
  return (
    `This product has ${variants} variants (sizes × colours): set their stock with variants, ` +
    'e.g. [{ "size": "M", "color": "Red", "countInStock": 5 }], not with countInStock'
  );
}

/**
 * The variants a create or update leaves a product with: one per size × colour offered, in order. A cell that
 * was there keeps its SKU, stock and sales; a new one starts at 0 with the default SKU; `variants` sets the stock
 * (and SKU) of the cells it names; a bare `countInStock` sets the stock of a product with one variant, and is
 * refused (400) for one with several, unless `variants` is sent too (it is then ignored: it is the read-only sum).
 */
export function planVariants(input: VariantPlanInput): VariantPlan {
  const cells = variantCells(input.sizes, input.colors);
  const current = new Map(input.current.map((v) => [keyString(v), v]));
  const variants: StoredVariant[] = cells.map((cell) => {
    const kept = current.get(keyString(cell));
    return kept
      ? { ...kept }
      : {
          sku: defaultVariantSku(input.productSku, cell),
          size: cell.size,
          color: cell.color,
          countInStock: 0,
          soldCount: 0,
        };
  });
  const byKey = new Map(variants.map((v) => [keyString(v), v]));

  if (input.variants) {
    const seen = new Set<string>();
    for (const sent of input.variants) {
      const key = { size: optionOf(sent.size), color: optionOf(sent.color) };
      const variant = byKey.get(keyString(key));
      if (!variant)
        throw new BadRequestException(
          `The variant ${describe(key)} is not one of this product's sizes × colours (${cells.length} variants)`,
        );
      if (seen.has(keyString(key))) throw new BadRequestException(`The variant ${describe(key)} is given twice`);
      seen.add(keyString(key));
      variant.countInStock = sent.countInStock;
      if (sent.sku !== undefined) variant.sku = sent.sku.trim();
    }
  } else if (input.countInStock !== undefined) {
    if (variants.length !== 1) throw new BadRequestException(bareStockMessage(variants.length));
    variants[0].countInStock = input.countInStock;
  }

  const skus = new Set<string>();
  for (const v of variants) {
    if (skus.has(skuKey(v.sku))) throw new BadRequestException(`SKU ${v.sku} is given to more than one variant`);
    skus.add(skuKey(v.sku));
  }
  const kept = new Set(variants.map(keyString));
  return { variants, removed: input.current.filter((v) => !kept.has(keyString(v))) };
}
