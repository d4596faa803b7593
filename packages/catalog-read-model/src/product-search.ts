import MiniSearch, { type Query } from 'minisearch';
import { teamTextOf } from './nfl-teams';

/** What the search reads of a product (a CatalogueEntry fits). */
export interface SearchableProduct {
  readonly _id: string;
  readonly text: { readonly name?: string; readonly description?: string };
  readonly values: { readonly brand: readonly string[] };
}

/** A product the search found: its score, and whether every word of the query is one of its words as typed. */
export interface SearchHit {
  readonly id: string;
  readonly score: number;
  readonly exact: boolean;
}

interface SearchDocument {
  id: string;
  name: string;
  team: string;
  description: string;
}

/** Name above team above description. */
const BOOST = { name: 3, team: 2, description: 1 };
/** Words this short get no typo allowance: one edit of "cap" is nearly any three letters. */
const FUZZY_MIN_LENGTH = 4;
/** A query's words after the first few are ignored: each costs a walk of the index. */
export const SEARCH_MAX_TERMS = 8;
/**
 * Queries' hits are kept until the texts change (stock writes leave them alone), up to so many hits in all (about
 * 20 MB): a broad word at 100,000 products finds tens of thousands.
 */
const HITS_CACHED = 300_000;
/** Catalogues up to this size are indexed at once; larger ones in chunks, between which requests are served. */
const SYNC_BUILD_MAX = 5_000;
const BUILD_CHUNK = 2_000;

/** Words found in nearly every product: indexing them costs memory and finds nothing. */
const STOP_WORDS = new Set(
  'a an and are as at be but by for from has her his in into is it its of on or our so that the their this to with s'.split(
    ' ',
  ),
);

/** Lower-case, without accents ("naïve" is found by "naive"); stop words and single letters are dropped. */
export function processTerm(term: string): string | null {
  const t = term.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
  if (t.length < 2 && !/\d/.test(t)) return null;
  return STOP_WORDS.has(t) ? null : t;
}

const tokenize = MiniSearch.getDefault('tokenize') as (text: string) => string[];

/** The words of a query the search looks for, in order, each once, at most SEARCH_MAX_TERMS. */
export function queryTermsOf(query: string): string[] {
  const terms: string[] = [];
  for (const token of tokenize(query)) {
    const term = processTerm(token);
    if (term && !terms.includes(term)) terms.push(term);
    if (terms.length === SEARCH_MAX_TERMS) break;
  }
  return terms;
}

/**
 * Whether the start of `term` is one typo from `typed`, the word a shopper is still typing ("hod" → "hoodie"):
 * one letter changed or two swapped ("hoid"), one left out ("hod"), or — for four letters or more — one too many
 * ("hoood"). A start that is the word as typed is not a typo: the prefix search finds those.
 */
export function startsWithOneTypo(typed: string, term: string): boolean {
  const n = typed.length;
  if (term.startsWith(typed)) return false;
  if (term.length >= n) {
    let first = -1;
    let differences = 0;
    for (let i = 0; i < n && differences < 3; i++) {
      if (typed[i] === term[i]) continue;
      if (first < 0) first = i;
      differences++;
    }
    if (differences === 1) return true;
    if (differences === 2 && typed[first] === term[first + 1] && typed[first + 1] === term[first]) return true;
  }
  if (term.length > n && isOneLetterMore(term.slice(0, n + 1), typed)) return true;
  return n >= 4 && isOneLetterMore(typed, term.slice(0, n - 1));
}

/** Whether `longer` is `shorter` with one letter put in somewhere. */
function isOneLetterMore(longer: string, shorter: string): boolean {
  if (longer.length !== shorter.length + 1) return false;
  let i = 0;
  while (i < shorter.length && longer[i] === shorter[i]) i++;
  return longer.slice(i + 1) === shorter.slice(i);
}

/** The shortest word still being typed that typo-tolerant completion applies to: below that, anything is a typo. */
const TYPED_TYPO_MIN_LENGTH = 3;
/** At most so many words complete a mistyped start: the likeliest ones are the shortest. */
const COMPLETIONS_MAX = 24;
/** Completions of a mistyped start weigh as MiniSearch weighs a fuzzy match. */
const COMPLETION_WEIGHT = 0.45;

function documentOf(product: SearchableProduct): SearchDocument {
  const [brand] = product.values.brand;
  return {
    id: product._id,
    name: product.text.name ?? '',
    team: teamTextOf(brand, product.text.name),
    description: product.text.description ?? '',
  };
}

/** Two scores this close are equal: replicas that reached the same catalogue by other edits may differ in the last bits. */
const roundScore = (score: number) => Math.round(score * 1e6) / 1e6;

/**
 * The full-text search of the published catalogue, by MiniSearch (an inverted index over a radix tree): every word
 * of the query must match a word of the product's name, team or description — as typed, as the start of a word
 * (the last word only, which the shopper may still be typing: "pack" → Packers) or with one typo (one letter added,
 * dropped or changed: "pakers" → Packers, for words of four letters or more); when that finds nothing, the last
 * word also as the start of a word with one typo ("pakers hod" → Packers hoodies, see startsWithOneTypo) — ranked by BM25 with the name weighing 3, the team 2 and the description 1, and exact words
 * above prefixes above typos. A product's team is searched by every name fans give it (nfl-teams.ts).
 *
 * Small catalogues are indexed at once; a large one is indexed in chunks that leave the event loop to requests in
 * between (about 2 s of work at 100,000 products), and until it is `ready` a search answers undefined: the caller
 * then matches substrings as the database would. Edits meanwhile are applied once the index is built.
 */
export class ProductSearch {
  private readonly engine = new MiniSearch<SearchDocument>({
    fields: ['name', 'team', 'description'],
    storeFields: [],
    processTerm,
    searchOptions: { processTerm },
  });
  private building: boolean;
  private disposed = false;
  /** Edits that arrived while building: the product, or null for a removal. */
  private readonly pending = new Map<string, SearchableProduct | null>();
  private readonly hits = new Map<string, SearchHit[]>();
  private hitsCached = 0;
  /**
   * The words of every product indexed, but numbers (what a mistyped start is completed from). Words of products
   * since removed stay until the next full load: they complete to nothing.
   */
  private readonly words = new Set<string>();
  /** Settles when the index is built (at once for a small catalogue). */
  readonly built: Promise<void>;
  /** How long building took, in ms (undefined until built). */
  buildMs?: number;

  constructor(products: Iterable<SearchableProduct>) {
    const all = [...products];
    const started = performance.now();
    this.building = all.length > SYNC_BUILD_MAX;
    if (!this.building) {
      this.addAll(all.map(documentOf));
      this.buildMs = performance.now() - started;
      this.built = Promise.resolve();
    } else {
      this.built = this.buildInChunks(all, started);
    }
  }

  get ready(): boolean {
    return !this.building;
  }

  get size(): number {
    return this.engine.documentCount;
  }

  /** Stops a build still running (the index was replaced). */
  dispose(): void {
    this.disposed = true;
  }

  private async buildInChunks(all: SearchableProduct[], started: number): Promise<void> {
    for (let from = 0; from < all.length; from += BUILD_CHUNK) {
      await new Promise<void>((resolve) => setImmediate(resolve));
      if (this.disposed) return;
      this.addAll(all.slice(from, from + BUILD_CHUNK).map(documentOf));
    }
    for (const [id, product] of this.pending) this.apply(id, product);
    this.pending.clear();
    this.building = false;
    this.buildMs = performance.now() - started;
  }

  /** Adds a product, or replaces the one of the same id. */
  put(product: SearchableProduct): void {
    if (this.building) this.pending.set(product._id, product);
    else this.apply(product._id, product);
  }

  remove(id: string): void {
    if (this.building) this.pending.set(id, null);
    else this.apply(id, null);
  }

  private apply(id: string, product: SearchableProduct | null): void {
    this.hits.clear();
    this.hitsCached = 0;
    if (this.engine.has(id)) this.engine.discard(id);
    if (product) this.addAll([documentOf(product)]);
  }

  private addAll(documents: SearchDocument[]): void {
    this.engine.addAll(documents);
    for (const d of documents)
      for (const text of [d.name, d.team, d.description])
        for (const token of tokenize(text)) {
          const word = processTerm(token);
          if (word && !/^\d+$/.test(word)) this.words.add(word);
        }
  }

  private startsAWord(start: string): boolean {
    for (const word of this.words) if (word.startsWith(start)) return true;
    return false;
  }

  /** The words whose start is one typo from the word being typed, shortest first. */
  private completionsOf(typed: string): string[] {
    if (typed.length < TYPED_TYPO_MIN_LENGTH) return [];
    const found: string[] = [];
    for (const word of this.words) if (startsWithOneTypo(typed, word)) found.push(word);
    return found.sort((a, b) => a.length - b.length || (a < b ? -1 : 1)).slice(0, COMPLETIONS_MAX);
  }

  /**
   * The products matching every word of the query, in no particular order; undefined while the index is being
   * built. A query with no word to look for (empty, stop words only) finds nothing.
   */
  search(query: string): SearchHit[] | undefined {
    if (this.building) return undefined;
    const terms = queryTermsOf(query);
    if (!terms.length) return [];
    const key = terms.join(' ');
    const cached = this.hits.get(key);
    if (cached) {
      // Most recently used last: the first key is the one to evict.
      this.hits.delete(key);
      this.hits.set(key, cached);
      return cached;
    }
    const last = terms[terms.length - 1];
    // A short last word that starts no word cannot match as typed (a word of four letters or more might, by a typo)
    const hopeless = last.length < FUZZY_MIN_LENGTH && !/\d/.test(last) && !this.startsAWord(last);
    const found = hopeless ? [] : (this.run(terms, false) ?? []);
    // Nothing as typed: the last word may be unfinished with a typo in its start ("pakers hod").
    const hits = found.length ? found : (this.run(terms, true) ?? []);
    this.remember(key, hits);
    return hits;
  }

  /**
   * Every word as typed or with a typo; the last one also as the start of a word (the one the shopper may still be
   * typing: earlier words are whole), and with `completions`, as the start of a word with a typo. Undefined when
   * completing finds no word to complete to.
   */
  private run(terms: string[], completions: boolean): SearchHit[] | undefined {
    const last = terms[terms.length - 1];
    let lastQuery: Query = { queries: [last], prefix: true };
    if (completions) {
      const words = this.completionsOf(last);
      if (!words.length) return undefined;
      lastQuery = {
        combineWith: 'OR',
        queries: [lastQuery, { queries: words, fuzzy: false, boostTerm: () => COMPLETION_WEIGHT }],
      };
    }
    return this.engine
      .search(
        { combineWith: 'AND', queries: [...terms.slice(0, -1), lastQuery] },
        { boost: BOOST, prefix: false, fuzzy: (term) => (term.length >= FUZZY_MIN_LENGTH ? 1 : 0) },
      )
      .map((r) => ({
        id: String(r.id),
        score: roundScore(r.score),
        exact: terms.every((t) => r.terms.includes(t)),
      }));
  }

  /** Keeps a query's hits, most recently used last, forgetting the oldest beyond HITS_CACHED hits in all. */
  private remember(key: string, hits: SearchHit[]): void {
    this.hits.set(key, hits);
    this.hitsCached += hits.length + 1;
    for (const [oldest, old] of this.hits) {
      if (this.hitsCached <= HITS_CACHED) break;
      this.hits.delete(oldest);
      this.hitsCached -= old.length + 1;
    }
  }

  /**
   * "Did you mean": the words of the catalogue closest to the query's (up to two typos a word), when the query
   * matches nothing as typed; undefined when nothing is close or the index is being built.
   */
  didYouMean(query: string): string | undefined {
    if (this.building) return undefined;
    const terms = queryTermsOf(query);
    if (!terms.length) return undefined;
    const [best] = this.engine.autoSuggest(terms.join(' '), {
      combineWith: 'AND',
      boost: BOOST,
      prefix: false,
      fuzzy: (term) => (term.length >= FUZZY_MIN_LENGTH ? 2 : 1),
    });
    return best && best.suggestion !== terms.join(' ') ? best.suggestion : undefined;
  }
}
