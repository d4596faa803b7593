import { escapeRegExp } from './product-query';

/** A product's name and description as text filters read them. */
export interface SearchText {
  readonly name?: string;
  readonly description?: string;
  /** Both are pure ASCII, and held lower-cased; otherwise they are held as stored. */
  readonly ascii: boolean;
}
export type TextField = 'name' | 'description';

const NON_ASCII = /[\u0080-\uffff]/;

function text(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

export function searchTextOf(name: unknown, description: unknown): SearchText {
  const n = text(name);
  const d = text(description);
  if (NON_ASCII.test(n ?? '') || NON_ASCII.test(d ?? '')) return { name: n, description: d, ascii: false };
  return { name: n?.toLowerCase(), description: d?.toLowerCase(), ascii: true };
}

/** The text a pattern matches when it is nothing but an escaped literal (what the search filter sends). */
function literalOf(pattern: string): string | undefined {
  const literal = pattern.replace(/\\(.)/gsu, '$1');
  return escapeRegExp(literal) === pattern ? literal : undefined;
}

/**
 * What a case-insensitive pattern matches, as a lower-case needle for the substring index: when the pattern is an
 * escaped literal of ASCII characters; else undefined.
 */
export function asciiNeedleOf(pattern: string): string | undefined {
  const literal = literalOf(pattern);
  return literal === undefined || NON_ASCII.test(literal) ? undefined : literal.toLowerCase();
}

/**
 * `{$regex: pattern, $options: 'i'}` on one text field. The database matches case-insensitively by Unicode case
 * folding (`ſ` matches `s`, the Kelvin sign matches `k`); comparing lower-cased strings is the same thing only when
 * both sides are ASCII. So that common case is a substring test on the lower-cased text, and anything else runs a
 * case-insensitive Unicode regex, as the database does.
 */
export function caseInsensitiveMatcher(pattern: string, field: TextField): (text: SearchText) => boolean {
  const regex = new RegExp(pattern, 'iu');
  const byRegex = (t: SearchText): boolean => {
    const value = t[field];
    return value !== undefined && regex.test(value);
  };
  const literal = literalOf(pattern);
  if (literal === undefined || NON_ASCII.test(literal)) return byRegex;
  const lower = literal.toLowerCase();
  return (t) => (t.ascii ? t[field]?.includes(lower) === true : byRegex(t));
}
