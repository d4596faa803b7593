// The collection page's filters and sort live in the query string (docs/product.md#collection-page): the URL is the one
// source of truth, so a shared link, Back and a reload restore them. These pure functions read and write it.
import { PRICE_FILTER_MAX, SORT_OPTIONS, type SortOption } from '@shop/contracts';

export interface Filters {
  category: string;
  gender: string;
  color: string;
  size: string[];
  material: string[];
  brand: string[];
  minPrice: number;
  maxPrice: number;
  sortBy: SortOption | '';
  search: string;
}

/**
 * Filters a shopper can pick several values of (sent comma-separated, any value matches: docs/api.md#product-filters).
 */
export const MULTI_FILTERS = ['size', 'material', 'brand'] as const;
export type MultiFilter = (typeof MULTI_FILTERS)[number];
export const SINGLE_FILTERS = ['category', 'gender', 'color', 'search', 'sortBy'] as const;
export type SingleFilter = (typeof SINGLE_FILTERS)[number];

/** What GET /api/products receives. */
export type ProductQuery = Partial<Record<SingleFilter | MultiFilter | 'collection', string>> & {
  minPrice?: number;
  maxPrice?: number;
};

export const DEFAULT_FILTERS: Filters = {
  category: '',
  gender: '',
  color: '',
  size: [],
  material: [],
  brand: [],
  minPrice: 0,
  maxPrice: PRICE_FILTER_MAX,
  sortBy: '',
  search: '',
};

const list = (value: string | null) =>
  value
    ? Array.from(
        new Set(
          value
            .split(',')
            .map((v) => v.trim())
            .filter(Boolean),
        ),
      )
    : [];

function price(value: string | null, fallback: number): number {
  if (value === null || value.trim() === '') return fallback;
  const n = Number(value);
  return Number.isFinite(n) && n >= 0 ? Math.min(n, PRICE_FILTER_MAX) : fallback;
}

export function parseFilters(params: URLSearchParams): Filters {
  const sortBy = params.get('sortBy') ?? '';
  return {
    category: params.get('category')?.trim() ?? '',
    gender: params.get('gender')?.trim() ?? '',
    color: params.get('color')?.trim() ?? '',
    size: list(params.get('size')),
    material: list(params.get('material')),
    brand: list(params.get('brand')),
    minPrice: price(params.get('minPrice'), 0),
    maxPrice: price(params.get('maxPrice'), PRICE_FILTER_MAX),
    sortBy: (SORT_OPTIONS as readonly string[]).includes(sortBy) ? (sortBy as SortOption) : '',
    search: params.get('search')?.trim() ?? '',
  };
}

/** The call for a collection and its filters: empty filters, a zero minimum and the default maximum are not sent. */
export function toProductQuery(collection: string | undefined, filters: Filters): ProductQuery {
  const query: ProductQuery = {};
  if (collection && collection.toLowerCase() !== 'all') query.collection = collection;
  for (const key of SINGLE_FILTERS) if (filters[key]) query[key] = filters[key];
  for (const key of MULTI_FILTERS) if (filters[key].length) query[key] = filters[key].join(',');
  if (filters.minPrice > 0) query.minPrice = filters.minPrice;
  if (filters.maxPrice < PRICE_FILTER_MAX) query.maxPrice = filters.maxPrice;
  return query;
}

/** The query string for these filters, keeping any other parameter of `base` (e.g. a campaign tag). */
export function toSearchParams(filters: Filters, base: URLSearchParams = new URLSearchParams()): URLSearchParams {
  const next = new URLSearchParams(base);
  for (const key of SINGLE_FILTERS) {
    if (filters[key]) next.set(key, filters[key]);
    else next.delete(key);
  }
  for (const key of MULTI_FILTERS) {
    if (filters[key].length) next.set(key, filters[key].join(','));
    else next.delete(key);
  }
  if (filters.minPrice > 0) next.set('minPrice', String(filters.minPrice));
  else next.delete('minPrice');
  if (filters.maxPrice < PRICE_FILTER_MAX) next.set('maxPrice', String(filters.maxPrice));
  else next.delete('maxPrice');
  return next;
}

/** One value of a multi-value filter switched on or off. */
export function toggleValue(values: string[], value: string): string[] {
  return values.includes(value) ? values.filter((v) => v !== value) : [...values, value];
}

/** How many filters differ from the defaults (the sort and the search excluded): the drawer button's badge. */
export function activeFilterCount(filters: Filters): number {
  let n = 0;
  if (filters.category) n++;
  if (filters.gender) n++;
  if (filters.color) n++;
  n += filters.size.length + filters.material.length + filters.brand.length;
  if (filters.minPrice > 0) n++;
  if (filters.maxPrice < PRICE_FILTER_MAX) n++;
  return n;
}
