import { BRANDS, COLORS, MATERIALS, SIZES, toPence } from '@shop/contracts';

/** The filters GET /api/products understands (docs/api.md#product-filters); every other key is ignored. */
export const FILTER_KEYS = [
  'collection',
  'category',
  'gender',
  'size',
  'color',
  'material',
  'brand',
  'minPrice',
  'maxPrice',
  'search',
  'sortBy',
  'limit',
] as const;
type FilterKey = (typeof FILTER_KEYS)[number];

export const SEARCH_MAX_LENGTH = 100;
export const NEW_ARRIVALS_COUNT = 8;
export const SIMILAR_COUNT = 4;
export const LIMIT_MAX = 100;
const LIST_MAX_VALUES = 20;

/** A validated, normalised product list query: the same meaning always gives the same object. */
export interface ProductListQuery {
  collection?: string;
  category?: string;
  gender?: string;
  sizes?: string[];
  colors?: string[];
  materials?: string[];
  brands?: string[];
  minPricePence?: number;
  maxPricePence?: number;
  search?: string;
  /** `relevance`: a search without a sort of its own (best matches first, see product-search.ts). */
  sortBy: 'priceAsc' | 'priceDesc' | 'popularity' | 'newest' | 'relevance';
  /** 0 = no limit */
  limit: number;
}

/**
 * A malformed list query: its message is the sentence a client gets with a 400 (the catalog turns it into
 * Nest's BadRequestException).
 */
export class QueryError extends Error {
  readonly status = 400;
}

export type MongoFilter = Record<string, unknown>;
export type MongoSort = Record<string, 1 | -1>;

export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function canonical(vocabulary: readonly string[], value: string): string {
  return vocabulary.find((v) => v.toLowerCase() === value.toLowerCase()) ?? value;
}

/**
 * Reads one query value as a single string. Express 5's "simple" parser gives an array for a
 * repeated key; an extended parser could give an object: both are refused, never passed on.
 */
function single(raw: Record<string, unknown>, key: FilterKey): string | undefined {
  const value = raw[key];
  if (value === undefined || value === null) return undefined;
  if (Array.isArray(value)) throw new QueryError(`Give the ${key} filter only once`);
  if (typeof value !== 'string') throw new QueryError(`Invalid ${key} filter`);
  const trimmed = value.trim();
  return trimmed === '' ? undefined : trimmed;
}

function list(raw: Record<string, unknown>, key: FilterKey, vocabulary: readonly string[]): string[] | undefined {
  const value = single(raw, key);
  if (value === undefined) return undefined;
  const values = [
    ...new Set(
      value
        .split(',')
        .map((v) => canonical(vocabulary, v.trim()))
        .filter(Boolean),
    ),
  ];
  if (values.length > LIST_MAX_VALUES) throw new QueryError(`Too many values in the ${key} filter`);
  return values.length ? values.sort() : undefined;
}

function price(raw: Record<string, unknown>, key: 'minPrice' | 'maxPrice'): number | undefined {
  const value = single(raw, key);
  if (value === undefined) return undefined;
  if (!/^\d+(\.\d+)?$/.test(value) || !Number.isFinite(Number(value))) {
    throw new QueryError(`${key} must be a number of pounds, e.g. 49.99`);
  }
  return toPence(Number(value));
}

function allOrValue(value: string | undefined): string | undefined {
  return value === undefined || value.toLowerCase() === 'all' ? undefined : value;
}

/** Parses and validates the query of GET /api/products. Throws a QueryError (a 400) with a sentence for bad input. */
export function parseProductListQuery(raw: Record<string, unknown>): ProductListQuery {
  // `gender[$ne]=x` reaches us as the literal key "gender[$ne]" (simple parser): an operator smuggled
  // into a known filter is an error, not an unknown key to ignore.
  for (const key of Object.keys(raw)) {
    const bracket = /^([^[\]]+)\[/.exec(key);
    if (bracket && (FILTER_KEYS as readonly string[]).includes(bracket[1])) {
      throw new QueryError(`Invalid ${bracket[1]} filter`);
    }
  }

  const q: ProductListQuery = { sortBy: 'newest', limit: 0 };
  const collection = allOrValue(single(raw, 'collection'));
  if (collection) q.collection = collection;
  const category = allOrValue(single(raw, 'category'));
  if (category) q.category = category;
  const gender = allOrValue(single(raw, 'gender'));
  if (gender) q.gender = gender;

  const sizes = list(raw, 'size', SIZES);
  if (sizes) q.sizes = sizes;
  const colors = list(raw, 'color', COLORS);
  if (colors) q.colors = colors;
  const materials = list(raw, 'material', MATERIALS);
  if (materials) q.materials = materials;
  const brands = list(raw, 'brand', BRANDS);
  if (brands) q.brands = brands;

  const min = price(raw, 'minPrice');
  if (min !== undefined) q.minPricePence = min;
  const max = price(raw, 'maxPrice');
  if (max !== undefined) q.maxPricePence = max;

  const search = single(raw, 'search');
  if (search) q.search = search.slice(0, SEARCH_MAX_LENGTH);

  const sortBy = single(raw, 'sortBy');
  if (sortBy === 'priceAsc' || sortBy === 'priceDesc' || sortBy === 'popularity') q.sortBy = sortBy;
  else if (q.search) q.sortBy = 'relevance';

  const limit = single(raw, 'limit');
  if (limit !== undefined) {
    if (!/^\d+$/.test(limit)) throw new QueryError('limit must be a positive whole number');
    q.limit = Math.min(Number(limit), LIMIT_MAX);
  }
  return q;
}

/** The MongoDB filter of a list query, published products only. Only $in/$gte/$lte/$regex/$or: the FerretDB subset. */
export function toMongoFilter(q: ProductListQuery): MongoFilter {
  const filter: MongoFilter = { isPublished: true };
  if (q.collection) filter.collections = q.collection;
  if (q.category) filter.category = q.category;
  if (q.gender) filter.gender = q.gender;
  if (q.sizes) filter.sizes = { $in: q.sizes };
  if (q.colors) filter.colors = { $in: q.colors };
  if (q.materials) filter.material = { $in: q.materials };
  if (q.brands) filter.brand = { $in: q.brands };
  if (q.minPricePence !== undefined || q.maxPricePence !== undefined) {
    const range: Record<string, number> = {};
    if (q.minPricePence !== undefined) range.$gte = q.minPricePence;
    if (q.maxPricePence !== undefined) range.$lte = q.maxPricePence;
    filter.pricePence = range;
  }
  if (q.search) {
    const pattern = escapeRegExp(q.search);
    filter.$or = [{ name: { $regex: pattern, $options: 'i' } }, { description: { $regex: pattern, $options: 'i' } }];
  }
  return filter;
}

export const NEWEST_FIRST: MongoSort = { createdAt: -1, _id: -1 };

/** Similar products: best rated first, then most sold. */
export const SIMILAR_ORDER: MongoSort = { rating: -1, soldCount: -1, _id: 1 };

/** The best seller is the first of this order: most units sold; rating, then reviews, break ties. */
export const BEST_SELLER_ORDER: MongoSort = { soldCount: -1, rating: -1, numReviews: -1, _id: 1 };

/**
 * Every order ends in a unique key, so equal prices or ratings never shuffle between requests. Relevance is the
 * read model's (a score); the database, which has no such index, answers it newest first.
 */
export function toMongoSort(sortBy: ProductListQuery['sortBy']): MongoSort {
  switch (sortBy) {
    case 'priceAsc':
      return { pricePence: 1, createdAt: -1, _id: -1 };
    case 'priceDesc':
      return { pricePence: -1, createdAt: -1, _id: -1 };
    case 'popularity':
      return { rating: -1, soldCount: -1, numReviews: -1, _id: -1 };
    default:
      return NEWEST_FIRST;
  }
}

/** A stable text form of the query, for cache keys. */
export function cacheKeyOf(q: ProductListQuery): string {
  return JSON.stringify(Object.entries(q).sort(([a], [b]) => (a < b ? -1 : 1)));
}

export const SUGGEST_MIN_LENGTH = 2;
export const SUGGEST_MAX_LENGTH = 100;
export const SUGGESTIONS_MAX = 8;

/**
 * The `q` of GET /api/products/suggest, trimmed; undefined when it is shorter than SUGGEST_MIN_LENGTH (nothing
 * to suggest yet: an empty answer, not an error). A repeated or bracketed `q`, or one over SUGGEST_MAX_LENGTH
 * characters, is a QueryError.
 */
export function parseSuggestQuery(raw: Record<string, unknown>): string | undefined {
  for (const key of Object.keys(raw)) if (/^q\[/.test(key)) throw new QueryError('Invalid q');
  const value = raw.q;
  if (value === undefined || value === null) return undefined;
  if (Array.isArray(value)) throw new QueryError('Give q only once');
  if (typeof value !== 'string') throw new QueryError('Invalid q');
  const q = value.trim();
  if (q.length > SUGGEST_MAX_LENGTH) throw new QueryError(`q must be at most ${SUGGEST_MAX_LENGTH} characters`);
  return [...q].length < SUGGEST_MIN_LENGTH ? undefined : q;
}
