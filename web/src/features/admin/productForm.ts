// The product edit form's values (what the inputs hold, as text) and the request they make
// (docs/product.md#validation).
import type { Category, Gender, ProductImageJson, ProductJson } from '@shop/contracts';
import type { ProductInput, VariantInput } from './adminProductsSlice';

/** One cell of the stock grid as typed: its units and its SKU ('' for the server's default). */
export interface StockCell {
  countInStock: string;
  sku: string;
}

/** A cell's key: its size and colour ('' where the product offers none). */
export const cellKey = (size: string | null, color: string | null) => `${size ?? ''}|${color ?? ''}`;

/** "M / Green", "M", "Green", or "the product" when it comes in one size and colour only. */
export const cellName = (size: string | null, color: string | null) =>
  [size, color].filter(Boolean).join(' / ') || 'the product';

export interface ProductFormValues {
  name: string;
  description: string;
  price: string;
  originalPrice: string;
  /**
   * Every cell the form has shown, by cellKey: a size or colour taken off and put back finds its stock again; only
   * the cells of the current sizes × colours are sent.
   */
  stock: Record<string, StockCell>;
  sku: string;
  category: Category | '';
  brand: string;
  material: string;
  gender: Gender;
  colors: string[];
  /** Typed comma-separated (docs/product.md#validation). */
  sizes: string;
  collections: string;
  isPublished: boolean;
  images: ProductImageJson[];
}

export function formValues(product?: ProductJson | null): ProductFormValues {
  return {
    name: product?.name ?? '',
    description: product?.description ?? '',
    price: product ? product.price.toFixed(2) : '',
    originalPrice: product?.originalPrice != null ? product.originalPrice.toFixed(2) : '',
    stock: Object.fromEntries(
      (product?.variants ?? []).map((v) => [
        cellKey(v.size, v.color),
        { countInStock: String(v.countInStock), sku: v.sku },
      ]),
    ),
    sku: product?.sku ?? '',
    category: product?.category ?? '',
    brand: product?.brand ?? '',
    material: product?.material ?? '',
    gender: product?.gender ?? 'Unisex',
    colors: product?.colors ?? [],
    sizes: product?.sizes.join(', ') ?? '',
    collections: product?.collections ?? '',
    isPublished: product?.isPublished ?? true,
    images: product?.images ?? [],
  };
}

/** "S, M ,,L " → ["S", "M", "L"]: split on commas, trimmed, blanks dropped (docs/product.md#validation). */
export function parseList(text: string): string[] {
  return text
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);
}

const number = (text: string) => (text.trim() === '' ? Number.NaN : Number(text));

/** The grid's rows and columns: the sizes typed (each once) and the colours ticked; [null] where there are none. */
export function gridAxes(values: Pick<ProductFormValues, 'sizes' | 'colors'>) {
  const sizes = Array.from(new Set(parseList(values.sizes)));
  return {
    sizes: sizes.length ? sizes : [null],
    colors: values.colors.length ? values.colors : [null],
  };
}

/** The cell of a size and colour: what was typed, else 0 units and the default SKU. */
export const stockCell = (values: Pick<ProductFormValues, 'stock'>, size: string | null, color: string | null) =>
  values.stock[cellKey(size, color)] ?? { countInStock: '0', sku: '' };

/** The whole grid as the server takes it: one variant per size × colour, an empty cell at 0, an empty SKU left out. */
export function variantsInput(values: Pick<ProductFormValues, 'sizes' | 'colors' | 'stock'>): VariantInput[] {
  const { sizes, colors } = gridAxes(values);
  return sizes.flatMap((size) =>
    colors.map((color) => {
      const cell = stockCell(values, size, color);
      const units = number(cell.countInStock);
      const sku = cell.sku.trim();
      return { size, color, countInStock: Number.isNaN(units) ? 0 : units, ...(sku ? { sku } : {}) };
    }),
  );
}

/**
 * The body of POST/PUT: numbers as numbers, an empty original price removes it, an empty SKU is left out, and the
 * stock as `variants` (never a bare countInStock: the product's total is the sum of its variants).
 */
export function productInput(values: ProductFormValues): ProductInput {
  const sku = values.sku.trim();
  return {
    name: values.name.trim(),
    description: values.description.trim(),
    price: number(values.price),
    originalPrice: values.originalPrice.trim() === '' ? null : number(values.originalPrice),
    ...(sku ? { sku } : {}),
    category: values.category as Category,
    brand: values.brand.trim(),
    sizes: parseList(values.sizes),
    colors: values.colors,
    collections: values.collections.trim(),
    material: values.material.trim(),
    gender: values.gender,
    images: values.images.map((image) => ({ url: image.url, altText: image.altText.trim() })),
    isPublished: values.isPublished,
    variants: variantsInput(values),
  };
}
