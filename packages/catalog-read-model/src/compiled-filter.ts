import type { MongoFilter } from './product-query';
import { FILTER_FIELDS, type CatalogueEntry, type FilterField } from './catalogue-entry';
import { asciiNeedleOf, caseInsensitiveMatcher, type SearchText, type TextField } from './text-search';

/** An equality or `$in` condition: the entry holds one of these values. */
export interface Equality {
  readonly field: FilterField;
  readonly values: readonly string[];
}

export interface PriceRange {
  readonly min?: number;
  readonly max?: number;
}

export interface CompiledFilter {
  readonly matches: (entry: CatalogueEntry) => boolean;
  /** It lets every product of the read model through (`matches` is always true). */
  readonly always: boolean;
  /** The conditions an index can start from. */
  readonly equalities: readonly Equality[];
  readonly price?: PriceRange;
  /** It searches text: by a needle the substring index can find, or (undefined) one each product must be tested for. */
  readonly text?: { readonly needle?: string };
}

type Check = (entry: CatalogueEntry) => boolean;

function isFilterField(key: string): key is FilterField {
  return (FILTER_FIELDS as readonly string[]).includes(key);
}

function unsupported(what: string): Error {
  return new Error(`the read model cannot run the filter ${what}`);
}

function equalityValues(field: string, condition: unknown): string[] {
  if (typeof condition === 'string') return [condition];
  const values = (condition as { $in?: unknown })?.$in;
  if (
    Object.keys(condition as object).length === 1 &&
    Array.isArray(values) &&
    values.every((v) => typeof v === 'string')
  )
    return values;
  throw unsupported(`${field}: ${JSON.stringify(condition)}`);
}

function priceRange(condition: unknown): PriceRange {
  const { $gte: min, $lte: max, ...rest } = condition as { $gte?: unknown; $lte?: unknown };
  if (
    Object.keys(rest).length ||
    (min !== undefined && typeof min !== 'number') ||
    (max !== undefined && typeof max !== 'number')
  )
    throw unsupported(`pricePence: ${JSON.stringify(condition)}`);
  return { min, max };
}

interface TextClause {
  readonly field: TextField;
  readonly pattern: string;
  readonly matches: (text: SearchText) => boolean;
}

function textClause(clause: MongoFilter): TextClause {
  const entries = Object.entries(clause) as Array<[string, { $regex?: unknown; $options?: unknown } | undefined]>;
  const [field, condition] = entries[0] ?? [];
  if (
    entries.length !== 1 ||
    (field !== 'name' && field !== 'description') ||
    typeof condition?.$regex !== 'string' ||
    condition.$options !== 'i' ||
    Object.keys(condition).length !== 2
  )
    throw unsupported(`$or: ${JSON.stringify(clause)}`);
  return { field, pattern: condition.$regex, matches: caseInsensitiveMatcher(condition.$regex, field) };
}

/** The substring index's needle for an `$or` that looks for one literal in both name and description. */
function needleOf(clauses: readonly TextClause[]): string | undefined {
  const [a, b] = clauses;
  const both = clauses.length === 2 && a.pattern === b.pattern && a.field !== b.field;
  return both ? asciiNeedleOf(a.pattern) : undefined;
}

/**
 * Runs a MongoDB filter of the public reads over entries: the very object the database path sends
 * (`toMongoFilter`), so that both answer the same question. It knows the operators that filter uses — equality and
 * `$in` on the indexed fields, `$gte`/`$lte` on the price, `$or` of case-insensitive `$regex` on name and
 * description — and refuses anything else, so a filter added there cannot quietly mean something else here.
 */
export function compileFilter(filter: MongoFilter): CompiledFilter {
  const checks: Check[] = [];
  const equalities: Equality[] = [];
  let price: PriceRange | undefined;
  let text: CompiledFilter['text'];
  for (const [key, condition] of Object.entries(filter)) {
    if (key === 'isPublished' && condition === true) continue; // the read model holds published products only
    if (isFilterField(key)) {
      const values = equalityValues(key, condition);
      const wanted = new Set(values);
      const [only] = values;
      equalities.push({ field: key, values });
      checks.push(
        values.length === 1
          ? (e) => e.values[key].includes(only) // the common case, and a fast one
          : (e) => e.values[key].some((v) => wanted.has(v)),
      );
    } else if (key === 'pricePence') {
      const { min, max } = (price = priceRange(condition));
      checks.push(
        (e) =>
          e.pricePence !== undefined &&
          (min === undefined || e.pricePence >= min) &&
          (max === undefined || e.pricePence <= max),
      );
    } else if (key === '$or' && Array.isArray(condition)) {
      const clauses = (condition as MongoFilter[]).map(textClause);
      text = { needle: needleOf(clauses) };
      checks.push((e) => clauses.some((clause) => clause.matches(e.text)));
    } else {
      throw unsupported(key);
    }
  }
  return {
    matches: (entry) => {
      for (const check of checks) if (!check(entry)) return false;
      return true;
    },
    always: checks.length === 0,
    equalities,
    price,
    text,
  };
}
