import type { CatalogueEntry } from './catalogue-entry';
import { asciiSearchable } from './text-search';

/** Candidates so few are tested for the needle at once rather than narrowed by its other grams first. */
const FEW_CANDIDATES = 16;
/**
 * The matches kept: at most so many slots in all (4 bytes each: 8 MB), which bounds the memory, and so many needles,
 * which bounds the entries (a stream of rare texts adds many small ones). A shop's common words fit: at 100,000
 * products the 101 words the browse bench searches for hold ~660,000 slots.
 */
const KEPT_NEEDLES = 1024;
const KEPT_SLOTS_MAX = 2_000_000;

/**
 * For each run of `n` ASCII characters (an n-gram: its codes as the digits of a number in base 128), the texts
 * holding it, ascending: texts from starts[g] to starts[g + 1]. Counted, then filled: each text once per gram. Runs
 * with other characters are left out: no ASCII needle holds them.
 */
class GramLists {
  private readonly starts: Int32Array;
  private readonly texts: Int32Array;

  constructor(
    private readonly n: 2 | 3,
    texts: readonly string[],
  ) {
    const grams = 128 ** n;
    const lastText = new Int32Array(grams).fill(-1);
    const counts = new Int32Array(grams);
    this.forEachGram(texts, (gram, t) => {
      if (lastText[gram] === t) return;
      lastText[gram] = t;
      counts[gram]++;
    });
    this.starts = new Int32Array(grams + 1);
    for (let g = 0; g < grams; g++) this.starts[g + 1] = this.starts[g] + counts[g];
    this.texts = new Int32Array(this.starts[grams]);
    const next = this.starts.slice(0, grams);
    lastText.fill(-1);
    this.forEachGram(texts, (gram, t) => {
      if (lastText[gram] === t) return;
      lastText[gram] = t;
      this.texts[next[gram]++] = t;
    });
  }

  /** The grams of a text, each once. */
  gramsOf(text: string): number[] {
    const grams: number[] = [];
    for (let i = 0; i + this.n <= text.length; i++) {
      const gram = this.gramAt(text, i);
      if (!grams.includes(gram)) grams.push(gram);
    }
    return grams;
  }

  textsWith(gram: number): Int32Array {
    return this.texts.subarray(this.starts[gram], this.starts[gram + 1]);
  }

  size(gram: number): number {
    return this.starts[gram + 1] - this.starts[gram];
  }

  private gramAt(text: string, i: number): number {
    let gram = 0;
    for (let k = 0; k < this.n; k++) gram = gram * 128 + text.charCodeAt(i + k);
    return gram;
  }

  private forEachGram(texts: readonly string[], visit: (gram: number, text: number) => void): void {
    texts.forEach((text, t) => {
      let ascii = 0; // how many ASCII characters end at i
      for (let i = 0; i < text.length; i++) {
        ascii = text.charCodeAt(i) < 128 ? ascii + 1 : 0;
        if (ascii >= this.n) visit(this.gramAt(text, i + 1 - this.n), t);
      }
    });
  }
}

/**
 * The products' names and descriptions as an ASCII needle is looked for in them (lower-cased, or folded when not
 * ASCII: `asciiSearchable`), so that no product needs a regex: each distinct text once, with the slots of the
 * products having it (products of a line share a description), and for each run of two and of three characters the
 * texts holding it. A needle of two or three characters finds its texts in one list; a longer one's candidates are
 * the texts holding all its runs of three, each tested for the whole needle. So a search reads the texts that may
 * match rather than all of them: at 100,000 products "re" took 13 ms by one indexOf over every text, and takes under
 * 1 ms here; with pairs only, three in five of a typed text's candidates did not hold it.
 */
export class SubstringIndex {
  private readonly texts: string[] = [];
  /** The slots of the products having text t, as name or description: holderSlots from holderStarts[t] on. */
  private readonly holderStarts: Int32Array;
  private readonly holderSlots: Int32Array;
  private readonly pairs: GramLists;
  private readonly triples: GramLists;
  /** Per slot, the last search that found it (its products are found once a search): kept, not allocated a search. */
  private readonly foundBy: Uint32Array;
  private searches = 0;
  /** Where a search puts what it found (as many as there are slots). */
  private readonly found: Int32Array;
  /** Where the texts holding several grams are listed (as many as there are texts). */
  private readonly scratch: Int32Array;
  /**
   * The matches of the last needles whose candidates were tested (of one character, or four or more), newest last: the
   * same word comes back with other filters and sorts, and testing its candidates was most of such a search. One
   * typed array a needle, so that the collector has few objects to mark.
   */
  private readonly kept = new Map<string, Int32Array>();
  private keptSlots = 0;

  constructor(entries: Iterable<CatalogueEntry>) {
    const byText = new Map<string, number[]>();
    let slots = 0;
    for (const entry of entries) {
      slots = Math.max(slots, entry.slot + 1);
      const { name, description } = asciiSearchable(entry.text);
      for (const text of [name, description]) {
        if (!text) continue;
        const holders = byText.get(text);
        if (holders) holders.push(entry.slot);
        else byText.set(text, [entry.slot]);
      }
    }
    this.foundBy = new Uint32Array(slots);
    this.found = new Int32Array(slots);
    this.holderStarts = new Int32Array(byText.size + 1);
    let holding = 0;
    for (const [text, holders] of byText) {
      this.texts.push(text);
      holding += holders.length;
      this.holderStarts[this.texts.length] = holding;
    }
    this.holderSlots = new Int32Array(holding);
    this.scratch = new Int32Array(this.texts.length);
    let at = 0;
    for (const holders of byText.values()) for (const slot of holders) this.holderSlots[at++] = slot;
    this.pairs = new GramLists(2, this.texts);
    this.triples = new GramLists(3, this.texts);
  }

  /**
   * The slots of the products whose name or description contains `needle` (lower-case ASCII) case-insensitively, each
   * once: a view of an array the next call overwrites. Until the next call, `has` says whether a slot is among them.
   */
  containing(needle: string): Int32Array {
    if (++this.searches === 2 ** 32) {
      this.foundBy.fill(0);
      this.searches = 1;
    }
    const { texts, holderStarts, holderSlots, foundBy, found } = this;
    const search = this.searches;
    const kept = this.kept.get(needle);
    if (kept) {
      this.kept.delete(needle); // newest again
      this.kept.set(needle, kept);
      for (let i = 0; i < kept.length; i++) foundBy[kept[i]] = search;
      found.set(kept);
      return found.subarray(0, kept.length);
    }
    const candidates = needle.length >= 2 ? this.candidatesFor(needle) : undefined;
    const whole = candidates !== undefined && needle.length <= 3; // its one list holds exactly its texts
    let count = 0;
    const end = candidates ? candidates.length : texts.length;
    for (let c = 0; c < end; c++) {
      const t = candidates ? candidates[c] : c;
      if (!whole && !texts[t].includes(needle)) continue;
      for (let i = holderStarts[t]; i < holderStarts[t + 1]; i++) {
        const slot = holderSlots[i];
        if (foundBy[slot] === search) continue;
        foundBy[slot] = search;
        found[count++] = slot;
      }
    }
    if (!whole) this.keep(needle, found.slice(0, count));
    return found.subarray(0, count);
  }

  private keep(needle: string, slots: Int32Array): void {
    if (slots.length > KEPT_SLOTS_MAX) return;
    this.kept.set(needle, slots);
    this.keptSlots += slots.length;
    for (const [oldest, its] of this.kept) {
      if (this.kept.size <= KEPT_NEEDLES && this.keptSlots <= KEPT_SLOTS_MAX) break;
      this.kept.delete(oldest);
      this.keptSlots -= its.length;
    }
  }

  /** Whether the last `containing` found this slot (a slot this index does not hold: no). */
  has(slot: number): boolean {
    return slot < this.foundBy.length && this.foundBy[slot] === this.searches;
  }

  /**
   * The texts holding every run of three characters of the needle (of two when it has only two), ascending: those of
   * the rarest run, kept where the next rarest holds them too, and so on while more than a few are left.
   */
  private candidatesFor(needle: string): Int32Array {
    const lists = needle.length === 2 ? this.pairs : this.triples;
    const grams = lists.gramsOf(needle).sort((a, b) => lists.size(a) - lists.size(b));
    let candidates = lists.textsWith(grams[0]);
    for (let k = 1; k < grams.length && candidates.length > FEW_CANDIDATES; k++)
      candidates = this.holding(candidates, lists.textsWith(grams[k]));
    return candidates;
  }

  /**
   * The texts of `few` that `many` holds too (both ascending), into the scratch array (`few` may be a view of it):
   * each looked up by galloping ahead in `many` from the last, then halving, so a short list costs little against a
   * long one.
   */
  private holding(few: Int32Array, many: Int32Array): Int32Array {
    const out = this.scratch;
    let count = 0;
    let low = 0;
    for (let i = 0; i < few.length; i++) {
      const text = few[i];
      let step = 1;
      while (low + step < many.length && many[low + step] < text) step *= 2;
      let high = Math.min(low + step, many.length);
      low += step >>> 1;
      while (low < high) {
        const mid = (low + high) >>> 1;
        if (many[mid] < text) low = mid + 1;
        else high = mid;
      }
      if (low < many.length && many[low] === text) out[count++] = text;
    }
    return out.subarray(0, count);
  }
}
