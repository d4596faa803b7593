import { CART_MESSAGES, MAX_CART_LINES } from '@shop/contracts';
import {
  emptyCart,
  isRefusal,
  newCart,
  optionProblem,
  quantityProblem,
  withLineAdded,
  type LineKey,
} from './cart-lines';
import type { StoredCart } from './stored-cart';

const id = (n: number) => n.toString(16).padStart(24, 'a');
const jersey = { name: 'Jersey', sizes: ['S', 'M'], colors: ['Green'], countInStock: 5 };
const cap = { name: 'Cap', sizes: [], colors: [], countInStock: 200 };
const key = (over: Partial<LineKey> = {}): LineKey => ({ productId: id(1), size: 'M', color: 'Green', ...over });
const cartOf = (lines: StoredCart['lines']): StoredCart => ({ ...emptyCart(new Date(0)), lines });

describe('the rules of a cart line', () => {
  it('checks a size and colour against what the product offers', () => {
    expect(optionProblem(jersey, key())).toBeUndefined();
    expect(optionProblem(jersey, key({ size: 'XL' }))).toBe('Size XL is not offered for Jersey');
    expect(optionProblem(jersey, key({ size: '' }))).toBe('Please select a size');
    expect(optionProblem(jersey, key({ color: 'Red' }))).toBe('Color Red is not offered for Jersey');
    expect(optionProblem(jersey, key({ color: '' }))).toBe('Please select a color');
    expect(optionProblem(cap, key({ size: '', color: '' }))).toBeUndefined();
    expect(optionProblem(cap, key({ color: '' }))).toBe('Size M is not offered for Cap');
  });

  it('refuses more than 99 of one line (400) and more than the stock (409)', () => {
    expect(quantityProblem(5, jersey)).toBeUndefined();
    expect(quantityProblem(6, jersey)).toEqual({ status: 409, message: 'Only 5 left in stock' });
    expect(quantityProblem(1, { ...jersey, countInStock: 0 })).toEqual({
      status: 409,
      message: 'This item is out of stock',
    });
    expect(quantityProblem(100, cap)).toEqual({
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
    expect(one.lines).toEqual([{ ...key(), quantity: 2 }]); // the cart given is left as it was

    const full = cartOf(Array.from({ length: MAX_CART_LINES }, (_, n) => ({ ...key({ size: `S${n}` }), quantity: 1 })));
    expect(withLineAdded(full, key(), 1, cap)).toEqual({ status: 400, message: CART_MESSAGES.tooManyLines });
    expect(isRefusal(withLineAdded(full, key({ size: 'S0' }), 1, cap))).toBe(false); // a line it has: fine
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
