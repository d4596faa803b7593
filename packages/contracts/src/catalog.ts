/** The catalogue's fixed vocabularies (docs/product.md#business-constants). */
export const CATEGORIES = ['Top Wear', 'Bottom Wear', 'Accessories', 'Equipment'] as const;
export type Category = (typeof CATEGORIES)[number];

export const GENDERS = ['Men', 'Women', 'Unisex'] as const;
export type Gender = (typeof GENDERS)[number];
/** The filter sidebar offers only these two; the edit form adds Unisex. */
export const FILTER_GENDERS = ['Men', 'Women'] as const;

export const SIZES = ['XS', 'S', 'M', 'L', 'XL', 'XXL'] as const;
export type Size = (typeof SIZES)[number];

export const FILTER_COLORS = [
  'Red',
  'Blue',
  'Black',
  'Green',
  'Yellow',
  'Gray',
  'White',
  'Pink',
  'Beige',
  'Navy',
  'Purple',
] as const;
export const EDIT_FORM_COLORS = [
  'Black',
  'White',
  'Red',
  'Blue',
  'Green',
  'Yellow',
  'Purple',
  'Pink',
  'Gray',
  'Brown',
] as const;
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

/** One answer of GET /api/products/suggest: what the header search shows as you type. */
export interface ProductSuggestionJson {
  name: string;
  /** The product's team (its brand). */
  team: string;
  /** GBP, as ProductJson's price. */
  price: number;
  /** The first image's URL, or null for a product without one. */
  thumbnail: string | null;
  /** The product page's path in the shop (`/product/<id>`). */
  url: string;
}

/** GET /api/products/suggest?q=: up to 8 suggestions, best first; when none, what the shopper may have meant. */
export interface ProductSuggestionsJson {
  suggestions: ProductSuggestionJson[];
  /** Only when nothing matched and a close spelling would: the words to search for instead. */
  didYouMean: string | null;
}

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

// ---- HTTP shapes (docs/api.md#products)

export interface ProductImageJson {
  url: string;
  altText: string;
}

/**
 * One variant of a product: a size × colour it offers, with its own SKU and stock. `size` is null when the product
 * offers no sizes, `color` null when it offers no colours (a product offering neither has one variant).
 */
export interface VariantJson {
  sku: string;
  size: string | null;
  color: string | null;
  /** Units of this variant that can still be bought now. */
  countInStock: number;
}

/** A variant as admins set it on create and update (`variants` of the product's body). */
export interface VariantInput {
  size?: string | null;
  color?: string | null;
  countInStock: number;
  /** Default `<product sku>-<size>-<color>` (upper-case, the parts present); unique across the catalogue. */
  sku?: string;
}

/** The low-stock threshold of the admin dashboard when none is configured or asked for. */
export const DEFAULT_LOW_STOCK_THRESHOLD = 5;

/** GET /api/admin/products/low-stock: one variant at or below the threshold. */
export interface LowStockVariantJson {
  productId: string;
  name: string;
  sku: string;
  size: string | null;
  color: string | null;
  countInStock: number;
}

export interface LowStockJson {
  threshold: number;
  /** Lowest stock first. */
  variants: LowStockVariantJson[];
}

/** The variants of a product offering these sizes and colours, as (size, color) cells: sizes first, then colours. */
export function variantCells(
  sizes: readonly string[],
  colors: readonly string[],
): Array<{
  size: string | null;
  color: string | null;
}> {
  const rows: Array<string | null> = sizes.length ? [...sizes] : [null];
  const columns: Array<string | null> = colors.length ? [...colors] : [null];
  return rows.flatMap((size) => columns.map((color) => ({ size, color })));
}

/** A product as every /api response shows it: GBP numbers with two decimals, no internals. */
export interface ProductJson {
  _id: string;
  name: string;
  description: string;
  price: number;
  /** Present only when the product has one; shown struck through when above price. */
  originalPrice?: number;
  /** The sum of the variants' stock (read-only). */
  countInStock: number;
  sku: string;
  category: Category;
  brand: string;
  sizes: string[];
  colors: string[];
  /** One per size × colour offered, in the order of `sizes`, then `colors`. */
  variants: VariantJson[];
  collections: string;
  material: string;
  gender: Gender;
  images: ProductImageJson[];
  /** The average of the product's visible reviews (two decimals), 0 with none: never set by a client (reviews.ts). */
  rating: number;
  /** How many visible reviews it has. */
  numReviews: number;
  isFeatured: boolean;
  isPublished: boolean;
  tags: string[];
  createdAt: string;
  updatedAt: string;
}

export interface UploadResponse {
  /** A path the browser loads through the gateway, e.g. /uploads/3f2a….webp */
  imageUrl: string;
}

// ---- Request/response: PATTERNS.catalog.priceLines

export interface LineRequest {
  productId: string;
  quantity: number;
  size?: string;
  color?: string;
}

export interface PriceLinesRequest {
  lines: LineRequest[];
}

/** Why a line cannot be sold as asked. */
export const LINE_PROBLEMS = [
  'invalid_product_id',
  'not_found', // unknown, deleted or unpublished
  'invalid_quantity', // not an integer 1–99
  'size_not_offered',
  'color_not_offered',
  'size_required', // the product comes in sizes and the line names none
  'color_required', // the product comes in colours and the line names none
  'out_of_stock', // nothing available
  'insufficient_stock', // fewer available than asked
] as const;
export type LineProblem = (typeof LINE_PROBLEMS)[number];

export interface PricedLine {
  productId: string;
  quantity: number;
  size?: string;
  color?: string;
  /** false when the line cannot be sold as asked; `problem` and `message` say why. */
  ok: boolean;
  problem?: LineProblem;
  /** A sentence for the shopper, e.g. "Only 2 left in stock". */
  message?: string;
  /** Present unless the product is unknown (problem invalid_product_id / not_found). */
  name?: string;
  image?: string;
  /** Current unit price: pence (exact) and pounds (for display). */
  unitPricePence?: number;
  price?: number;
  sizes?: string[];
  colors?: string[];
  /**
   * Units that can still be bought now: of the line's variant when the line names one (its size and colour), else
   * of the whole product (the sum of its variants).
   */
  countInStock?: number;
  /** The SKU of the line's variant, when the line names one. */
  sku?: string;
  /** Every variant of the product, with its stock (present unless the product is unknown). */
  variants?: VariantJson[];
}

/** A line's size or colour as a variant names it: absent, null and '' are "none" (null). */
export function variantOption(value: unknown): string | null {
  return value === undefined || value === null || value === '' ? null : String(value);
}

/**
 * Why a line's size and colour name no variant of the product, if they do not: an option it does not offer, or none
 * where it offers some (a line for a jersey must say which one). The one rule of a line's options, for the catalog's
 * pricing and holds and the cart's adds alike.
 */
export function lineOptionProblem(
  product: { name: string; sizes: readonly string[]; colors: readonly string[] },
  line: { size?: unknown; color?: unknown },
): { problem: LineProblem; message: string } | undefined {
  const size = variantOption(line.size);
  const color = variantOption(line.color);
  if (size !== null && !product.sizes.includes(size))
    return { problem: 'size_not_offered', message: `Size ${size} is not offered for ${product.name}` };
  if (color !== null && !product.colors.includes(color))
    return { problem: 'color_not_offered', message: `Color ${color} is not offered for ${product.name}` };
  if (size === null && product.sizes.length)
    return { problem: 'size_required', message: `Please choose a size of ${product.name}` };
  if (color === null && product.colors.length)
    return { problem: 'color_required', message: `Please choose a color of ${product.name}` };
  return undefined;
}

export interface PriceLinesResponse {
  lines: PricedLine[];
  /** Sum of unitPricePence × quantity over the ok lines. */
  totalPence: number;
  /** true when every line is ok. */
  ok: boolean;
}

// ---- Request/response: PATTERNS.catalog.reserveStock

export interface ReserveStockRequest {
  /** The checkout the units are held for; reserving again for it is idempotent. */
  checkoutId: string;
  lines: LineRequest[];
  /** Hold time; default RESERVATION_TTL_SECONDS of the catalog (15 min). */
  ttlSeconds?: number;
  /**
   * ISO time after which the caller no longer waits for the answer: a request that reaches the products' locks
   * later holds nothing (503), so a caller that timed out never leaves stock held for a checkout it gave up on.
   */
  notAfter?: string;
}

/** The units held of one variant of a product. */
export interface ReservedLine {
  productId: string;
  quantity: number;
  name: string;
  /** The product's first image, as a shopper loads it ('' when it has none; absent from older catalogs). */
  image?: string;
  unitPricePence: number;
  size: string | null;
  color: string | null;
  sku: string;
}

/**
 * All lines are held, or none (errors: 400 bad request — a size or colour not offered, or missing where the product
 * offers them —, 404 `Product not found`, 409 `Only N left in stock for <name> (<size>, <color>)` /
 * `<name> (<size>, <color>) is out of stock`). Stock is held per variant; lines of the same variant add up.
 */
export interface ReserveStockResponse {
  checkoutId: string;
  /** ISO time the hold ends unless the order is placed first. */
  expiresAt: string;
  lines: ReservedLine[];
}

// ---- Request/response: PATTERNS.catalog.releaseStock

export interface ReleaseStockRequest {
  checkoutId: string;
}

export interface ReleaseStockResponse {
  checkoutId: string;
  /** Units given back by this call, per product (empty when already released, committed or never held). */
  released: Array<{ productId: string; quantity: number }>;
}
