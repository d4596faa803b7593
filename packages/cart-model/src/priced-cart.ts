import { toPounds, type CartJson, type CartLineJson } from '@shop/contracts';
import type { CartOwner, StoredCart } from './stored-cart';

/** What pricing a line needs of its product: the catalogue's current name, first image and price. */
export interface CartProduct {
  name: string;
  image: string;
  pricePence: number;
}

/**
 * The cart as the API shows it (API.md "Cart"): each line with its product's current name, image and price, the
 * total summed in pence. A line whose product `productOf` does not give (a product no longer sold) is left out.
 * The one pricing of a cart: the cart service's answers and the gateway's guest reads are this function's.
 */
export function pricedCart(
  owner: CartOwner,
  cart: StoredCart | null,
  productOf: (productId: string) => CartProduct | null | undefined,
): CartJson {
  let totalPence = 0;
  const lines: CartLineJson[] = [];
  for (const line of cart?.lines ?? []) {
    const product = productOf(line.productId);
    if (!product) continue;
    totalPence += product.pricePence * line.quantity;
    lines.push({
      productId: line.productId,
      name: product.name,
      image: product.image,
      price: toPounds(product.pricePence),
      quantity: line.quantity,
      size: line.size,
      color: line.color,
    });
  }
  return {
    ...(cart?._id ? { _id: cart._id } : {}),
    ...(owner.kind === 'user' ? { user: owner.id } : { guestId: owner.id }),
    products: lines,
    totalPrice: toPounds(totalPence),
    ...(cart ? { createdAt: cart.createdAt, updatedAt: cart.updatedAt } : {}),
  };
}
