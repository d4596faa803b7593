import type { VariantJson } from '@shop/contracts';
import type { ProductInfo } from './catalog-products';

/** A cart line's variant: its size and colour ('' where the product offers none). */
export interface VariantOfLine {
  size: string;
  color: string;
}

/** The product's variant a line is for, if the product has it. */
export function variantOf(product: Pick<ProductInfo, 'variants'>, line: VariantOfLine): VariantJson | undefined {
  return product.variants.find((v) => (v.size ?? '') === line.size && (v.color ?? '') === line.color);
}

/**
 * The product as the rules of one line see it: stock is kept per variant (a size × colour), so a line may hold up
 * to its variant's stock, not the product's (0 for a variant the product lacks). A catalog answer without variants
 * (a catalog older than them) leaves the product's.
 */
export function forLine(product: ProductInfo, line: VariantOfLine): ProductInfo {
  if (!product.variants.length) return product;
  return { ...product, countInStock: variantOf(product, line)?.countInStock ?? 0 };
}
