import { toPounds, type ProductJson } from '@shop/contracts';
import { toVariantJson, variantsOf } from '../variants/variants';
import type { LeanProduct } from './product.schema';

function iso(value: unknown): string {
  return value instanceof Date ? value.toISOString() : new Date(String(value)).toISOString();
}

/**
 * The one shape a product leaves this service in (docs/api.md#products): pounds at the edge, no internals, image
 * URLs as clients load them (`toPublicUrl`, see asset-urls.ts).
 */
export function toProductJson(p: LeanProduct, toPublicUrl: (url: string) => string): ProductJson {
  const variants = variantsOf(p);
  const json: ProductJson = {
    _id: String(p._id),
    name: p.name,
    description: p.description,
    price: toPounds(p.pricePence),
    countInStock: variants.reduce((sum, v) => sum + v.countInStock, 0),
    sku: p.sku,
    category: p.category,
    brand: p.brand ?? '',
    sizes: p.sizes ?? [],
    colors: p.colors ?? [],
    variants: toVariantJson(variants),
    collections: p.collections ?? '',
    material: p.material ?? '',
    gender: p.gender,
    images: (p.images ?? []).map((i) => ({ url: toPublicUrl(i.url), altText: i.altText ?? '' })),
    rating: p.rating ?? 0,
    numReviews: p.numReviews ?? 0,
    isFeatured: !!p.isFeatured,
    isPublished: !!p.isPublished,
    tags: p.tags ?? [],
    createdAt: iso(p.createdAt),
    updatedAt: iso(p.updatedAt),
  };
  if (typeof p.originalPricePence === 'number') json.originalPrice = toPounds(p.originalPricePence);
  return json;
}

/** Fields public and admin reads load: everything but the checkouts' holds and returns (no reader shows them). */
export const PRODUCT_PROJECTION = { holds: 0, returnedCheckouts: 0, restockedReturns: 0 } as const;
