import { teamTextOf, NFL_TEAMS } from './nfl-teams';
import { ProductSearch, queryTermsOf, startsWithOneTypo, type SearchableProduct } from './product-search';

/** Each id keeps its slot, as CatalogueIndex's products do; `ids` gives a slot's id back. */
const slots = new Map<string, number>();
const idsBySlot: string[] = [];
function slotOf(id: string): number {
  if (!slots.has(id)) slots.set(id, idsBySlot.push(id) - 1);
  return slots.get(id)!;
}

const product = (id: string, name: string, brand: string, description = ''): SearchableProduct => ({
  _id: id,
  slot: slotOf(id),
  text: { name, description },
  values: { brand: [brand] },
});

/** What a search found, as one object a product, in the order found. */
function hitsOf(search: ProductSearch, query: string) {
  const hits = search.search(query);
  if (!hits) return undefined;
  return Array.from({ length: hits.count }, (_, i) => ({
    id: idsBySlot[hits.slots[i]],
    score: hits.scores[i],
    exact: hits.exact[i] === 1,
  }));
}

const CATALOGUE = [
  product('hoodie', "Green Bay Packers Men's Fleece Hoodie", 'Green Bay Packers', 'Brushed fleece with a lined hood.'),
  product('jersey', 'Green Bay Packers Throwback Jersey', 'Green Bay Packers', 'Retro green and gold.'),
  product('niners', 'San Francisco 49ers Home Jersey', 'San Francisco 49ers', 'Scarlet home jersey.'),
  product('socks', 'Ravens Crew Socks (2 Pack)', 'Baltimore Ravens', 'Cushioned socks.'),
  product('bag', 'Eagles Duffel Bag', 'Philadelphia Eagles', 'A roomy bag with a jersey pocket.'),
  product('naive', 'Naïve Café Mug', 'Philadelphia Eagles', 'Ceramic.'),
];

describe('ProductSearch', () => {
  const search = new ProductSearch(CATALOGUE);
  const ids = (query: string) => (hitsOf(search, query) ?? []).map((h) => h.id);

  it('forgives one typo a word (a letter added, dropped or changed)', () => {
    expect(ids('pakers hoddie')).toEqual(['hoodie']);
    expect(ids('packerss fleece')).toEqual(['hoodie']);
    expect(ids('jersy')).toEqual(expect.arrayContaining(['jersey', 'niners', 'bag']));
    // two typos in one word: nothing
    expect(ids('pakkers hodiee')).toEqual([]);
  });

  it('matches the start of a word, and the start of the last word with a typo', () => {
    expect(ids('pack')).toEqual(expect.arrayContaining(['hoodie', 'jersey', 'socks']));
    expect(ids('pakers hod')).toEqual(['hoodie']);
    expect(ids('packers hoo')).toEqual(['hoodie']);
  });

  it('knows the teams by their nicknames', () => {
    expect(ids('niners')).toEqual(['niners']);
    expect(ids('cheeseheads')).toEqual(expect.arrayContaining(['hoodie', 'jersey']));
    expect(ids('philly mug')).toEqual(['naive']);
  });

  it('ranks the name above the team above the description, and says which hits are exact', () => {
    // "jersey": in two names, and in the bag's description
    const hits = hitsOf(search, 'jersey')!;
    expect(hits.map((h) => h.id).slice(-1)).toEqual(['bag']);
    expect(hits.every((h) => h.exact)).toBe(true);
    expect(hitsOf(search, 'jersy')!.every((h) => !h.exact)).toBe(true);
    // "eagles": the bag's name and team, the mug's team only
    expect(ids('eagles')).toEqual(['bag', 'naive']);
  });

  it('ignores accents, case, stop words and more than 8 words', () => {
    expect(ids('NAIVE cafe')).toEqual(['naive']);
    expect(ids('the')).toEqual([]);
    expect(queryTermsOf('a b c the packers of the 49ers')).toEqual(['packers', '49ers']);
    expect(queryTermsOf('one two three four five six seven eight nine ten')).toHaveLength(8);
  });

  it('says what a query that matches nothing may have meant', () => {
    expect(search.didYouMean('pakkers hodiee')).toBe('packers hoodie');
    expect(search.didYouMean('qqqqqqqq')).toBeUndefined();
    // the closest words, "jersey" and "mug", are in no product together: nothing to suggest
    expect(search.didYouMean('jersy mugg')).toBeUndefined();
  });

  it('follows products put and removed', () => {
    const s = new ProductSearch(CATALOGUE);
    expect(hitsOf(s, 'quokka')).toEqual([]);
    s.put(product('socks', 'Quokka Crew Socks', 'Baltimore Ravens'));
    expect(hitsOf(s, 'quoka')!.map((h) => h.id)).toEqual(['socks']);
    expect(hitsOf(s, 'pack')!.map((h) => h.id)).not.toContain('socks');
    s.remove('socks');
    expect(hitsOf(s, 'quokka')).toEqual([]);
    // its words went with it: nothing starts with "quo", nothing is close to "quoka"
    expect(hitsOf(s, 'quo')).toEqual([]);
    expect(s.didYouMean('quoka')).toBeUndefined();
  });

  it('answers the same after an edit that leaves the texts alone, and follows one that changes them', () => {
    const s = new ProductSearch(CATALOGUE);
    const before = hitsOf(s, 'jersey');
    s.put(CATALOGUE[1]); // the same texts (a price or stock edit)
    expect(hitsOf(s, 'jersey')).toEqual(before);
    s.put(product('jersey', 'Green Bay Packers Throwback Tee', 'Green Bay Packers', 'Retro green and gold.'));
    expect(hitsOf(s, 'jersey')!.map((h) => h.id)).not.toContain('jersey');
    expect(hitsOf(s, 'tee')!.map((h) => h.id)).toEqual(['jersey']);
  });

  it('ranks a word as typed above its typo and above a longer word it starts', () => {
    const s = new ProductSearch([
      product('cap', 'Steelers Cap', 'Pittsburgh Steelers'),
      product('cape', 'Steelers Cape', 'Pittsburgh Steelers'),
      product('capes', 'Steelers Capes', 'Pittsburgh Steelers'),
    ]);
    // "cape": as typed in one, the start of "capes" in another, one typo from "cap" ("cap" is too short for typos
    // itself, but "cape" is long enough to have one)
    expect(
      hitsOf(s, 'cape')!
        .sort((a, b) => b.score - a.score)
        .map((h) => [h.id, h.exact]),
    ).toEqual([
      ['cape', true],
      ['capes', false],
      ['cap', false],
    ]);
  });

  it("reads MiniSearch's index as MiniSearch's own search scores it, a discarded product left out", () => {
    const s = new ProductSearch(CATALOGUE);
    s.remove('socks'); // discarded: MiniSearch keeps its postings until it vacuums
    s.put(product('bag', 'Eagles Jersey Bag', 'Philadelphia Eagles', 'A roomy bag.'));
    type Postings = { docs: Int32Array; scores: Float64Array };
    const inside = s as unknown as {
      internals?: object;
      postingsFromIndex(word: string, internals: object): Postings;
      postingsFromSearch(word: string): Postings;
    };
    expect(inside.internals).toBeDefined(); // MiniSearch's index has the shape it is read in
    const bySlot = ({ docs, scores }: Postings) => new Map([...docs].map((doc, i) => [doc, scores[i]]));
    for (const word of ['packers', 'jersey', 'eagles', 'bag', 'socks', 'ravens', 'green', 'cafe']) {
      // read while the discarded products' postings are still there; MiniSearch's search drops them as it meets
      // them (its first answer counts them in the frequency of the word for the products met before), so its
      // second answer is the one to compare with
      const read = bySlot(inside.postingsFromIndex(word, inside.internals!));
      inside.postingsFromSearch(word);
      const searched = bySlot(inside.postingsFromSearch(word));
      expect([...read.keys()].sort()).toEqual([...searched.keys()].sort());
      for (const [slot, score] of searched) expect([word, read.get(slot)]).toEqual([word, expect.closeTo(score, 10)]);
    }
  });

  it('builds a large catalogue in chunks, answering undefined until then, and applies the edits made meanwhile', async () => {
    const many = Array.from({ length: 6000 }, (_, i) =>
      product(`p${i}`, `Steelers Beanie ${i}`, 'Pittsburgh Steelers'),
    );
    const s = new ProductSearch(many);
    expect(s.ready).toBe(false);
    expect(hitsOf(s, 'beanie')).toBeUndefined();
    s.put(product('p1', 'Steelers Quokka Scarf', 'Pittsburgh Steelers'));
    s.remove('p2');
    await s.built;
    expect(s.ready).toBe(true);
    expect(s.size).toBe(5999);
    expect(hitsOf(s, 'quokka')!.map((h) => h.id)).toEqual(['p1']);
    expect(hitsOf(s, 'beanie')!.map((h) => h.id)).not.toContain('p2');
    // its words in 64 products or more were scored before `built` settled
    expect(s.scoreAheadMs).toEqual(expect.any(Number));
  });
});

describe('startsWithOneTypo', () => {
  it.each([
    ['hod', 'hoodie', true], // a letter left out
    ['hoid', 'hoodie', true], // changed
    ['ohod', 'hoodie', true], // two swapped
    ['hooodi', 'hoodie', true], // one too many
    ['hoo', 'hoodie', false], // no typo: the prefix search finds it
    ['hxx', 'hoodie', false],
    ['hooo', 'home', false],
  ])('%s → %s: %s', (typed, term, expected) => {
    expect(startsWithOneTypo(typed, term)).toBe(expected);
  });
});

describe('the team names', () => {
  it('has all 32 teams, each with a nickname', () => {
    expect(NFL_TEAMS).toHaveLength(32);
    expect(new Set(NFL_TEAMS.map((t) => t.nickname)).size).toBe(32);
  });

  it("gives a product its team's other names, from its brand or its name", () => {
    expect(teamTextOf('San Francisco 49ers', 'Home Jersey')).toContain('Niners');
    expect(teamTextOf('Generic', 'Tampa Bay Buccaneers Cap')).toContain('Bucs');
    expect(teamTextOf('Generic', 'Plain Cap')).toBe('Generic');
    // the words of the name are searched there already
    expect(teamTextOf('Green Bay Packers', 'Green Bay Packers Hoodie')).toBe('Pack Cheeseheads GB');
  });
});
