/** SPEC §9: the catalogue's fixed vocabularies. */
export const CATEGORIES = ['Top Wear', 'Bottom Wear', 'Accessories', 'Equipment'] as const;
export type Category = (typeof CATEGORIES)[number];

export const GENDERS = ['Men', 'Women', 'Unisex'] as const;
export type Gender = (typeof GENDERS)[number];
/** The filter sidebar offers only these two; the edit form adds Unisex. */
export const FILTER_GENDERS = ['Men', 'Women'] as const;

export const SIZES = ['XS', 'S', 'M', 'L', 'XL', 'XXL'] as const;
export type Size = (typeof SIZES)[number];

export const FILTER_COLORS = ['Red', 'Blue', 'Black', 'Green', 'Yellow', 'Gray', 'White', 'Pink', 'Beige', 'Navy', 'Purple'] as const;
export const EDIT_FORM_COLORS = ['Black', 'White', 'Red', 'Blue', 'Green', 'Yellow', 'Purple', 'Pink', 'Gray', 'Brown'] as const;
/** Every colour a product may carry: the union of the filter and edit-form lists. */
export const COLORS = Array.from(new Set<string>([...FILTER_COLORS, ...EDIT_FORM_COLORS]));

export const MATERIALS = ['Cotton', 'Wool', 'Denim', 'Polyester', 'Silk', 'Linen', 'Viscose', 'Fleece'] as const;
export type Material = (typeof MATERIALS)[number];

export const BRANDS = [
  'Arizona Cardinals',
  'Atlanta Falcons',
  'Baltimore Ravens',
  'Green Bay Packers',
  'New England Patriots',
  'San Francisco 49ers',
  'Pittsburgh Steelers',
  'Philadelphia Eagles',
] as const;
export type Brand = (typeof BRANDS)[number];

export const SORT_OPTIONS = ['priceAsc', 'priceDesc', 'popularity'] as const;
export type SortOption = (typeof SORT_OPTIONS)[number];

export const ORDER_STATUSES = ['Processing', 'Shipped', 'Delivered', 'Cancelled'] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

export const CURRENCY = 'GBP';
export const PRICE_FILTER_MAX = 500;
export const FREE_SHIPPING_THRESHOLD_PENCE = 5000;

/** Money is integer pence inside; these convert at the API edge. */
export function toPence(pounds: number): number {
  return Math.round(pounds * 100);
}
export function toPounds(pence: number): number {
  return Math.round(pence) / 100;
}
