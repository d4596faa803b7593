import fc from 'fast-check';
import type { CatalogueEntry } from './catalogue-entry';
import { SubstringIndex } from './substring-index';
import { searchTextOf } from './text-search';

/** What the index reads of an entry: its slot and texts. */
const entryOf = (slot: number, name: string, description: string) =>
  ({ slot, text: searchTextOf(name, description) }) as CatalogueEntry;

const LETTERS = ['a', 'b', 'e', 'r', ' ', '-', 'é'];
const textArb = fc.array(fc.constantFrom(...LETTERS), { maxLength: 12 }).map((l) => l.join(''));

describe('SubstringIndex', () => {
  it('finds exactly the products whose texts contain the needle, each once, and says which it found', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(textArb, textArb), { minLength: 1, maxLength: 40 }),
        fc.array(
          fc
            .array(fc.constantFrom(...LETTERS.filter((l) => l !== 'é')), { minLength: 1, maxLength: 5 })
            .map((l) => l.join('')),
          { minLength: 1, maxLength: 5 },
        ),
        (texts, needles) => {
          const entries = texts.map(([name, description], slot) => entryOf(slot, name, description));
          const index = new SubstringIndex(entries);
          for (const needle of needles) {
            // the products with a text that is not ASCII are the caller's to test: here, as lower-cased texts
            const other = (slot: number) => texts[slot].some((t) => t.toLowerCase().includes(needle));
            const found = [...index.containing(needle, other)];
            const expected = entries
              .filter((e) =>
                e.text.ascii ? [e.text.name, e.text.description].some((t) => t?.includes(needle)) : other(e.slot),
              )
              .map((e) => e.slot);
            expect([...found].sort((a, b) => a - b)).toEqual(expected);
            for (const e of entries) expect(index.has(e.slot)).toBe(expected.includes(e.slot));
            expect(index.has(entries.length)).toBe(false);
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});
