// The guest lane (src/cart/guest-lane.ts) answers a guest's GET and POST /api/cart in front of Express. Every case
// here is sent twice to the real cart (with the real catalog): on `/api/cart`, which the lane takes, and on
// `/api/cart/`, which is the same controller route but always goes through Express, Nest's guard, pipe and filter.
// Status, body and headers must be the same.
import { request } from '@shop/nest-common/testing';
import { addProduct, newGuestId, startShop, type Shop } from './cart.fixtures';

interface Answer {
  status: number;
  body: unknown;
  headers: Headers;
}

describe('the guest lane answers as Express does', () => {
  let shop: Shop;
  let productId: string;

  beforeAll(async () => {
    shop = await startShop();
    productId = await addProduct(shop, { price: 19.99, countInStock: 40 });
  });
  afterAll(() => shop?.close());

  async function call(path: string, init: { method?: string; body?: string; headers?: Record<string, string> }) {
    const res = await fetch(`${shop.cart.url}${path}`, {
      method: init.method ?? 'GET',
      headers: init.headers ?? (init.body === undefined ? {} : { 'content-type': 'application/json' }),
      body: init.body,
    });
    const text = await res.text();
    return { status: res.status, body: text ? (JSON.parse(text) as unknown) : undefined, headers: res.headers };
  }

  /** The same request on the lane's path and on Express's. */
  async function both(query: string, init: { method?: string; body?: string; headers?: Record<string, string> } = {}) {
    const handle = jest.spyOn(shop.cart.app.getHttpAdapter().getInstance(), 'handle');
    try {
      const lane = await call(`/api/cart${query}`, init);
      const laneReachedExpress = handle.mock.calls.length > 0;
      const express = await call(`/api/cart/${query}`, init);
      expect(handle.mock.calls.length).toBeGreaterThan(0);
      return { lane, express, laneReachedExpress };
    } finally {
      handle.mockRestore();
    }
  }

  const sameHeaders = (a: Answer, b: Answer) => {
    for (const name of ['content-type', 'cache-control', 'x-powered-by', 'content-encoding'])
      expect([name, a.headers.get(name)]).toEqual([name, b.headers.get(name)]);
    expect(a.headers.get('x-request-id')).toBeTruthy();
    expect(a.headers.get('etag')).toMatch(/^W\/"/);
  };

  it('reads a guest cart: the same cart, status and headers', async () => {
    const guestId = newGuestId();
    const add = await call('/api/cart/', {
      method: 'POST',
      body: JSON.stringify({ productId, quantity: 2, size: 'M', color: 'Green', guestId }),
    });
    expect(add.status).toBe(201);
    const { lane, express, laneReachedExpress } = await both(`?guestId=${guestId}`);
    expect(laneReachedExpress).toBe(false);
    expect(lane.status).toBe(200);
    expect(lane.body).toEqual(express.body);
    expect(lane.body).toMatchObject({ guestId, totalPrice: 39.98, products: [{ productId, quantity: 2 }] });
    sameHeaders(lane, express);
    expect(lane.headers.get('etag')).toBe(express.headers.get('etag'));
  });

  it('keeps the request id the gateway sent', async () => {
    const res = await request(`${shop.cart.url}/api/cart?guestId=${newGuestId()}`, {
      headers: { 'x-request-id': 'gw-req-7' },
    });
    expect(res.headers.get('x-request-id')).toBe('gw-req-7');
  });

  it('adds for a guest: 201 when it created the cart, then 200, the same cart as Express gives', async () => {
    const guestId = newGuestId();
    const body = JSON.stringify({ productId, quantity: 1, size: 'M', color: 'Green', guestId });
    const first = await call('/api/cart', { method: 'POST', body });
    expect(first.status).toBe(201);
    const again = await call('/api/cart', { method: 'POST', body });
    const viaExpress = await call('/api/cart/', { method: 'POST', body });
    expect([again.status, viaExpress.status]).toEqual([200, 200]);
    expect(again.body).toMatchObject({ products: [{ productId, quantity: 2 }] });
    expect(viaExpress.body).toMatchObject({ products: [{ productId, quantity: 3 }] });
    sameHeaders(again, viaExpress);
  });

  const guestId = 'guest_lane_errors';
  const json = { 'content-type': 'application/json' };
  // Every row has its headers: jest.each would take a missing last argument for a done() callback.
  const refused: Array<[string, string, Record<string, string>]> = [
    ['missing fields', '{}', json],
    ['productId as an operator', JSON.stringify({ productId: { $gt: '' }, quantity: 1, guestId }), json],
    ['a string quantity', JSON.stringify({ productId: 'a'.repeat(24), quantity: '1', guestId }), json],
    ['quantity 100', JSON.stringify({ productId: 'a'.repeat(24), quantity: 100, guestId }), json],
    ['a fractional quantity', JSON.stringify({ productId: 'a'.repeat(24), quantity: 1.5, guestId }), json],
    ['no guestId', JSON.stringify({ productId: 'a'.repeat(24), quantity: 1 }), json],
    ['a malformed guestId', JSON.stringify({ productId: 'a'.repeat(24), quantity: 1, guestId: 'guest_$' }), json],
    ['a userId without a token', JSON.stringify({ productId: 'a'.repeat(24), quantity: 1, userId: 'u1' }), json],
    ['an unknown product', JSON.stringify({ productId: 'a'.repeat(24), quantity: 1, guestId }), json],
    ['malformed JSON', '{"productId": ', json],
    ['a JSON string', '"productId"', json],
    ['an array', '[1, 2]', json],
    ['deep nesting', `${'['.repeat(40)}${']'.repeat(40)}`, json],
    ['a broken character', '{"productId": "\\ud800", "quantity": 1}', json],
    ['a huge size', JSON.stringify({ productId: 'a'.repeat(24), quantity: 1, guestId, size: 'x'.repeat(5000) }), json],
    ['a bad token', '{}', { ...json, authorization: 'Bearer not-a-token' }],
  ];

  it.each(refused)('refuses %s with the same status and body', async (what, body, headers) => {
    const { lane, express, laneReachedExpress } = await both('', { method: 'POST', body, headers });
    expect(laneReachedExpress).toBe(what === 'a bad token'); // a token is the guard's business, on Express
    expect(lane.status).toBeGreaterThanOrEqual(400);
    expect(lane.status).toBeLessThan(500);
    expect(lane.body).toEqual(express.body);
    expect(lane.status).toBe(express.status);
    expect(typeof (lane.body as { message: unknown }).message).toBe('string');
    sameHeaders(lane, express);
  });

  it.each([
    ['no guestId', ''],
    ['a malformed guestId', '?guestId=nope'],
    ['two guestIds', '?guestId=guest_a&guestId=guest_b'],
    ['a userId without a token', '?userId=u1'],
  ])('refuses a read with %s the same way', async (_what, query) => {
    const { lane, express, laneReachedExpress } = await both(query);
    expect(laneReachedExpress).toBe(false);
    expect(lane.status).toBe(express.status);
    expect(lane.status).toBeGreaterThanOrEqual(400);
    expect(lane.body).toEqual(express.body);
  });

  it('writes nothing for a refused add', async () => {
    const id = newGuestId();
    await both('', { method: 'POST', body: JSON.stringify({ productId, quantity: 100, size: 'M', guestId: id }) });
    expect(await shop.redis.exists(`${shop.cart.config.RABBITMQ_NAMESPACE}cart:guest:${id}`)).toBe(0);
  });
});
