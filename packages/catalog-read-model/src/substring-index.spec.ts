import fc from 'fast-check';
import type { CatalogueEntry } from './catalogue-entry';
import { SubstringIndex } from './substring-index';
import { escapeRegExp } from './product-query';
import { searchTextOf } from './text-search';

/** What the index reads of an entry: its slot and texts. */
const entryOf = (slot: number, name: string, description: string) =>
  ({ slot, text: searchTextOf(name, description) }) as CatalogueEntry;

// besides ASCII: a letter of no ASCII one, and the two that fold to an ASCII letter (ſ to s, the Kelvin sign to k)
const LETTERS = ['a', 'b', 'e', 'r', 'S', 'k', ' ', '-', 'é', 'ſ', '\u212a'];
const NEEDLE_LETTERS = ['a', 'b', 'e', 'r', 's', 'k', 'K', ' ', '-'];
const textArb = fc.array(fc.constantFrom(...LETTERS), { maxLength: 12 }).map((l) => l.join(''));

describe('SubstringIndex', () => {
  it('finds exactly the products whose texts match the needle case-insensitively (as a regex), each once, and says which it found', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(textArb, textArb), { minLength: 1, maxLength: 40 }),
        fc.array(
          fc.array(fc.constantFrom(...NEEDLE_LETTERS), { minLength: 1, maxLength: 5 }).map((l) => l.join('')),
          { minLength: 1, maxLength: 5 },
        ),
        (texts, needles) => {
          const entries = texts.map(([name, description], slot) => entryOf(slot, name, description));
          const index = new SubstringIndex(entries);
          for (const typed of [...needles, ...needles]) {
            // each twice: the second time from the matches kept
            const needle = typed.toLowerCase();
            const found = [...index.containing(needle)];
            const regex = new RegExp(escapeRegExp(typed), 'iu');
            const expected = texts.flatMap(([name, description], slot) =>
              regex.test(name) || regex.test(description) ? [slot] : [],
            );
            expect([...found].sort((a, b) => a - b)).toEqual(expected);
            for (const e of entries) expect(index.has(e.slot)).toBe(expected.includes(e.slot));
            expect(index.has(entries.length)).toBe(false);
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it('answers the same once it has kept more needles than it holds on to (the oldest are found again)', () => {
    // more needles than it keeps (1,024), and one that matches half of them
    const words = Array.from({ length: 1100 }, (_, i) => `w${String(i).padStart(4, '0')}x`);
    const entries = words.map((word, slot) => entryOf(slot, `Cap ${word}`, slot % 2 ? 'Brushed wool' : 'Retro'));
    const index = new SubstringIndex(entries);
    for (const round of [1, 2])
      for (const [slot, word] of words.entries()) {
        expect([round, word, [...index.containing(word)]]).toEqual([round, word, [slot]]);
        expect(index.has(slot)).toBe(true);
      }
    expect([...index.containing('brushed')].length).toBe(550);
  });
});
