import {
  ariaSortOf,
  DEFAULT_VIEW,
  listParams,
  nextSort,
  parseOrderListView,
  rangeText,
  toSearchParams,
} from './orderListQuery';

describe('the order list view in the query string', () => {
  it('reads a URL back into the view it was written from', () => {
    const view = {
      q: 'jane@example.com',
      status: 'Shipped' as const,
      paid: 'true' as const,
      from: '2025-03-01',
      to: '2025-03-31',
      sort: 'totalPrice' as const,
      page: 3,
    };
    expect(toSearchParams(view).toString()).toBe(
      'q=jane%40example.com&status=Shipped&paid=true&from=2025-03-01&to=2025-03-31&sort=totalPrice&page=3',
    );
    expect(parseOrderListView(toSearchParams(view))).toEqual(view);
  });

  it('leaves defaults out of the URL, and malformed values at their defaults', () => {
    expect(toSearchParams(DEFAULT_VIEW).toString()).toBe('');
    expect(
      parseOrderListView(new URLSearchParams('status=lost&paid=yes&from=01/03/2025&sort=password&page=0&q=%20a%20')),
    ).toEqual({ ...DEFAULT_VIEW, q: 'a' });
    expect(parseOrderListView(new URLSearchParams('page=2.5')).page).toBe(1);
  });

  it('asks the API for the page, 25 at a time, with only the filters set', () => {
    expect(listParams({ ...DEFAULT_VIEW, status: 'Delivered', page: 2 })).toEqual({
      status: 'Delivered',
      sort: '-createdAt',
      page: 2,
      limit: 25,
    });
  });

  it('sorts a column on a click, the other way on the next; dates and totals start largest first', () => {
    expect(nextSort('-createdAt', 'createdAt')).toBe('createdAt');
    expect(nextSort('createdAt', 'createdAt')).toBe('-createdAt');
    expect(nextSort('-createdAt', 'customer')).toBe('customer');
    expect(nextSort('-createdAt', 'totalPrice')).toBe('-totalPrice');
    expect(['createdAt', 'totalPrice', 'status'].map((f) => ariaSortOf('-totalPrice', f as never))).toEqual([
      'none',
      'descending',
      'none',
    ]);
    expect(ariaSortOf('status', 'status')).toBe('ascending');
  });

  it('says which rows show: "N–M of T"', () => {
    expect(rangeText(1, 25, 120)).toBe('1–25 of 120');
    expect(rangeText(5, 20, 120)).toBe('101–120 of 120');
    expect(rangeText(1, 0, 0)).toBe('0 of 0');
  });
});
