// The product edit form's values (what the inputs hold, as text) and the request they make (SPEC §5, API.md).
import type { Category, Gender, ProductImageJson, ProductJson } from '@shop/contracts';
import type { ProductInput } from './adminProductsSlice';

export interface ProductFormValues {
  name: string;
  description: string;
  price: string;
  originalPrice: string;
  countInStock: string;
  sku: string;
  category: Category | '';
  brand: string;
  material: string;
  gender: Gender;
  colors: string[];
  /** SPEC §5: typed comma-separated. */
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
    countInStock: product ? String(product.countInStock) : '0',
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

/** SPEC §5: "S, M ,,L " → ["S", "M", "L"]: split on commas, trimmed, blanks dropped. */
export function parseList(text: string): string[] {
  return text
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);
}

const number = (text: string) => (text.trim() === '' ? Number.NaN : Number(text));

/** The body of POST/PUT: numbers as numbers, an empty original price removes it, an empty SKU is left out. */
export function productInput(values: ProductFormValues): ProductInput {
  const sku = values.sku.trim();
  const stock = number(values.countInStock);
  return {
    name: values.name.trim(),
    description: values.description.trim(),
    price: number(values.price),
    originalPrice: values.originalPrice.trim() === '' ? null : number(values.originalPrice),
    countInStock: Number.isNaN(stock) ? 0 : stock,
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
  };
}
