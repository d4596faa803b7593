import { CART_MESSAGES, MAX_CART_LINES } from '@shop/contracts';
import {
  emptyCart,
  isRefusal,
  newCart,
  optionProblem,
  quantityProblem,
  stockOf,
  withLineAdded,
  type LineKey,
} from './cart-lines';
import type { StoredCart } from './stored-cart';

const id = (n: number) => n.toString(16).padStart(24, 'a');
const variant = (size: string | null, color: string | null, countInStock: number) => ({
  sku: `J-${size}-${color}`,
  size,
  color,
  countInStock,
});
const jersey = {
  name: 'Jersey',
  sizes: ['S', 'M'],
  colors: ['Green'],
  variants: [variant('S', 'Green', 1), variant('M', 'Green', 5)],
};
const cap = { name: 'Cap', sizes: [], colors: [], variants: [variant(null, null, 200)] };
const key = (over: Partial<LineKey> = {}): LineKey => ({ productId: id(1), size: 'M', color: 'Green', ...over });
const cartOf = (lines: StoredCart['lines']): StoredCart => ({ ...emptyCart(new Date(0)), lines });

describe('the rules of a cart line', () => {
  it('checks a size and colour against what the product offers', () => {
    expect(optionProblem(jersey, key())).toBeUndefined();
    expect(optionProblem(jersey, key({ size: 'XL' }))).toBe('Size XL is not offered for Jersey');
    expect(optionProblem(jersey, key({ size: '' }))).toBe('Please choose a size of Jersey');
    expect(optionProblem(jersey, key({ color: 'Red' }))).toBe('Color Red is not offered for Jersey');
    expect(optionProblem(jersey, key({ color: '' }))).toBe('Please choose a color of Jersey');
    expect(optionProblem(cap, key({ size: '', color: '' }))).toBeUndefined();
    expect(optionProblem(cap, key({ color: '' }))).toBe('Size M is not offered for Cap');
  });

  it("reads a line's stock from its variant: '' is no size or colour, a variant the product lacks has none", () => {
    expect(stockOf(jersey, key())).toBe(5);
    expect(stockOf(jersey, key({ size: 'S' }))).toBe(1);
    expect(stockOf(jersey, key({ size: 'XL' }))).toBe(0);
    expect(stockOf(cap, key({ size: '', color: '' }))).toBe(200);
  });

  it('refuses more than 99 of one line (400) and more than its variant has (409)', () => {
    expect(quantityProblem(5, 5)).toBeUndefined();
    expect(quantityProblem(6, 5)).toEqual({ status: 409, message: 'Only 5 left in stock' });
    expect(quantityProblem(1, 0)).toEqual({
      status: 409,
      message: 'This item is out of stock',
    });
    expect(quantityProblem(100, 200)).toEqual({
      status: 400,
      message: 'You can have at most 99 of one item in your cart',
    });
  });

  it('adds to the same line, makes a new one for another size, and refuses past the stock or the line limit', () => {
    const one = withLineAdded(cartOf([]), key(), 2, jersey) as StoredCart;
    expect(one.lines).toEqual([{ ...key(), quantity: 2 }]);
    const more = withLineAdded(one, key(), 3, jersey) as StoredCart;
    expect(more.lines).toEqual([{ ...key(), quantity: 5 }]);
    expect(withLineAdded(more, key(), 1, jersey)).toEqual({ status: 409, message: 'Only 5 left in stock' });
    const two = withLineAdded(more, key({ size: 'S' }), 1, jersey) as StoredCart;
    expect(two.lines).toEqual([
      { ...key(), quantity: 5 },
      { ...key({ size: 'S' }), quantity: 1 },
    ]);
    // the Small has one unit: its own stock, not the Medium's or the product's
    expect(withLineAdded(two, key({ size: 'S' }), 1, jersey)).toEqual({ status: 409, message: 'Only 1 left in stock' });
    expect(one.lines).toEqual([{ ...key(), quantity: 2 }]); // the cart given is left as it was

    const full = cartOf(Array.from({ length: MAX_CART_LINES }, (_, n) => ({ ...key({ size: `S${n}` }), quantity: 1 })));
    const many = {
      ...cap,
      variants: [variant('M', 'Green', 200), ...full.lines.map((l) => variant(l.size, l.color, 200))],
    };
    expect(withLineAdded(full, key(), 1, many)).toEqual({ status: 400, message: CART_MESSAGES.tooManyLines });
    expect(isRefusal(withLineAdded(full, key({ size: 'S0' }), 1, many))).toBe(false); // a line it has: fine
  });

  it("gives a guest's new cart a random id, and a user's none", () => {
    const a = newCart({ kind: 'guest', id: 'guest_1' });
    const b = newCart({ kind: 'guest', id: 'guest_1' });
    expect(a.cartId).toMatch(/^[0-9a-f-]{36}$/);
    expect(a.cartId).not.toBe(b.cartId);
    expect(newCart({ kind: 'user', id: id(9) }).cartId).toBeUndefined();
    expect(Object.keys(a)).toEqual(['lines', 'mergedCarts', 'appliedOrders', 'createdAt', 'updatedAt', 'cartId']);
  });
});
