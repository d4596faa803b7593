import { toPounds, type CartJson, type CartLineJson, type PricedLine } from '@shop/contracts';
import type { CartOwner, StoredCart } from './stored-cart';

/** What pricing a line needs of its product: the catalogue's current name, first image and price. */
export interface CartProduct {
  name: string;
  image: string;
  pricePence: number;
}

/**
 * A product as the cart prices it, from the catalog's answer to `catalog.products.price`: the stored name, the first
 * image's public URL ('' without one), the stored price in pence.
 */
export function cartProductOfPricedLine(line: PricedLine): CartProduct {
  return { name: line.name ?? '', image: line.image ?? '', pricePence: line.unitPricePence ?? 0 };
}

/**
 * The cart as the API shows it (API.md "Cart"): each line with its product's current name, image and price, the
 * total summed in pence. A line whose product `productOf` does not give (a product no longer sold) is left out.
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
