import type { CartLineJson } from '@shop/contracts';
import { formatPrice } from '@/lib/money';

/** The cart after a change, said in a few words by the live region: "Cart: 3 items, £75.00". */
export function cartSummary(cart: { products: Pick<CartLineJson, 'quantity'>[]; totalPrice: number }): string {
  const items = cart.products.reduce((sum, line) => sum + line.quantity, 0);
  return items ? `Cart: ${items} ${items === 1 ? 'item' : 'items'}, ${formatPrice(cart.totalPrice)}` : 'Cart is empty';
}
