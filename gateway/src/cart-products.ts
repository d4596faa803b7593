import {
  cartProductOfProductJson,
  lineProductOfProductJson,
  type CartProduct,
  type LineProduct,
} from '@shop/cart-model';
import type { CatalogueEntry } from '@shop/catalog-read-model';

/** A product of the catalogue copy as the cart prices it, and as the rules of a line check it. */
export interface CartCatalogueProduct {
  priced: CartProduct;
  line: LineProduct;
}

/**
 * The cart's view of a product in the gateway's catalogue copy (cart-guest-reads.ts, cart-guest-adds.ts), read from
 * its public JSON once per version of its bytes (a stock write gives it new bytes). Undefined for a product the copy
 * lacks, or whose JSON is not plainly what the cart service's source would give: the cart service answers then.
 */
export function cartProductsOfCatalogue(): (entry: CatalogueEntry | undefined) => CartCatalogueProduct | undefined {
  const products = new WeakMap<Buffer, CartCatalogueProduct | null>();
  return (entry) => {
    if (!entry) return undefined;
    let product = products.get(entry.body);
    if (product === undefined) {
      let json: unknown;
      try {
        json = JSON.parse(entry.body.toString('utf8'));
      } catch {
        json = undefined;
      }
      const priced = cartProductOfProductJson(json, entry.pricePence);
      const line = lineProductOfProductJson(json);
      product = priced && line ? { priced, line } : null;
      products.set(entry.body, product);
    }
    return product ?? undefined;
  };
}
