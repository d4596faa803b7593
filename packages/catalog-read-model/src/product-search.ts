import MiniSearch from 'minisearch';
import SearchableMap from 'minisearch/SearchableMap';
import { teamTextOf } from './nfl-teams';

/**
 * What the search reads of a product (a CatalogueEntry fits). Its `slot` is the small number the caller keeps it
 * at (CatalogueIndex's), which the search answers with: no product has another's slot while it is in the search.
 */
export interface SearchableProduct {
  readonly _id: string;
  readonly slot: number;
  readonly text: { readonly name?: string; readonly description?: string };
  readonly values: { readonly brand: readonly string[] };
}

/**
 * The products a search found, as three arrays of `count` items: a product's slot, its score, and 1 when every word
 * of the query is one of its words as typed (else 0). Views of arrays the next search overwrites: read them at once.
 */
export interface SearchHits {
  readonly count: number;
  readonly slots: Int32Array;
  readonly scores: Float64Array;
  readonly exact: Uint8Array;
}

const NO_HITS: SearchHits = {
  count: 0,
  slots: new Int32Array(0),
  scores: new Float64Array(0),
  exact: new Uint8Array(0),
};

interface SearchDocument {
  id: string;
  slot: number;
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
/** Catalogues up to this size are indexed at once; larger ones in chunks, between which requests are served. */
const SYNC_BUILD_MAX = 5_000;
const BUILD_CHUNK = 2_000;
/**
 * The words in at least so many products are scored ahead of the queries that need them (`built` waits for it):
 * at 100,000 products scoring a word as common as "packers" on demand took 100–300 ms, a rarer word a few.
 */
const SCORE_AHEAD_MIN_PRODUCTS = 64;
/** After an edit of the texts, scoring ahead waits for so long without another: a burst of edits costs one pass. */
const SCORE_AHEAD_DELAY_MS = 2_000;
/** Scoring ahead leaves the event loop to requests after so much work. */
const SCORE_AHEAD_SLICE_MS = 10;

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
/**
 * What a word found another way than as typed weighs against one found as typed (1), as MiniSearch weighs them: the
 * start of a longer word (less, the more letters it adds), a word one typo away, a word whose start is one typo away.
 */
const PREFIX_WEIGHT = 0.375;
const TYPO_WEIGHT = 0.45;
const COMPLETION_WEIGHT = 0.45;
const prefixWeight = (word: string, typed: string) =>
  (PREFIX_WEIGHT * word.length) / (word.length + 0.3 * (word.length - typed.length));
const typoWeight = (word: string, distance: number) => (TYPO_WEIGHT * word.length) / (word.length + distance);

function documentOf(product: SearchableProduct): SearchDocument {
  const [brand] = product.values.brand;
  return {
    id: product._id,
    slot: product.slot,
    name: product.text.name ?? '',
    team: teamTextOf(brand, product.text.name),
    description: product.text.description ?? '',
  };
}

/** Two scores this close are equal: replicas that reached the same catalogue by other edits may differ in the last bits. */
const roundScore = (score: number) => Math.round(score * 1e6) / 1e6;

/** The products a word of the index is in (their slots), each with the word's BM25 score there. */
interface Postings {
  readonly docs: Int32Array;
  readonly scores: Float64Array;
}

/**
 * One query word's matches while a query runs, by slot: its score (every word it was found as, weighed),
 * and whether it was found as typed. Reused from query to query: only the `docs` touched are reset.
 */
class TermMatches {
  scores = new Float64Array(0);
  /** 0: not found; 1: found; 2: found as typed. */
  found = new Uint8Array(0);
  docs = new Int32Array(0);
  count = 0;

  reset(size: number): void {
    for (let i = 0; i < this.count; i++) this.found[this.docs[i]] = 0;
    this.count = 0;
    if (this.found.length < size) {
      const capacity = Math.max(size, this.found.length * 2);
      this.scores = new Float64Array(capacity);
      this.found = new Uint8Array(capacity);
      this.docs = new Int32Array(capacity);
    }
  }

  add(postings: Postings, weight: number, asTyped: boolean): void {
    const { docs, scores } = postings;
    for (let i = 0; i < docs.length; i++) {
      const doc = docs[i];
      if (this.found[doc] === 0) {
        this.docs[this.count++] = doc;
        this.scores[doc] = 0;
        this.found[doc] = 1;
      }
      this.scores[doc] += weight * scores[i];
      if (asTyped) this.found[doc] = 2;
    }
  }
}

/**
 * The full-text search of the published catalogue. Every word of the query must match a word of the product's name,
 * team or description — as typed, with one typo (one letter added, dropped or changed: "pakers" → Packers, for words
 * of four letters or more), or, the last word only (the shopper may still be typing it: earlier words are whole), as
 * the start of a word ("pack" → Packers); when that finds nothing, the last word also as the start of a word with one
 * typo ("pakers hod" → Packers hoodies, see startsWithOneTypo). A product's team is searched by every name fans give
 * it (nfl-teams.ts).
 *
 * Ranking: BM25 with the name weighing 3, the team 2 and the description 1 — each word's score in each product is
 * MiniSearch's (an inverted index over a radix tree) — weighed 1 for a word as typed, less for a longer word it
 * starts or a typo (the weights MiniSearch gives them), and summed over the query's words.
 *
 * Why not MiniSearch's own query: it scores every posting of every word a query expands to, building an object per
 * product per word, each time. At 100,000 products a word like "packers" is in 12,000 of them, and a typed query
 * cost 100–800 ms. Here each word's postings are scored once (as MiniSearch's search of that word alone scores
 * them, read from its index), kept as two typed arrays until the texts change, and a query adds them up slot by
 * slot: the words a query expands to come from the index's vocabulary (MiniSearch's radix tree, SearchableMap:
 * prefix and typo look-ups). The words in many products are scored when the index is built, so that no shopper
 * waits for them.
 *
 * Small catalogues are indexed at once; a large one is indexed in chunks that leave the event loop to requests in
 * between (13 s at 100,000 products, then 6 s scoring its common words), and until it is `ready` a search answers
 * undefined: the caller then matches substrings as the database would. Edits meanwhile are applied once the index
 * is built.
 */
export class ProductSearch {
  private readonly engine = new MiniSearch<SearchDocument>({
    fields: ['name', 'team', 'description'],
    storeFields: [],
    processTerm,
    searchOptions: { processTerm },
  });
  /** The engine's index as postingsFromIndex reads it, or undefined when its shape is not the one expected. */
  private readonly internals = internalsOf(this.engine);
  private building: boolean;
  private disposed = false;
  /** Edits that arrived while building: the product, or null for a removal. */
  private readonly pending = new Map<string, SearchableProduct | null>();
  /** Each product's texts as indexed: an edit that leaves them alone leaves the index (and what it keeps) alone. */
  private readonly indexed = new Map<string, SearchDocument>();
  /** Every word indexed, with the number of products it is in (what "Did you mean" prefers). */
  private readonly vocabulary = new SearchableMap<number>();
  /** The same words but numbers (what a mistyped start is completed from). */
  private readonly words = new Set<string>();
  /** One more than the highest slot indexed: what a query's arrays are sized to. */
  private slots = 0;
  /** Each word's postings, scored at its first query since the texts last changed. */
  private readonly postings = new Map<string, Postings>();
  private readonly matches: TermMatches[] = [];
  /** Where postingsFromIndex adds a word's fields up. */
  private readonly scratch = new TermMatches();
  /**
   * Where a query's hits are written, reused from query to query rather than kept: a broad query at 100,000 products
   * finds tens of thousands, and keeping queries' hits for the next query of the same words (few come twice; the
   * gateway's HTTP cache answers a repeated request) set off a major collection every second or two, each blocking
   * requests for up to 400 ms.
   */
  private found = { slots: new Int32Array(0), scores: new Float64Array(0), exact: new Uint8Array(0) };
  /** Counts the edits of the texts: scoring ahead stops when it moves. */
  private textsVersion = 0;
  private scoreAheadTimer?: ReturnType<typeof setTimeout>;
  /** Settles when the index is built and its common words scored (at once for a small catalogue). */
  readonly built: Promise<void>;
  /** How long building took, in ms (undefined until built), and scoring its common words after. */
  buildMs?: number;
  scoreAheadMs?: number;

  constructor(products: Iterable<SearchableProduct>) {
    const all = [...products];
    const started = performance.now();
    this.building = all.length > SYNC_BUILD_MAX;
    if (!this.building) {
      this.addAll(all.map(documentOf));
      this.buildMs = performance.now() - started;
    }
    this.built = (this.building ? this.buildInChunks(all, started) : Promise.resolve()).then(async () => {
      const scoring = performance.now();
      if (await this.scoreAhead()) this.scoreAheadMs = performance.now() - scoring;
    });
  }

  get ready(): boolean {
    return !this.building;
  }

  get size(): number {
    return this.engine.documentCount;
  }

  /** Stops a build or a scoring ahead still running (the index was replaced). */
  dispose(): void {
    this.disposed = true;
    clearTimeout(this.scoreAheadTimer);
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
    const document = product && documentOf(product);
    const before = this.indexed.get(id);
    if (document ? before && sameTexts(before, document) && before.slot === document.slot : !before) return;
    // Any change of the texts changes every word's scores a little (BM25 reads the catalogue's size and lengths).
    this.postings.clear();
    this.textsVersion++;
    clearTimeout(this.scoreAheadTimer);
    this.scoreAheadTimer = setTimeout(() => void this.scoreAhead(), SCORE_AHEAD_DELAY_MS);
    this.scoreAheadTimer.unref?.();
    if (before) {
      this.engine.discard(id);
      this.indexed.delete(id);
      for (const word of wordsOf(before)) {
        const products = this.vocabulary.get(word)! - 1;
        if (products) this.vocabulary.set(word, products);
        else {
          this.vocabulary.delete(word);
          this.words.delete(word);
        }
      }
    }
    if (document) this.addAll([document]);
  }

  private addAll(documents: SearchDocument[]): void {
    this.engine.addAll(documents);
    for (const d of documents) {
      this.indexed.set(d.id, d);
      this.slots = Math.max(this.slots, d.slot + 1);
      for (const word of wordsOf(d)) {
        this.vocabulary.set(word, (this.vocabulary.get(word) ?? 0) + 1);
        if (!/^\d+$/.test(word)) this.words.add(word);
      }
    }
  }

  /**
   * Scores the words in SCORE_AHEAD_MIN_PRODUCTS products or more, the most common first, a slice at a time, until
   * done or the texts change again (then the next pass is scheduled). Resolves to whether it got through them all.
   */
  private async scoreAhead(): Promise<boolean> {
    const version = this.textsVersion;
    const common: Array<[string, number]> = [];
    for (const [word, products] of this.vocabulary)
      if (products >= SCORE_AHEAD_MIN_PRODUCTS) common.push([word, products]);
    common.sort((a, b) => b[1] - a[1]);
    let slice = performance.now();
    for (const [word] of common) {
      if (performance.now() - slice > SCORE_AHEAD_SLICE_MS) {
        await new Promise<void>((resolve) => setImmediate(resolve));
        slice = performance.now();
      }
      if (this.disposed || this.textsVersion !== version) return false;
      this.postingsOf(word);
    }
    return true;
  }

  /**
   * The word's postings, scored once until the texts change: read from MiniSearch's index (below) when its shape is
   * the one this was written for, else through its search of that word alone (the same scores, but an object per
   * product: at 100,000 products, 11 s and hundreds of MB of garbage to score the common words).
   */
  private postingsOf(word: string): Postings {
    let found = this.postings.get(word);
    if (!found) {
      found = this.internals ? this.postingsFromIndex(word, this.internals) : this.postingsFromSearch(word);
      this.postings.set(word, found);
    }
    return found;
  }

  private postingsFromSearch(word: string): Postings {
    const results = this.engine.search(word, { boost: BOOST, prefix: false, fuzzy: false });
    const docs = new Int32Array(results.length);
    const scores = new Float64Array(results.length);
    results.forEach((r, i) => {
      docs[i] = this.indexed.get(String(r.id))!.slot;
      scores[i] = r.score;
    });
    return { docs, scores };
  }

  /**
   * What MiniSearch's search of the word alone scores (its `termResults`: per field, BM25 of the word's frequency
   * there, the field's length against its average and the number of products having the word in that field, times
   * the field's boost; products discarded but not yet vacuumed skipped and not counted), summed per product, read
   * from its index without an object per product. product-search.spec.ts holds it to MiniSearch's own scores.
   */
  private postingsFromIndex(word: string, index: MiniSearchInternals): Postings {
    const fields = index._index.get(word);
    const matches = this.scratch;
    matches.reset(this.slots);
    for (const [field, boost] of Object.entries(BOOST)) {
      const fieldId = index._fieldIds[field];
      const frequencies = fields?.get(fieldId);
      if (!frequencies) continue;
      let having = 0;
      for (const shortId of frequencies.keys()) if (index._documentIds.has(shortId)) having++;
      const postings = { docs: new Int32Array(having), scores: new Float64Array(having) };
      let i = 0;
      for (const [shortId, frequency] of frequencies) {
        const id = index._documentIds.get(shortId);
        if (id === undefined) continue;
        postings.docs[i] = this.indexed.get(id)!.slot;
        postings.scores[i++] = bm25(
          frequency,
          having,
          index._documentCount,
          index._fieldLength.get(shortId)![fieldId],
          index._avgFieldLength[fieldId],
        );
      }
      matches.add(postings, boost, false);
    }
    const docs = matches.docs.slice(0, matches.count);
    const scores = new Float64Array(matches.count);
    docs.forEach((doc, i) => (scores[i] = matches.scores[doc]));
    return { docs, scores };
  }

  /** The words of the index a query word is looked for as, each with its weight (1: as typed). */
  private wordsFor(term: string, last: boolean): Map<string, number> {
    const words = new Map<string, number>();
    if (this.vocabulary.has(term)) weigh(words, term, 1);
    if (last) for (const word of this.vocabulary.atPrefix(term).keys()) weigh(words, word, prefixWeight(word, term));
    if (term.length >= FUZZY_MIN_LENGTH)
      for (const [word, [, distance]] of this.vocabulary.fuzzyGet(term, 1))
        if (distance) weigh(words, word, typoWeight(word, distance));
    return words;
  }

  private startsAWord(start: string): boolean {
    return !this.vocabulary.atPrefix(start).keys().next().done;
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
  search(query: string): SearchHits | undefined {
    if (this.building) return undefined;
    const terms = queryTermsOf(query);
    if (!terms.length) return NO_HITS;
    const last = terms[terms.length - 1];
    // A short last word that starts no word cannot match as typed (a word of four letters or more might, by a typo)
    const hopeless = last.length < FUZZY_MIN_LENGTH && !/\d/.test(last) && !this.startsAWord(last);
    const found = hopeless ? NO_HITS : this.run(terms, false);
    // Nothing as typed: the last word may be unfinished with a typo in its start ("pakers hod").
    return found.count ? found : this.run(terms, true);
  }

  /**
   * The products every word matches: each word as typed or with a typo; the last one also as the start of a word,
   * and with `completions`, as the start of a word with a typo (nothing when there is no such word).
   */
  private run(terms: string[], completions: boolean): SearchHits {
    const completed = completions ? this.completionsOf(terms[terms.length - 1]) : [];
    if (completions && !completed.length) return NO_HITS;
    const lookups = terms.map((term, i) => {
      const words = this.wordsFor(term, i === terms.length - 1);
      if (i === terms.length - 1) for (const word of completed) weigh(words, word, COMPLETION_WEIGHT);
      return { term, words };
    });
    if (lookups.some((l) => !l.words.size)) return NO_HITS;
    const all = lookups.map(({ term, words }, i) => {
      const matches = (this.matches[i] ??= new TermMatches());
      matches.reset(this.slots);
      for (const [word, weight] of words) matches.add(this.postingsOf(word), weight, word === term);
      return matches;
    });
    // From the word found in the fewest products, those every other word is found in too.
    const [fewest, ...others] = [...all].sort((a, b) => a.count - b.count);
    if (this.found.slots.length < fewest.count) {
      const capacity = Math.max(this.slots, fewest.count);
      this.found = {
        slots: new Int32Array(capacity),
        scores: new Float64Array(capacity),
        exact: new Uint8Array(capacity),
      };
    }
    const { slots, scores, exact } = this.found;
    let count = 0;
    for (let i = 0; i < fewest.count; i++) {
      const doc = fewest.docs[i];
      let score = fewest.scores[doc];
      let asTyped = fewest.found[doc] === 2;
      let everyWord = true;
      for (const other of others) {
        const found = other.found[doc];
        if (!found) {
          everyWord = false;
          break;
        }
        score += other.scores[doc];
        asTyped &&= found === 2;
      }
      if (!everyWord) continue;
      slots[count] = doc;
      scores[count] = roundScore(score);
      exact[count++] = asTyped ? 1 : 0;
    }
    return {
      count,
      slots: slots.subarray(0, count),
      scores: scores.subarray(0, count),
      exact: exact.subarray(0, count),
    };
  }

  /**
   * "Did you mean": each word of the query as the catalogue's closest word (up to two typos a word of four letters
   * or more, one a shorter one; of equally close words, the one in the most products), when the query matches
   * nothing as typed and those words are all found together in a product; undefined when nothing is close or the
   * index is being built.
   */
  didYouMean(query: string): string | undefined {
    if (this.building) return undefined;
    const terms = queryTermsOf(query);
    if (!terms.length) return undefined;
    const meant: string[] = [];
    for (const term of terms) {
      let best: { word: string; distance: number; products: number } | undefined;
      for (const [word, [products, distance]] of this.vocabulary.fuzzyGet(
        term,
        term.length >= FUZZY_MIN_LENGTH ? 2 : 1,
      )) {
        const closer =
          !best ||
          distance < best.distance ||
          (distance === best.distance &&
            (products > best.products || (products === best.products && word < best.word)));
        if (closer) best = { word, distance, products };
      }
      if (!best) return undefined;
      meant.push(best.word);
    }
    const suggestion = meant.join(' ');
    if (suggestion === terms.join(' ')) return undefined;
    return this.foundTogether(meant) ? suggestion : undefined;
  }

  /** Whether one product has every one of these words as they are. */
  private foundTogether(words: string[]): boolean {
    const postings = words.map((w) => this.postingsOf(w)).sort((a, b) => a.docs.length - b.docs.length);
    const [fewest, ...others] = postings;
    // marked in the arrays queries reuse rather than a Set of each word's products: a common word is in 20,000
    const marked = others.map((p, i) => {
      const matches = (this.matches[i] ??= new TermMatches());
      matches.reset(this.slots);
      matches.add(p, 1, false);
      return matches;
    });
    return fewest.docs.some((doc) => marked.every((m) => m.found[doc] !== 0));
  }
}

/**
 * What postingsFromIndex reads of MiniSearch 7's index (private fields, hence the check of their shape and the
 * spec against its own scores): the words, each with, per field, each product's frequency of it; product ids by
 * MiniSearch's short ids; field lengths; the catalogue's size.
 */
interface MiniSearchInternals {
  readonly _index: SearchableMap<Map<number, Map<number, number>>>;
  readonly _documentIds: Map<number, string>;
  readonly _fieldIds: Record<string, number>;
  readonly _fieldLength: Map<number, number[]>;
  readonly _avgFieldLength: number[];
  readonly _documentCount: number;
}

function internalsOf(engine: MiniSearch<SearchDocument>): MiniSearchInternals | undefined {
  const e = engine as unknown as Partial<MiniSearchInternals>;
  const shaped =
    // its own copy of the radix tree's class, not the one 'minisearch/SearchableMap' exports
    typeof e._index?.get === 'function' &&
    e._documentIds instanceof Map &&
    e._fieldLength instanceof Map &&
    Array.isArray(e._avgFieldLength) &&
    typeof e._documentCount === 'number' &&
    Object.keys(BOOST).every((field) => typeof e._fieldIds?.[field] === 'number');
  return shaped ? (e as MiniSearchInternals) : undefined;
}

/** MiniSearch's BM25+ (its defaults: k 1.2, b 0.7, d 0.5). */
function bm25(frequency: number, having: number, documents: number, length: number, averageLength: number): number {
  const k = 1.2;
  const b = 0.7;
  const d = 0.5;
  const inverseFrequency = Math.log(1 + (documents - having + 0.5) / (having + 0.5));
  return inverseFrequency * (d + (frequency * (k + 1)) / (frequency + k * (1 - b + (b * length) / averageLength)));
}

/** A word found more than one way weighs as the best of them. */
function weigh(words: Map<string, number>, word: string, weight: number): void {
  words.set(word, Math.max(weight, words.get(word) ?? 0));
}

/** The words a product is indexed by, each once. */
function wordsOf(d: SearchDocument): Set<string> {
  const words = new Set<string>();
  for (const text of [d.name, d.team, d.description])
    for (const token of tokenize(text)) {
      const word = processTerm(token);
      if (word) words.add(word);
    }
  return words;
}

function sameTexts(a: SearchDocument, b: SearchDocument): boolean {
  return a.name === b.name && a.team === b.team && a.description === b.description;
}
