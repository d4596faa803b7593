import {
  ADMIN_LIST_MESSAGES,
  ascendingThenById,
  formatPageRange,
  hasNextPage,
  isPagedRequest,
  parseAdminListPage,
  parseAdminProductListQuery,
  parseAdminUserListQuery,
  PRODUCT_LIST_MESSAGES,
  PRODUCT_LIST_SORTS,
  USER_LIST_SORTS,
} from './admin-lists';

describe('admin lists: the generic query', () => {
  it('is paged only when page is given', () => {
    expect(isPagedRequest({})).toBe(false);
    expect(isPagedRequest({ q: 'x', limit: '5' })).toBe(false);
    expect(isPagedRequest({ page: '1' })).toBe(true);
  });

  it('reads page, limit, q and sort, with defaults', () => {
    expect(parseAdminUserListQuery({ page: '1' })).toEqual({
      ok: true,
      value: { page: 1, limit: 25, q: '', sort: { field: 'createdAt', direction: -1 } },
    });
    expect(parseAdminUserListQuery({ page: ' 3 ', limit: '100', q: '  Ada ', sort: '-email', role: 'admin' })).toEqual({
      ok: true,
      value: { page: 3, limit: 100, q: 'Ada', sort: { field: 'email', direction: -1 }, role: 'admin' },
    });
    expect(parseAdminListPage({ page: '2', sort: 'total' }, ['total'], { field: 'total', direction: 1 })).toEqual({
      ok: true,
      value: { page: 2, limit: 25, q: '', sort: { field: 'total', direction: 1 } },
    });
  });

  it.each([
    [{ page: '0' }, ADMIN_LIST_MESSAGES.page],
    [{ page: '' }, ADMIN_LIST_MESSAGES.page],
    [{ page: '-1' }, ADMIN_LIST_MESSAGES.page],
    [{ page: '1.5' }, ADMIN_LIST_MESSAGES.page],
    [{ page: 'abc' }, ADMIN_LIST_MESSAGES.page],
    [{ page: '99999999' }, ADMIN_LIST_MESSAGES.page],
    [{ page: ['1', '2'] }, ADMIN_LIST_MESSAGES.plain('page')],
    [{ page: '1', limit: '0' }, ADMIN_LIST_MESSAGES.limit],
    [{ page: '1', limit: '10000' }, ADMIN_LIST_MESSAGES.limit],
    [{ page: '1', limit: '1e2' }, ADMIN_LIST_MESSAGES.limit],
    [{ page: '1', q: 'x'.repeat(101) }, ADMIN_LIST_MESSAGES.q],
    [{ page: '1', q: { $ne: 'x' } }, ADMIN_LIST_MESSAGES.plain('q')],
    [{ page: '1', 'role[$ne]': 'admin' }, ADMIN_LIST_MESSAGES.plain('role')],
    [{ page: '1', sort: 'password' }, ADMIN_LIST_MESSAGES.sort(USER_LIST_SORTS)],
    [{ page: '1', sort: '--name' }, ADMIN_LIST_MESSAGES.sort(USER_LIST_SORTS)],
    [{ page: '1', role: 'root' }, ADMIN_LIST_MESSAGES.oneOf('role', ['customer', 'admin'])],
  ])('refuses %j', (raw, message) => {
    expect(parseAdminUserListQuery(raw)).toEqual({ ok: false, message });
  });

  it('says which rows a page shows', () => {
    expect(formatPageRange(1, 25, 0)).toBe('0 of 0');
    expect(formatPageRange(1, 25, 7)).toBe('1–7 of 7');
    expect(formatPageRange(2, 25, 60)).toBe('26–50 of 60');
    expect(formatPageRange(3, 25, 60)).toBe('51–60 of 60');
    expect(formatPageRange(9, 25, 60)).toBe('0 of 60');
    expect(hasNextPage(2, 25, 60)).toBe(true);
    expect(hasNextPage(3, 25, 60)).toBe(false);
  });
});

describe('admin lists: products', () => {
  it('reads category, published and lowStock', () => {
    const res = parseAdminProductListQuery({
      page: '1',
      category: 'Top Wear',
      published: 'false',
      lowStock: 'true',
      sort: 'price',
    });
    expect(res).toEqual({
      ok: true,
      value: {
        page: 1,
        limit: 25,
        q: '',
        sort: { field: 'price', direction: 1 },
        category: 'Top Wear',
        published: false,
        lowStock: 'default',
      },
    });
    expect(parseAdminProductListQuery({ page: '1', lowStock: '3' })).toMatchObject({
      ok: true,
      value: { lowStock: 3 },
    });
    expect(parseAdminProductListQuery({ page: '1', lowStock: 'false' })).toEqual({
      ok: true,
      value: expect.not.objectContaining({ lowStock: expect.anything() }),
    });
  });

  it.each([
    [
      { page: '1', category: 'Hats' },
      ADMIN_LIST_MESSAGES.oneOf('category', ['Top Wear', 'Bottom Wear', 'Accessories', 'Equipment']),
    ],
    [{ page: '1', published: 'yes' }, ADMIN_LIST_MESSAGES.boolean('published')],
    [{ page: '1', lowStock: '-1' }, PRODUCT_LIST_MESSAGES.lowStock],
    [{ page: '1', lowStock: 'lots' }, PRODUCT_LIST_MESSAGES.lowStock],
    [{ page: '1', sort: '-rating' }, ADMIN_LIST_MESSAGES.sort(PRODUCT_LIST_SORTS)],
  ])('refuses %j', (raw, message) => {
    expect(parseAdminProductListQuery(raw)).toEqual({ ok: false, message });
  });
});

describe('ascendingThenById', () => {
  it('orders by the key, and rows with equal keys by id, whatever order they came in', () => {
    const rows = [
      { id: 'c', name: 'Ravens' },
      { id: 'a', name: 'Packers' },
      { id: 'b', name: 'Packers' },
      { id: 'd', name: 'Eagles' },
    ];
    const byName = ascendingThenById<(typeof rows)[number]>((row) => row.name);
    expect([...rows].sort(byName).map((r) => r.id)).toEqual(['d', 'a', 'b', 'c']);
    expect(
      [...rows]
        .reverse()
        .sort(byName)
        .map((r) => r.id),
    ).toEqual(['d', 'a', 'b', 'c']);
  });
});
