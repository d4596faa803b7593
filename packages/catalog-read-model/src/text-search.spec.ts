import fc from 'fast-check';
import { escapeRegExp } from './product-query';
import { caseInsensitiveMatcher, foldForAsciiNeedles, searchTextOf } from './text-search';

describe('foldForAsciiNeedles', () => {
  it('is the case folding an ASCII character is matched by: every code point tried', () => {
    const anyAscii = /[\0-\x7f]/iu;
    const matchingAscii: number[] = [];
    for (let cp = 0; cp <= 0x10ffff; cp++) {
      if (cp >= 0xd800 && cp <= 0xdfff) continue; // surrogates: no character of their own
      if (anyAscii.test(String.fromCodePoint(cp))) matchingAscii.push(cp);
    }
    // ASCII, and beyond it only ſ and the Kelvin sign
    expect(matchingAscii.filter((cp) => cp >= 0x80)).toEqual([0x17f, 0x212a]);
    for (let c = 0; c < 0x80; c++) {
      const needle = new RegExp(`^${escapeRegExp(String.fromCharCode(c))}$`, 'iu');
      for (const cp of matchingAscii) {
        const ch = String.fromCodePoint(cp);
        expect([c, cp, foldForAsciiNeedles(ch) === String.fromCharCode(c).toLowerCase()]).toEqual([
          c,
          cp,
          needle.test(ch),
        ]);
      }
    }
  });

  it('leaves other letters alone, even those toLowerCase would make ASCII', () => {
    expect(foldForAsciiNeedles('İSTANBUL ſcarf \u212aelvin Café')).toBe('İstanbul scarf kelvin café');
  });
});

describe('caseInsensitiveMatcher', () => {
  const LETTERS = ['a', 'I', 'i', 's', 'S', 'k', ' ', '.', 'é', 'É', 'ſ', '\u212a', 'İ', 'ı'];
  const textArb = fc.array(fc.constantFrom(...LETTERS), { maxLength: 10 }).map((l) => l.join(''));

  it('answers as a case-insensitive Unicode regex of the text as typed does, on ASCII and other texts', () => {
    fc.assert(
      fc.property(
        textArb,
        textArb,
        fc.array(fc.constantFrom(...LETTERS), { minLength: 1, maxLength: 3 }),
        (name, description, typed) => {
          const pattern = escapeRegExp(typed.join(''));
          const text = searchTextOf(name, description);
          const regex = new RegExp(pattern, 'iu');
          expect(caseInsensitiveMatcher(pattern, 'name')(text)).toBe(regex.test(name));
          expect(caseInsensitiveMatcher(pattern, 'description')(text)).toBe(regex.test(description));
        },
      ),
      { numRuns: 2000 },
    );
  });
});
