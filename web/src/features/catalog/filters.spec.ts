import {
  activeFilterCount,
  DEFAULT_FILTERS,
  parseFilters,
  toggleValue,
  toProductQuery,
  toSearchParams,
} from './filters';

describe('filters ↔ query string', () => {
  it('reads every filter and the sort from the query string', () => {
    const filters = parseFilters(
      new URLSearchParams(
        'category=Top+Wear&gender=Women&color=Navy&size=M,L&material=Cotton&brand=Baltimore+Ravens,Green+Bay+Packers&minPrice=10&maxPrice=120&sortBy=priceAsc&search=hoodie',
      ),
    );
    expect(filters).toEqual({
      category: 'Top Wear',
      gender: 'Women',
      color: 'Navy',
      size: ['M', 'L'],
      material: ['Cotton'],
      brand: ['Baltimore Ravens', 'Green Bay Packers'],
      minPrice: 10,
      maxPrice: 120,
      sortBy: 'priceAsc',
      search: 'hoodie',
    });
  });

  it('falls back to the defaults for missing or malformed values', () => {
    expect(parseFilters(new URLSearchParams('maxPrice=lots&minPrice=-3&sortBy=cheapest&size=,,'))).toEqual(
      DEFAULT_FILTERS,
    );
  });

  it('writes back what it read (a shared link, Back and a reload restore the same filters)', () => {
    const query = 'gender=Men&size=S%2CXL&maxPrice=200&sortBy=popularity';
    const filters = parseFilters(new URLSearchParams(query));
    expect(parseFilters(toSearchParams(filters))).toEqual(filters);
  });

  it('never sends the default maximum (500) as a filter, and drops empty ones', () => {
    const params = toSearchParams({ ...DEFAULT_FILTERS, gender: 'Men' });
    expect(params.toString()).toBe('gender=Men');
    expect(toProductQuery('all', { ...DEFAULT_FILTERS, gender: 'Men' })).toEqual({ gender: 'Men' });
    expect(toProductQuery('all', { ...DEFAULT_FILTERS, maxPrice: 499 })).toEqual({ maxPrice: 499 });
  });

  it('sends the collection of the path unless it is "all"', () => {
    expect(toProductQuery('Game Day', DEFAULT_FILTERS)).toEqual({ collection: 'Game Day' });
    expect(toProductQuery('ALL', DEFAULT_FILTERS)).toEqual({});
  });

  it('keeps unrelated parameters of the URL', () => {
    expect(toSearchParams({ ...DEFAULT_FILTERS, color: 'Red' }, new URLSearchParams('utm=mail')).toString()).toBe(
      'utm=mail&color=Red',
    );
  });

  it('toggles values of a multi-value filter and counts active filters', () => {
    expect(toggleValue(['M'], 'L')).toEqual(['M', 'L']);
    expect(toggleValue(['M', 'L'], 'M')).toEqual(['L']);
    expect(activeFilterCount({ ...DEFAULT_FILTERS, size: ['M', 'L'], gender: 'Men', sortBy: 'priceAsc' })).toBe(3);
  });
});
