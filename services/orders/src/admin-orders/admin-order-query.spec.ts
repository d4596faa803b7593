import { parseAdminOrderQuery, toMongoFilter, toMongoSort } from './admin-order-query';

const errorOf = (raw: Record<string, unknown>) => {
  try {
    parseAdminOrderQuery(raw);
    return undefined;
  } catch (err) {
    return { status: (err as { getStatus(): number }).getStatus(), message: (err as Error).message };
  }
};

describe('parseAdminOrderQuery', () => {
  it('without any of its keys is today’s list (not paged); unknown keys are ignored', () => {
    expect(parseAdminOrderQuery({})).toEqual({
      paged: false,
      page: 1,
      limit: 25,
      filter: {},
      sort: { field: 'createdAt', direction: -1 },
    });
    expect(parseAdminOrderQuery({ utm_source: 'x' }).paged).toBe(false);
  });

  it('any of its keys makes a page, page 1 of 25 newest first unless told', () => {
    expect(parseAdminOrderQuery({ status: 'Shipped' })).toEqual({
      paged: true,
      page: 1,
      limit: 25,
      filter: { status: 'Shipped' },
      sort: { field: 'createdAt', direction: -1 },
    });
    expect(parseAdminOrderQuery({ page: '3', limit: '100', sort: 'totalPrice' })).toMatchObject({
      page: 3,
      limit: 100,
      sort: { field: 'totalPrice', direction: 1 },
    });
    expect(parseAdminOrderQuery({ sort: '-customer' }).sort).toEqual({ field: 'customer', direction: -1 });
  });

  it('reads q as an order id, a whole email, or the beginning of a name or email, lower-cased', () => {
    expect(parseAdminOrderQuery({ q: ' 65B000000000000000000001 ' }).filter).toEqual({
      id: '65b000000000000000000001',
    });
    expect(parseAdminOrderQuery({ q: 'Jane.Fan@Example.com' }).filter).toEqual({ email: 'jane.fan@example.com' });
    expect(parseAdminOrderQuery({ q: 'Jane F' }).filter).toEqual({ prefix: 'jane f' });
    expect(parseAdminOrderQuery({ q: '   ' }).filter).toEqual({});
  });

  it('reads dates as UTC days (to: the whole day) or ISO times (to: inclusive)', () => {
    expect(parseAdminOrderQuery({ from: '2025-03-01', to: '2025-03-01' }).filter).toEqual({
      from: new Date('2025-03-01T00:00:00.000Z'),
      before: new Date('2025-03-02T00:00:00.000Z'),
    });
    expect(parseAdminOrderQuery({ from: '2025-03-01T10:00:00Z', to: '2025-03-01T12:30:00.000+01:00' }).filter).toEqual({
      from: new Date('2025-03-01T10:00:00.000Z'),
      before: new Date('2025-03-01T11:30:00.001Z'),
    });
    expect(parseAdminOrderQuery({ paid: 'false' }).filter).toEqual({ paid: false });
  });

  it.each<[string, Record<string, unknown>, string]>([
    ['page 0', { page: '0' }, 'page must be a whole number from 1 to 10000'],
    ['a negative page', { page: '-1' }, 'page must be a whole number from 1 to 10000'],
    ['a fractional page', { page: '1.5' }, 'page must be a whole number from 1 to 10000'],
    ['a page too deep', { page: '10001' }, 'page must be a whole number from 1 to 10000'],
    ['limit 10,000', { limit: '10000' }, 'limit must be a whole number from 1 to 100'],
    ['limit 0', { limit: '0' }, 'limit must be a whole number from 1 to 100'],
    ['a word for a limit', { limit: 'all' }, 'limit must be a whole number from 1 to 100'],
    ['a repeated page', { page: ['1', '2'] }, 'Give page only once'],
    ['an operator in a key', { 'status[$ne]': 'Cancelled' }, 'Invalid status'],
    ['an object', { q: { $gt: '' } }, 'Invalid q'],
    ['an unknown status', { status: 'shipped' }, 'status must be one of Processing, Shipped, Delivered, Cancelled'],
    ['a paid that is not a boolean', { paid: 'yes' }, 'paid must be true or false'],
    ['a malformed from', { from: '01/03/2025' }, 'from must be a date (YYYY-MM-DD) or an ISO 8601 time'],
    ['a day that does not exist', { to: '2025-02-30' }, 'to must be a date (YYYY-MM-DD) or an ISO 8601 time'],
    ['a time without a zone', { from: '2025-03-01T10:00' }, 'from must be a date (YYYY-MM-DD) or an ISO 8601 time'],
    ['from after to', { from: '2025-03-02', to: '2025-03-01' }, 'from must not be after to'],
    [
      'an unknown sort field',
      { sort: 'password' },
      'Unknown sort field: sort by one of createdAt, totalPrice, status, customer (a leading - for descending)',
    ],
    [
      'a sort by a stored name',
      { sort: 'totalPence' },
      'Unknown sort field: sort by one of createdAt, totalPrice, status, customer (a leading - for descending)',
    ],
    ['a q too long', { q: 'x'.repeat(101) }, 'q must be at most 100 characters'],
  ])('refuses %s with a 400 and a sentence', (_what, raw, message) => {
    expect(errorOf(raw)).toEqual({ status: 400, message });
  });
});

describe('toMongoFilter and toMongoSort', () => {
  it('uses equality and ranges on the indexed fields, never a regex', () => {
    const q = parseAdminOrderQuery({ q: 'jan', status: 'Delivered', paid: 'true', from: '2025-03-01' });
    const filter = toMongoFilter(q.filter);
    expect(filter).toEqual({
      $or: [{ customerName: { $gte: 'jan', $lt: 'jan\uffff' } }, { customerEmail: { $gte: 'jan', $lt: 'jan\uffff' } }],
      status: 'Delivered',
      isPaid: true,
      createdAt: { $gte: new Date('2025-03-01T00:00:00.000Z') },
    });
    expect(JSON.stringify(filter)).not.toContain('$regex');
    expect(toMongoFilter(parseAdminOrderQuery({ q: 'a@b.c' }).filter)).toEqual({ customerEmail: 'a@b.c' });
    expect(String(toMongoFilter(parseAdminOrderQuery({ q: '65b000000000000000000001' }).filter)._id)).toBe(
      '65b000000000000000000001',
    );
  });

  it('sorts by the stored field, ties by _id the same way', () => {
    expect(toMongoSort({ field: 'totalPrice', direction: -1 })).toEqual({ totalPence: -1, _id: -1 });
    expect(toMongoSort({ field: 'customer', direction: 1 })).toEqual({ customerName: 1, _id: 1 });
    expect(Object.keys(toMongoSort({ field: 'createdAt', direction: -1 }))).toEqual(['createdAt', '_id']);
  });
});
