import { teamTextOf, NFL_TEAMS } from './nfl-teams';
import { ProductSearch, queryTermsOf, startsWithOneTypo, type SearchableProduct } from './product-search';

const product = (id: string, name: string, brand: string, description = ''): SearchableProduct => ({
  _id: id,
  text: { name, description },
  values: { brand: [brand] },
});

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
  const ids = (query: string) => (search.search(query) ?? []).map((h) => h.id);

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
    const hits = search.search('jersey')!;
    expect(hits.map((h) => h.id).slice(-1)).toEqual(['bag']);
    expect(hits.every((h) => h.exact)).toBe(true);
    expect(search.search('jersy')!.every((h) => !h.exact)).toBe(true);
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
  });

  it('follows products put and removed', () => {
    const s = new ProductSearch(CATALOGUE);
    expect(s.search('quokka')).toEqual([]);
    s.put(product('socks', 'Quokka Crew Socks', 'Baltimore Ravens'));
    expect(s.search('quoka')!.map((h) => h.id)).toEqual(['socks']);
    expect(s.search('pack')!.map((h) => h.id)).not.toContain('socks');
    s.remove('socks');
    expect(s.search('quokka')).toEqual([]);
  });

  it('builds a large catalogue in chunks, answering undefined until then, and applies the edits made meanwhile', async () => {
    const many = Array.from({ length: 6000 }, (_, i) =>
      product(`p${i}`, `Steelers Beanie ${i}`, 'Pittsburgh Steelers'),
    );
    const s = new ProductSearch(many);
    expect(s.ready).toBe(false);
    expect(s.search('beanie')).toBeUndefined();
    s.put(product('p1', 'Steelers Quokka Scarf', 'Pittsburgh Steelers'));
    s.remove('p2');
    await s.built;
    expect(s.ready).toBe(true);
    expect(s.size).toBe(5999);
    expect(s.search('quokka')!.map((h) => h.id)).toEqual(['p1']);
    expect(s.search('beanie')!.map((h) => h.id)).not.toContain('p2');
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
