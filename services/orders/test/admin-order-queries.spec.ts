// The admin's orders at a real shop's size (issue 25): the paged list gives exactly the rows a plain computation over
// the generated orders gives, for every filter, search and sort; bad input is a 400 with a sentence; one order comes
// with its whole history; the CSV export streams one row per line, escaped, with two-decimal amounts, honouring the
// filters; and every route is admin-only.
import {
  ADMIN_ORDERS_CSV_COLUMNS,
  ORDER_STATUSES,
  SHIPPING_METHOD,
  type OrderJson,
  type OrderStatus,
} from '@shop/contracts';
import { Types } from 'mongoose';
import { SearchKeysBackfill } from '../src/admin-orders/search-keys.backfill';
import { toOrderJson } from '../src/orders/order.mapper';
import { customerKeys, ORDER_PROJECTION, type LeanOrder } from '../src/orders/order.schema';
import { ADMIN, CUSTOMER, newId, paidCheckout, startOrders, type OrdersHarness } from './orders.fixtures';

const DAY_MS = 86_400_000;
const FIRST_NAMES = ['Jane', 'jan', 'Janet', 'Ólafur', 'Zoë', 'Adam', 'Bea', 'Carl'];
const START = Date.UTC(2025, 0, 1, 8, 0, 0);

/** Order `i` of the generated shop: names, statuses, payment, days and totals varied (with ties) by its number. */
function generated(i: number) {
  const { paidAt: _paidAt, ...checkout } = paidCheckout({
    id: newId(),
    name: `${FIRST_NAMES[i % FIRST_NAMES.length]} Buyer${i % 7}`,
  });
  const at = new Date(START + Math.floor(i / 3) * DAY_MS + (i % 3) * 3_600_000);
  const totalPence = 1000 + (i % 9) * 250; // nine totals, so sorting by total has ties
  const user = { ...checkout.user, email: `Buyer.${i}@Example.com` };
  return {
    _id: new Types.ObjectId(),
    ...checkout,
    user,
    ...customerKeys(user),
    orderItems: [{ ...checkout.orderItems[0], pricePence: totalPence, quantity: 1 }],
    totalPence,
    paidAt: at,
    paymentMethod: 'PayPal',
    shippingMethod: SHIPPING_METHOD,
    isPaid: i % 5 !== 0,
    paymentStatus: 'paid',
    isDelivered: false,
    status: ORDER_STATUSES[i % 4],
    statusHistory: [{ status: 'Processing' as OrderStatus, at }],
    outbox: [],
    outboxPending: false,
    createdAt: at,
    updatedAt: at,
  };
}
type Generated = ReturnType<typeof generated>;

describe('orders: the admin’s list, order page and CSV export', () => {
  let h: OrdersHarness;
  const orders: Generated[] = Array.from({ length: 90 }, (_, i) => generated(i));

  beforeAll(async () => {
    h = await startOrders();
    await h.orders.collection.insertMany(orders);
  });
  afterAll(() => h?.close());

  const get = (path: string, as = ADMIN) => h.http('GET', path, as);

  /** Every page of `query` (limit `limit`), concatenated; checks each page's X-Total-Count. */
  async function allPages(query: string, limit: number): Promise<{ ids: string[]; total: number }> {
    const ids: string[] = [];
    let total = -1;
    for (let page = 1; page <= 200; page++) {
      const res = await get(`/api/admin/orders?${query}&limit=${limit}&page=${page}`);
      expect(res.status).toBe(200);
      const count = Number(res.headers.get('x-total-count'));
      if (total === -1) total = count;
      expect(count).toBe(total);
      const body = res.body as OrderJson[];
      ids.push(...body.map((o) => o._id));
      if (body.length < limit) break;
    }
    return { ids, total };
  }

  // ---- the plain computation the list must equal

  type Check = (o: Generated) => boolean;
  const cases: Array<[string, string, Check]> = [
    ['no filter', '', () => true],
    ['a status', 'status=Shipped', (o) => o.status === 'Shipped'],
    ['unpaid', 'paid=false', (o) => !o.isPaid],
    ['paid and Delivered', 'paid=true&status=Delivered', (o) => o.isPaid && o.status === 'Delivered'],
    [
      'a date range (whole UTC days)',
      'from=2025-01-05&to=2025-01-12',
      (o) => o.createdAt.getTime() >= Date.UTC(2025, 0, 5) && o.createdAt.getTime() < Date.UTC(2025, 0, 13),
    ],
    [
      'a range of times',
      `from=${new Date(START + 2 * DAY_MS).toISOString()}&to=${new Date(START + 4 * DAY_MS + 3_600_000).toISOString()}`,
      (o) => o.createdAt.getTime() >= START + 2 * DAY_MS && o.createdAt.getTime() <= START + 4 * DAY_MS + 3_600_000,
    ],
    ['a name’s beginning, any case', 'q=JAN', (o) => o.user.name.toLowerCase().startsWith('jan')],
    ['a longer beginning', 'q=janet%20b', (o) => o.user.name.toLowerCase().startsWith('janet b')],
    ['a non-ASCII name', 'q=%C3%B3laf', (o) => o.user.name.startsWith('Ólaf')],
    ['an email’s beginning', 'q=buyer.1', (o) => o.user.email.toLowerCase().startsWith('buyer.1')],
    [
      'a whole email, any case',
      'q=BUYER.17%40example.COM',
      (o) => o.user.email.toLowerCase() === 'buyer.17@example.com',
    ],
    ['an order id', `q=${orders[42]._id.toHexString().toUpperCase()}`, (o) => o === orders[42]],
    [
      'a search with filters',
      'q=jan&status=Processing&from=2025-01-03',
      (o) =>
        o.user.name.toLowerCase().startsWith('jan') &&
        o.status === 'Processing' &&
        o.createdAt.getTime() >= Date.UTC(2025, 0, 3),
    ],
    ['nothing', 'q=nobody', () => false],
  ];

  const sortKey: Record<string, (o: Generated) => number | string> = {
    createdAt: (o) => o.createdAt.getTime(),
    totalPrice: (o) => o.totalPence,
    status: (o) => o.status,
    customer: (o) => o.user.name.toLowerCase(),
  };
  /** The order a sort gives: by its field, then by id, both in its direction. */
  function sorted(rows: Generated[], sort: string): string[] {
    const direction = sort.startsWith('-') ? -1 : 1;
    const key = sortKey[sort.replace(/^-/, '')];
    const cmp = (a: number | string, b: number | string) => (a < b ? -1 : a > b ? 1 : 0);
    return [...rows]
      .sort((a, b) => direction * (cmp(key(a), key(b)) || cmp(a._id.toHexString(), b._id.toHexString())))
      .map((o) => o._id.toHexString());
  }

  it.each(cases)(
    'pages through %s: the same rows, in the same order, as a plain computation',
    async (_what, query, keep) => {
      const expected = sorted(orders.filter(keep), '-createdAt');
      const { ids, total } = await allPages(query, 7);
      expect(total).toBe(expected.length);
      expect(ids).toEqual(expected);
    },
  );

  it.each(['createdAt', '-createdAt', 'totalPrice', '-totalPrice', 'status', '-status', 'customer', '-customer'])(
    'sorts by %s, ties in id order, the same across every page size',
    async (sort) => {
      const expected = sorted(orders, sort);
      for (const limit of [10, 25, 100]) {
        const { ids, total } = await allPages(`sort=${sort}`, limit);
        expect(total).toBe(orders.length);
        expect(ids).toEqual(expected);
      }
    },
  );

  it('answers each row as the order’s JSON, the first page 25 by default, and a page past the end empty', async () => {
    const first = await get('/api/admin/orders?page=1');
    expect(first.status).toBe(200);
    expect(first.headers.get('x-total-count')).toBe(String(orders.length));
    const stored = await h.orders
      .find({ _id: { $in: (first.body as OrderJson[]).map((o) => new Types.ObjectId(o._id)) } }, ORDER_PROJECTION)
      .lean<LeanOrder[]>();
    const byId = new Map(stored.map((o) => [String(o._id), JSON.parse(JSON.stringify(toOrderJson(o)))]));
    expect(first.body).toHaveLength(25);
    for (const row of first.body as OrderJson[]) expect(row).toEqual(byId.get(row._id));
    expect(first.body[0]).not.toHaveProperty('customerName');
    const past = await get('/api/admin/orders?page=40');
    expect(past).toMatchObject({ status: 200, body: [] });
    expect(past.headers.get('x-total-count')).toBe(String(orders.length));
  });

  it.each<[string, string]>([
    ['page=0', 'page must be a whole number from 1 to 10000'],
    ['page=abc', 'page must be a whole number from 1 to 10000'],
    ['limit=10000', 'limit must be a whole number from 1 to 100'],
    ['limit=-5', 'limit must be a whole number from 1 to 100'],
    ['from=yesterday', 'from must be a date (YYYY-MM-DD) or an ISO 8601 time'],
    ['to=2025-13-01', 'to must be a date (YYYY-MM-DD) or an ISO 8601 time'],
    ['from=2025-02-01&to=2025-01-01', 'from must not be after to'],
    [
      'sort=password',
      'Unknown sort field: sort by one of createdAt, totalPrice, status, customer (a leading - for descending)',
    ],
    ['status=Lost', 'status must be one of Processing, Shipped, Delivered, Cancelled'],
    ['paid=maybe', 'paid must be true or false'],
    ['page=1&page=2', 'Give page only once'],
    ['status[$ne]=Cancelled', 'Invalid status'],
    [`q=${'x'.repeat(101)}`, 'q must be at most 100 characters'],
  ])('refuses ?%s with a 400 and a sentence, on the list and the export', async (query, message) => {
    for (const path of ['/api/admin/orders', '/api/admin/orders/export.csv']) {
      expect(await get(`${path}?${query}`)).toMatchObject({ status: 400, body: { statusCode: 400, message } });
    }
  });

  it('gives an admin any order with its whole history: who, when, refunds and notes as stored', async () => {
    const { order } = await h.create(paidCheckout(CUSTOMER));
    const at = (s: string) => new Date(s);
    await h.orders.collection.updateOne(
      { _id: new Types.ObjectId(order._id) },
      {
        $set: {
          status: 'Cancelled',
          statusHistory: [
            { status: 'Processing', at: at('2025-03-01T10:00:00Z') },
            { status: 'Shipped', at: at('2025-03-02T10:00:00Z'), by: { _id: ADMIN.id, name: ADMIN.name } },
            {
              status: 'Shipped',
              at: at('2025-03-03T10:00:00Z'),
              by: { _id: ADMIN.id, name: ADMIN.name },
              note: 'Refund refused by PayPal: try again',
            },
            {
              status: 'Cancelled',
              at: at('2025-03-04T10:00:00Z'),
              by: { _id: ADMIN.id, name: ADMIN.name },
              refund: { id: 'REFUND-1', amountPence: 19997 },
            },
          ],
        },
      },
    );
    const res = await get(`/api/admin/orders/${order._id}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ _id: order._id, user: order.user, paymentDetails: order.paymentDetails });
    expect(res.body.statusHistory).toEqual([
      { status: 'Processing', at: '2025-03-01T10:00:00.000Z' },
      { status: 'Shipped', at: '2025-03-02T10:00:00.000Z', by: { _id: ADMIN.id, name: ADMIN.name } },
      {
        status: 'Shipped',
        at: '2025-03-03T10:00:00.000Z',
        by: { _id: ADMIN.id, name: ADMIN.name },
        note: 'Refund refused by PayPal: try again',
      },
      {
        status: 'Cancelled',
        at: '2025-03-04T10:00:00.000Z',
        by: { _id: ADMIN.id, name: ADMIN.name },
        refund: { id: 'REFUND-1', amount: 199.97 },
      },
    ]);
    expect(await get(`/api/admin/orders/${newId()}`)).toMatchObject({
      status: 404,
      body: { statusCode: 404, message: 'Order not found' },
    });
    for (const bad of ['not-an-id', '123', `${order._id}0`]) {
      expect(await get(`/api/admin/orders/${bad}`)).toMatchObject({
        status: 400,
        body: { statusCode: 400, message: 'Invalid order id' },
      });
    }
  });

  /** Parses RFC 4180 CSV (quoted cells, doubled quotes, CRLF rows). */
  function parseCsv(text: string): string[][] {
    const rows: string[][] = [];
    let row: string[] = [];
    let cell = '';
    let quoted = false;
    for (let i = 0; i < text.length; i++) {
      const c = text[i];
      if (quoted) {
        if (c === '"' && text[i + 1] === '"') {
          cell += '"';
          i++;
        } else if (c === '"') quoted = false;
        else cell += c;
      } else if (c === '"') quoted = true;
      else if (c === ',') {
        row.push(cell);
        cell = '';
      } else if (c === '\r' && text[i + 1] === '\n') {
        row.push(cell);
        rows.push(row);
        row = [];
        cell = '';
        i++;
      } else cell += c;
    }
    if (cell || row.length) throw new Error('the CSV does not end with CRLF');
    return rows;
  }

  it('exports the orders of a filter as CSV: a header, one row per line, escaped, with two-decimal amounts', async () => {
    const email = `csv.${newId()}@example.com`;
    const base = paidCheckout({ id: newId(), name: '=SUM(A1:A2), "the Fridge"' });
    const { order: two } = await h.create({
      ...base,
      user: { ...base.user, email },
      orderItems: [
        { ...base.orderItems[0], name: 'Jersey, "Home"\nEdition', pricePence: 8999, quantity: 2 },
        { ...base.orderItems[1], name: '@Beanie', pricePence: 5, quantity: 3, sku: '-1+1' },
      ],
      subtotalPence: 18013,
      discount: { code: 'KICKOFF', amountPence: 1000 },
      totalPence: 17013,
    });
    const { order: one } = await h.create({ ...paidCheckout(), user: { ...base.user, email } });

    const res = await fetch(`${h.svc.url}/api/admin/orders/export.csv?q=${encodeURIComponent(email)}`, {
      headers: { authorization: `Bearer ${h.svc.token(ADMIN)}` },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(res.headers.get('content-disposition')).toMatch(/^attachment; filename="orders-\d{4}-\d{2}-\d{2}\.csv"$/);
    const bytes = Buffer.from(await res.arrayBuffer());
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]); // UTF-8, marked for spreadsheets
    const [header, ...rows] = parseCsv(bytes.toString('utf8').slice(1));
    expect(header).toEqual([...ADMIN_ORDERS_CSV_COLUMNS]);
    const col = (name: (typeof ADMIN_ORDERS_CSV_COLUMNS)[number]) => ADMIN_ORDERS_CSV_COLUMNS.indexOf(name);
    expect(rows).toHaveLength(4);
    for (const row of rows) expect(row).toHaveLength(ADMIN_ORDERS_CSV_COLUMNS.length);
    const ofTwo = rows.filter((r) => r[col('Order ID')] === two._id);
    expect(ofTwo).toHaveLength(2);
    expect(rows.filter((r) => r[col('Order ID')] === one._id)).toHaveLength(2);
    expect(ofTwo.map((r) => r[col('Item')])).toEqual(['Jersey, "Home"\nEdition', "'@Beanie"]);
    expect(ofTwo[0][col('Customer')]).toBe(`'=SUM(A1:A2), "the Fridge"`);
    expect(ofTwo[0][col('Email')]).toBe(email);
    expect(ofTwo[1][col('SKU')]).toBe("'-1+1");
    expect(ofTwo.map((r) => [r[col('Quantity')], r[col('Unit price')], r[col('Line total')]])).toEqual([
      ['2', '89.99', '179.98'],
      ['3', '0.05', '0.15'],
    ]);
    expect(ofTwo[0].slice(col('Subtotal'), col('Order total') + 1)).toEqual(['180.13', 'KICKOFF', '10.00', '170.13']);
    expect(ofTwo[0][col('PayPal order')]).toBe(two.paymentDetails!.id);
    expect(ofTwo[0][col('PayPal capture')]).toBe(two.paymentDetails!.captureId);
    expect(ofTwo[0][col('Placed')]).toBe(two.createdAt);
    expect(ofTwo[0][col('Paid')]).toBe('yes');
  });

  it('exports every order a filter selects, and only those; none gives the header alone', async () => {
    const text = async (query: string) => {
      const res = await fetch(`${h.svc.url}/api/admin/orders/export?${query}`, {
        headers: { authorization: `Bearer ${h.svc.token(ADMIN)}` },
      });
      expect(res.status).toBe(200);
      return parseCsv((await res.text()).replace(/^\uFEFF/, ''));
    };
    const [, ...shipped] = await text('status=Shipped&from=2025-01-01&to=2025-02-28');
    const expected = orders.filter((o) => o.status === 'Shipped').map((o) => o._id.toHexString());
    expect(shipped.map((r) => r[0]).sort()).toEqual(expected.sort());
    expect(shipped.every((r) => r[2] === 'Shipped')).toBe(true);
    expect(await text('q=nobody')).toEqual([[...ADMIN_ORDERS_CSV_COLUMNS]]);
  });

  it('finds orders placed before the search once their keys are backfilled, under each order’s lock', async () => {
    const legacy = generated(1000);
    const { customerName: _n, customerEmail: _e, ...withoutKeys } = legacy;
    await h.orders.collection.insertOne(withoutKeys);
    const email = legacy.user.email.toLowerCase();
    const found = () => get(`/api/admin/orders?q=${encodeURIComponent(email)}`).then((r) => r.body as OrderJson[]);
    expect(await found()).toEqual([]);
    const backfill = h.svc.app.get(SearchKeysBackfill);
    expect(await backfill.run()).toBe(1);
    expect((await found()).map((o) => o._id)).toEqual([legacy._id.toHexString()]);
    expect(await backfill.run()).toBe(0);
  });

  it('drops the search indexes the new ones replace, once', async () => {
    await h.orders.collection.createIndex({ customerName: 1, _id: 1 });
    const backfill = h.svc.app.get(SearchKeysBackfill);
    expect(await backfill.dropReplacedIndexes()).toEqual(['customerName_1__id_1']);
    const names = (await h.orders.collection.indexes()).map((index) => index.name);
    expect(names).not.toContain('customerName_1__id_1');
    expect(names).toContain('customerName_1__id_1_createdAt_-1');
    expect(await backfill.dropReplacedIndexes()).toEqual([]);
  });

  it('keeps every route admin-only: 401 without a token, 403 for a customer', async () => {
    const { order } = await h.create(paidCheckout());
    for (const path of [
      '/api/admin/orders?page=1',
      '/api/admin/orders/export.csv',
      '/api/admin/orders/export',
      `/api/admin/orders/${order._id}`,
    ]) {
      expect(await h.http('GET', path)).toMatchObject({
        status: 401,
        body: { statusCode: 401, message: 'Not authorized, no token' },
      });
      expect(await get(path, CUSTOMER)).toMatchObject({
        status: 403,
        body: { statusCode: 403, message: 'Not authorized as an admin' },
      });
    }
  });
});
