import type { CatalogueEntry } from './catalogue-entry';

/** Pairs of ASCII characters: what the index keeps the texts of. */
const PAIRS = 128 * 128;
/** Candidates so few are tested for the needle at once rather than narrowed by its other pairs first. */
const FEW_CANDIDATES = 16;

const pairAt = (text: string, i: number) => text.charCodeAt(i) * 128 + text.charCodeAt(i + 1);

/**
 * The products' names and descriptions as the substring search reads them: each distinct text (lower-cased ASCII)
 * once, with the slots of the products having it (products of a line share a description), and for each pair of
 * characters the texts holding it; the products with other texts are kept apart, for the caller to test. A needle's
 * candidates are the texts holding all its pairs, each tested for the whole needle (a two-letter needle's are all
 * matches), so a search reads the texts that may match rather than all of them: at 100,000 products "re" took 13 ms
 * by one indexOf over every text, and takes under 1 ms here.
 */
export class SubstringIndex {
  private readonly texts: string[] = [];
  /** The slots of the products having text t, as name or description: holderSlots from holderStarts[t] on. */
  private readonly holderStarts: Int32Array;
  private readonly holderSlots: Int32Array;
  private readonly otherSlots: number[] = [];
  /** The texts holding pair p, ascending: pairTexts from pairStarts[p] to pairStarts[p + 1]. */
  private readonly pairStarts = new Int32Array(PAIRS + 1);
  private readonly pairTexts: Int32Array;
  /** Per slot, the last search that found it (its products are found once a search): kept, not allocated a search. */
  private readonly foundBy: Uint32Array;
  private searches = 0;
  /** Where a search puts what it found (as many as there are slots). */
  private readonly found: Int32Array;
  /** Where the texts holding several pairs are listed (as many as there are texts). */
  private readonly scratch: Int32Array;

  constructor(entries: Iterable<CatalogueEntry>) {
    const byText = new Map<string, number[]>();
    let slots = 0;
    for (const entry of entries) {
      slots = Math.max(slots, entry.slot + 1);
      if (!entry.text.ascii) {
        this.otherSlots.push(entry.slot);
        continue;
      }
      for (const text of [entry.text.name, entry.text.description]) {
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
    // Counted, then filled: each text once in the list of each pair it holds.
    const lastText = new Int32Array(PAIRS).fill(-1);
    const counts = new Int32Array(PAIRS);
    this.forEachPair((pair, t) => {
      if (lastText[pair] === t) return;
      lastText[pair] = t;
      counts[pair]++;
    });
    for (let p = 0; p < PAIRS; p++) this.pairStarts[p + 1] = this.pairStarts[p] + counts[p];
    this.pairTexts = new Int32Array(this.pairStarts[PAIRS]);
    const next = this.pairStarts.slice(0, PAIRS);
    lastText.fill(-1);
    this.forEachPair((pair, t) => {
      if (lastText[pair] === t) return;
      lastText[pair] = t;
      this.pairTexts[next[pair]++] = t;
    });
  }

  private forEachPair(visit: (pair: number, text: number) => void): void {
    this.texts.forEach((text, t) => {
      for (let i = 0; i + 1 < text.length; i++) visit(pairAt(text, i), t);
    });
  }

  /**
   * The slots of the products whose name or description contains `needle` (lower-case ASCII), each once: a view of
   * an array the next call overwrites. The products whose texts are not ASCII are found by `testOther` (the caller's
   * case-insensitive match). Until the next call, `has` says whether a slot is among them.
   */
  containing(needle: string, testOther: (slot: number) => boolean): Int32Array {
    if (++this.searches === 2 ** 32) {
      this.foundBy.fill(0);
      this.searches = 1;
    }
    const candidates = needle.length >= 2 ? this.candidatesFor(needle) : undefined;
    const whole = needle.length === 2;
    const { texts, holderStarts, holderSlots, foundBy, found } = this;
    const search = this.searches;
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
    for (const slot of this.otherSlots) {
      if (!testOther(slot)) continue;
      foundBy[slot] = search;
      found[count++] = slot;
    }
    return found.subarray(0, count);
  }

  /** Whether the last `containing` found this slot (a slot this index does not hold: no). */
  has(slot: number): boolean {
    return slot < this.foundBy.length && this.foundBy[slot] === this.searches;
  }

  /**
   * The texts holding every pair of characters of the needle (two at least), ascending: those of the rarest pair,
   * kept where the next rarest holds them too, and so on while more than a few are left. The first cuts the most;
   * measured on typed texts at 100,000 products, all pairs leave 42 % fewer texts to test than the two rarest.
   */
  private candidatesFor(needle: string): Int32Array {
    const pairs: number[] = [];
    for (let i = 0; i + 1 < needle.length; i++) {
      const pair = pairAt(needle, i);
      if (!pairs.includes(pair)) pairs.push(pair);
    }
    pairs.sort((a, b) => this.pairSize(a) - this.pairSize(b));
    let candidates = this.textsWith(pairs[0]);
    for (let k = 1; k < pairs.length && candidates.length > FEW_CANDIDATES; k++)
      candidates = this.holding(candidates, this.textsWith(pairs[k]));
    return candidates;
  }

  private textsWith(pair: number): Int32Array {
    return this.pairTexts.subarray(this.pairStarts[pair], this.pairStarts[pair + 1]);
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

  private pairSize(pair: number): number {
    return this.pairStarts[pair + 1] - this.pairStarts[pair];
  }
}
