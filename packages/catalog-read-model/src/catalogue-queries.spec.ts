import { BRANDS, CATEGORIES, COLORS, GENDERS, MATERIALS, SIZES, type ProductJson } from '@shop/contracts';
import fc from 'fast-check';
import { toEntry, type CatalogueEntry, type StoredProduct } from './catalogue-entry';
import { CatalogueIndex } from './catalogue-index';
import { selectList } from './catalogue-queries';
import { compileFilter } from './compiled-filter';
import { parseProductListQuery, toMongoFilter, type ProductListQuery } from './product-query';

/**
 * The index's shortcuts (bits per value, the search blob, slots reused after removals, orders kept sorted as
 * products change) give what testing every product would: on a catalogue of 3,000, and again after stock writes,
 * edits and deletions changed the index. (test/read-model.spec.ts checks the filters themselves against MongoDB.)
 */
const WORDS = ['jersey', 'Hoodie', 'CAP', 'retro', 'fleece', 'game day', 'crest', 'naïve', 'ſcarf', '(pro)'];
const pick = <T>(values: readonly T[]) => fc.constantFrom(...values);

const productArb = fc.record({
  name: fc.array(pick(WORDS), { minLength: 1, maxLength: 3 }).map((w) => w.join(' ')),
  description: fc.array(pick(WORDS), { minLength: 1, maxLength: 5 }).map((w) => w.join(' ')),
  pricePence: fc.integer({ min: 500, max: 20_000 }),
  category: pick(CATEGORIES),
  gender: pick(GENDERS),
  brand: pick(BRANDS),
  sizes: fc.uniqueArray(pick(SIZES), { maxLength: 4 }),
  colors: fc.uniqueArray(pick(COLORS), { maxLength: 3 }),
  material: pick(MATERIALS),
  collections: pick(['Game Day', 'Winter Warmers', 'Retro Classics']),
  rating: fc.integer({ min: 0, max: 10 }).map((r) => r / 2),
  numReviews: fc.nat({ max: 50 }),
  soldCount: fc.nat({ max: 20 }),
  countInStock: fc.nat({ max: 50 }),
  daysAgo: fc.nat({ max: 30 }),
});

const queryArb = fc
  .record(
    {
      collection: pick(['Game Day', 'Winter Warmers']),
      category: pick(CATEGORIES),
      gender: pick(GENDERS),
      size: fc.uniqueArray(pick(SIZES), { minLength: 1, maxLength: 2 }).map((v) => v.join(',')),
      color: pick(COLORS),
      material: pick(MATERIALS),
      brand: fc.uniqueArray(pick(BRANDS), { minLength: 1, maxLength: 2 }).map((v) => v.join(',')),
      minPrice: fc.integer({ min: 0, max: 150 }).map(String),
      maxPrice: fc.integer({ min: 0, max: 200 }).map(String),
      search: fc.oneof(pick(WORDS), pick(['e', 'zz', 'ſ', 're', 'ey ', 'S'])),
      sortBy: pick(['priceAsc', 'priceDesc', 'popularity', 'newest']),
      limit: pick(['0', '1', '24', '100']),
    },
    { requiredKeys: [] },
  )
  .map(parseProductListQuery);

type Doc = StoredProduct & Record<string, unknown>;

function docOf(p: typeof productArb extends fc.Arbitrary<infer T> ? T : never, n: number): Doc {
  const at = new Date(Date.UTC(2026, 0, 1) - p.daysAgo * 86_400_000);
  return {
    ...p,
    _id: n.toString(16).padStart(24, '0'),
    sku: `Q-${n}`,
    images: [],
    isFeatured: false,
    isPublished: true,
    tags: [],
    createdAt: at,
    updatedAt: at,
  };
}

/**
 * The answer with no plan at all: every product tested, all matches sorted. A search matches what the full-text
 * search finds (its own suite tests what that is) and every product containing the text as typed; by relevance,
 * exact matches first, then by score, then newest first.
 */
function bruteForce(index: CatalogueIndex, q: ProductListQuery): CatalogueEntry[] {
  const others = compileFilter(toMongoFilter({ ...q, search: undefined })).matches;
  const substring = q.search
    ? compileFilter(toMongoFilter({ sortBy: 'newest', limit: 0, search: q.search })).matches
    : () => true;
  const searched = q.search ? index.search.search(q.search) : undefined;
  const hits = new Map(
    Array.from({ length: searched?.count ?? 0 }, (_, i) => [
      index.at(searched!.slots[i])._id,
      { score: searched!.scores[i], exact: searched!.exact[i] === 1 },
    ]),
  );
  const order = index.orders[q.sortBy === 'relevance' ? 'newest' : q.sortBy];
  let found = order.items.map((slot) => index.at(slot)).filter((e) => others(e) && (substring(e) || hits.has(e._id)));
  if (q.sortBy === 'relevance') {
    const exact = (e: CatalogueEntry) => (q.search && substring(e)) || hits.get(e._id)?.exact === true;
    const score = (e: CatalogueEntry) => hits.get(e._id)?.score ?? 0;
    // a stable sort: equal ones stay newest first
    found = [...found].sort((a, b) => Number(exact(b)) - Number(exact(a)) || score(b) - score(a));
  }
  return q.limit > 0 ? found.slice(0, q.limit) : found;
}

describe('selectList gives the answer of testing every product', () => {
  const seed = Number(process.env.PROPERTY_SEED ?? Date.now() % 2 ** 31);
  const docs = fc.sample(productArb, { numRuns: 3000, seed }).map(docOf);
  /** Its JSON as the catalog would send it does not matter here: only which products, in which order. */
  const entryOfDoc = (doc: Doc) => toEntry(doc, doc as unknown as ProductJson);
  const index = new CatalogueIndex(docs.map(entryOfDoc));
  const ids = (entries: CatalogueEntry[]) => entries.map((e) => e._id);
  const same = (q: ProductListQuery) => expect(ids(selectList(index, q))).toEqual(ids(bruteForce(index, q)));

  it(`on a catalogue of 3,000 (seed ${seed})`, () => {
    fc.assert(fc.property(queryArb, same), { numRuns: 400, seed });
  });

  it(`after stock writes, edits and deletions (seed ${seed})`, () => {
    docs.slice(0, 300).forEach((doc, i) => {
      const id = String(doc._id);
      if (i % 3 === 0) index.setStock(id, { countInStock: i, soldCount: i % 17, updatedAt: new Date(0).toISOString() });
      // an edit of the name, or of the price alone (the texts the search reads stay: the index keeps them)
      else if (i % 3 === 1)
        index.put(entryOfDoc({ ...doc, ...(i % 2 ? { name: `${doc.name} edited` } : {}), pricePence: 999 }));
      else index.remove(id);
    });
    fc.assert(fc.property(queryArb, same), { numRuns: 400, seed: seed + 1 });
  });

  it(`after more edits of the texts than searches test one by one, when the substring index is made again (seed ${seed})`, () => {
    docs.slice(300, 1_500).forEach((doc, i) => {
      if (i % 4 === 0) index.remove(String(doc._id));
      else index.put(entryOfDoc({ ...doc, name: `${doc.name} ${WORDS[i % WORDS.length]}` }));
    });
    fc.assert(fc.property(queryArb, same), { numRuns: 200, seed: seed + 2 });
  });
});
