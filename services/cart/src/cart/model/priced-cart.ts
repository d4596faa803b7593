import { toPounds, type CartJson, type CartLineJson, type PricedLine, type VariantJson } from '@shop/contracts';
import { variantOf } from './cart-lines';
import type { CartOwner, StoredCart } from './stored-cart';

/** What pricing a line needs of its product: the catalogue's current name, first image, price and variants. */
export interface CartProduct {
  name: string;
  image: string;
  pricePence: number;
  variants: readonly VariantJson[];
}

/**
 * A product as the cart prices it, from the catalog's answer to `catalog.products.price`: the stored name, the first
 * image's public URL ('' without one), the stored price in pence.
 */
export function cartProductOfPricedLine(line: PricedLine): CartProduct {
  return {
    name: line.name ?? '',
    image: line.image ?? '',
    pricePence: line.unitPricePence ?? 0,
    variants: line.variants ?? [],
  };
}

/**
 * The cart as the API shows it (docs/api.md#cart): each line with its product's current name, image and price, its
 * variant's SKU and stock, the total summed in pence. A line whose product `productOf` does not give (a product no longer sold) is left out.
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
    const variant = variantOf(product, line);
    lines.push({
      productId: line.productId,
      name: product.name,
      image: product.image,
      price: toPounds(product.pricePence),
      quantity: line.quantity,
      size: line.size,
      color: line.color,
      // the variant's SKU, and its stock now: below the quantity, the shopper is told before paying
      ...(variant ? { sku: variant.sku } : {}),
      countInStock: variant?.countInStock ?? 0,
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
