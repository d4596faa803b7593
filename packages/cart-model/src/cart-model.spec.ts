import express from 'express';
import { CART_CONTENT_TYPE, weakEtagOf } from './cart-answer';
import { cartProductOfPricedLine, cartProductOfProductJson } from './cart-product';
import { pricedCart } from './priced-cart';
import {
  isPlainGuestCart,
  parseStoredCart,
  plainGuestReadId,
  plainStoredGuestCart,
  type StoredCart,
} from './stored-cart';

const id = (n: number) => n.toString(16).padStart(24, 'a');
const cart = (lines: unknown[], extra: object = {}): unknown => ({
  cartId: 'c1',
  lines,
  mergedCarts: [],
  appliedOrders: [],
  createdAt: '2026-11-25T10:00:00.000Z',
  updatedAt: '2026-11-25T10:01:00.000Z',
  ...extra,
});
const line = (over: object = {}) => ({ productId: id(1), size: 'M', color: '', quantity: 2, ...over });

describe('cart model', () => {
  it("computes Express's weak ETag of a JSON answer, for ASCII, multi-byte and empty text", () => {
    const expressEtag = express().get('etag fn') as (body: string, encoding: string) => string;
    for (const json of ['{"a":1}', JSON.stringify({ name: 'naïve ſcarf €5 🏈' }), '', 'x'.repeat(5000)])
      expect(weakEtagOf(json)).toBe(expressEtag(json, 'utf8'));
    expect(CART_CONTENT_TYPE).toBe('application/json; charset=utf-8');
  });

  it('tells a plain guest cart from anything the cart service would not have written', () => {
    expect(isPlainGuestCart(cart([line(), line({ productId: id(2), size: '', color: 'Green', quantity: 99 })]))).toBe(
      true,
    );
    expect(isPlainGuestCart(cart([]))).toBe(true);
    expect(isPlainGuestCart(cart([], { cartId: undefined }))).toBe(true);
    const odd: unknown[] = [
      null,
      [],
      'cart',
      cart([], { _id: 'x' }),
      cart([], { cartId: 5 }),
      cart([], { createdAt: 5 }),
      cart([], { updatedAt: undefined }),
      { ...(cart([]) as object), lines: {} },
      cart([null]),
      cart([line({ productId: id(1).toUpperCase() })]),
      cart([line({ productId: 'abc' })]),
      cart([line({ size: 5 })]),
      cart([line({ color: null })]),
      cart([line({ quantity: 0 })]),
      cart([line({ quantity: 100 })]),
      cart([line({ quantity: 1.5 })]),
      cart([line({ quantity: '2' })]),
    ];
    for (const value of odd) expect([value, isPlainGuestCart(value)]).toEqual([value, false]);
    expect(() => parseStoredCart('{"lines":')).toThrow(SyntaxError);
    // As read from Redis by another reader: none, the cart, or undefined (leave it to the cart service).
    expect(plainStoredGuestCart(null)).toBeNull();
    expect(plainStoredGuestCart(JSON.stringify(cart([line()])))).toEqual(cart([line()]));
    for (const raw of ['{"lines":', '[]', '', JSON.stringify(cart([line({ quantity: 0 })]))])
      expect(plainStoredGuestCart(raw)).toBeUndefined();
  });

  it('takes only a query that is just a well-formed guestId', () => {
    expect(plainGuestReadId('guestId=guest_123')).toBe('guest_123');
    for (const query of [
      '',
      'guestId=',
      'guestId=nope',
      'guestId=guest_1&x=1',
      'x=1&guestId=guest_1',
      'guestid=guest_1',
    ])
      expect(plainGuestReadId(query)).toBeUndefined();
  });

  it('prices lines from the products given, in pence, and leaves out a product it is not given', () => {
    const stored = cart([line(), line({ productId: id(2), quantity: 3 }), line({ productId: id(3) })]) as StoredCart;
    const products = new Map([
      [id(1), { name: 'Jersey', image: '/a.svg', pricePence: 1999 }],
      [id(2), { name: 'Cap', image: '', pricePence: 10 }],
    ]);
    const json = pricedCart({ kind: 'guest', id: 'guest_1' }, stored, (p) => products.get(p));
    expect(JSON.stringify(json)).toBe(
      JSON.stringify({
        guestId: 'guest_1',
        products: [
          { productId: id(1), name: 'Jersey', image: '/a.svg', price: 19.99, quantity: 2, size: 'M', color: '' },
          { productId: id(2), name: 'Cap', image: '', price: 0.1, quantity: 3, size: 'M', color: '' },
        ],
        totalPrice: 40.28,
        createdAt: '2026-11-25T10:00:00.000Z',
        updatedAt: '2026-11-25T10:01:00.000Z',
      }),
    );
    expect(pricedCart({ kind: 'guest', id: 'guest_1' }, null, () => undefined)).toEqual({
      guestId: 'guest_1',
      products: [],
      totalPrice: 0,
    });
  });

  it("reads a product's name, first image and price from its public JSON as the catalog's price answer has them", () => {
    const json = { name: 'Jersey', images: [{ url: 'http://x/uploads/a.svg', altText: '' }, { url: '/b' }] };
    expect(cartProductOfProductJson(json, 2500)).toEqual({
      name: 'Jersey',
      image: 'http://x/uploads/a.svg',
      pricePence: 2500,
    });
    expect(cartProductOfProductJson({ name: 'Cap', images: [] }, 0)).toEqual({ name: 'Cap', image: '', pricePence: 0 });
    for (const [odd, pence] of [
      [json, undefined],
      [json, 12.5],
      [json, -1],
      [{ images: [] }, 1],
      [{ name: 'x' }, 1],
      [{ name: 'x', images: [{}] }, 1],
      [{ name: 'x', images: [null] }, 1],
      [null, 1],
    ] as const)
      expect(cartProductOfProductJson(odd, pence)).toBeUndefined();
    expect(
      cartProductOfPricedLine({
        productId: id(1),
        quantity: 1,
        ok: true,
        name: 'Jersey',
        image: '/a',
        unitPricePence: 5,
      }),
    ).toEqual({ name: 'Jersey', image: '/a', pricePence: 5 });
  });
});
