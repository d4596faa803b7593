import { cartProductOfPricedLine, pricedCart } from './priced-cart';
import type { StoredCart } from './stored-cart';

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

describe('a priced cart', () => {
  it("prices lines from the products given, in pence, with their variant's SKU and stock; leaves out a product it is not given", () => {
    const stored = cart([line(), line({ productId: id(2), quantity: 3 }), line({ productId: id(3) })]) as StoredCart;
    const products = new Map([
      [
        id(1),
        {
          name: 'Jersey',
          image: '/a.svg',
          pricePence: 1999,
          variants: [{ sku: 'J-M', size: 'M', color: null, countInStock: 1 }],
        },
      ],
      [id(2), { name: 'Cap', image: '', pricePence: 10, variants: [] }],
    ]);
    const json = pricedCart({ kind: 'guest', id: 'guest_1' }, stored, (p) => products.get(p));
    expect(JSON.stringify(json)).toBe(
      JSON.stringify({
        guestId: 'guest_1',
        products: [
          {
            productId: id(1),
            name: 'Jersey',
            image: '/a.svg',
            price: 19.99,
            quantity: 2,
            size: 'M',
            color: '',
            sku: 'J-M',
            countInStock: 1,
          },
          // a variant the product does not have (any more): no SKU, nothing in stock
          { productId: id(2), name: 'Cap', image: '', price: 0.1, quantity: 3, size: 'M', color: '', countInStock: 0 },
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

  it("reads a product's name, first image, price and variants from the catalog's price answer", () => {
    const variants = [{ sku: 'J-M', size: 'M', color: null, countInStock: 4 }];
    expect(
      cartProductOfPricedLine({
        productId: id(1),
        quantity: 1,
        ok: true,
        name: 'Jersey',
        image: '/a',
        unitPricePence: 5,
        variants,
      }),
    ).toEqual({ name: 'Jersey', image: '/a', pricePence: 5, variants });
  });
});
