/**
 * The names a public response is tagged with (its `Surrogate-Key` header) and a change purges (the words after
 * the version on the `<ns>catalog:version` channel). A cache in front of the catalog (the gateway's) drops exactly
 * the responses that share a key with a change; a change that names no key drops everything.
 */

/** A response that shows this product. */
export function productKey(id: string): string {
  return `product:${id}`;
}

/** A response whose choice or order of products depends on units sold (popularity, similar, best seller). */
export const SALES_KEY = 'sales';

/**
 * Responses showing more products than this carry no keys: a header naming them all would outgrow what HTTP
 * clients accept, and a cache then treats the response as depending on every product.
 */
export const MAX_TAGGED_PRODUCTS = 100;

export const SURROGATE_KEY_HEADER = 'Surrogate-Key';

/** The Surrogate-Key header of a response showing these products, or undefined when it shows too many to name. */
export function surrogateKeysOf(productIds: readonly string[], dependsOnSales: boolean): string | undefined {
  if (productIds.length > MAX_TAGGED_PRODUCTS) return undefined;
  const keys = productIds.map(productKey);
  if (dependsOnSales) keys.push(SALES_KEY);
  return keys.join(' ');
}
