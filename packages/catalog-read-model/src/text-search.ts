import { escapeRegExp } from './product-query';

/** A product's name and description as text filters read them. */
export interface SearchText {
  readonly name?: string;
  readonly description?: string;
  /**
   * Set when either is not pure ASCII: both then held as stored, and here as an ASCII needle is compared with them
   * (`foldForAsciiNeedles`). Unset, both are pure ASCII and held lower-cased.
   */
  readonly folded?: { readonly name?: string; readonly description?: string };
}
export type TextField = 'name' | 'description';

const NON_ASCII = /[\u0080-\uffff]/;

function text(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/**
 * A text as a case-insensitive match of an ASCII needle reads it: ASCII letters lower-cased, `ſ` as `s` and the Kelvin
 * sign as `k`, anything else as it is. A case-insensitive Unicode match (the database's, a regex's `iu`) compares
 * characters by their simple case folding, and those two are the only characters outside ASCII that fold to an ASCII
 * one (text-search.spec.ts tries every code point). So an ASCII needle, lower-cased, is in this text exactly when it
 * matches the text: no regex is needed. (`toLowerCase` would not do: it makes `İ` into `i̇`, which `i` does not match.)
 */
export function foldForAsciiNeedles(value: string): string {
  return value.replace(/[A-Z\u017f\u212a]/g, (c) => (c === '\u017f' ? 's' : c === '\u212a' ? 'k' : c.toLowerCase()));
}

export function searchTextOf(name: unknown, description: unknown): SearchText {
  const n = text(name);
  const d = text(description);
  if (NON_ASCII.test(n ?? '') || NON_ASCII.test(d ?? ''))
    return {
      name: n,
      description: d,
      folded: { name: n && foldForAsciiNeedles(n), description: d && foldForAsciiNeedles(d) },
    };
  return { name: n?.toLowerCase(), description: d?.toLowerCase() };
}

/** The name and description as an ASCII needle is looked for in them (lower-case when ASCII, else folded). */
export function asciiSearchable(t: SearchText): { readonly name?: string; readonly description?: string } {
  return t.folded ?? t;
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
 * folding (`ſ` matches `s`, the Kelvin sign matches `k`). An ASCII literal (what a search sends, mostly) is a substring
 * test on the text as lower-cased or folded for it; anything else runs a case-insensitive Unicode regex, as the
 * database does.
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
  return (t) => asciiSearchable(t)[field]?.includes(lower) === true;
}
