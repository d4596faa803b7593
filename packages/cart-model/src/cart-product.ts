import type { PricedLine } from '@shop/contracts';
import type { LineProduct } from './cart-lines';
import type { CartProduct } from './priced-cart';

/**
 * A product as the cart prices it, from the catalog's answer to `catalog.products.price` (the cart service's source):
 * the stored name, the first image's public URL ('' without one), the stored price in pence.
 */
export function cartProductOfPricedLine(line: PricedLine): CartProduct {
  return { name: line.name ?? '', image: line.image ?? '', pricePence: line.unitPricePence ?? 0 };
}

/**
 * The same product from its public JSON (GET /api/products/:id, as the catalogue read model holds it: the gateway's
 * source) and its stored price in pence: `name` is the stored name and `images[0].url` the first image's public URL,
 * as the catalog writes both answers. Undefined when the JSON is not plainly that (a missing or odd name, price or
 * image), so that a reader of the JSON never prices a product otherwise than the catalog's answer would.
 */
export function cartProductOfProductJson(json: unknown, pricePence: unknown): CartProduct | undefined {
  if (typeof pricePence !== 'number' || !Number.isSafeInteger(pricePence) || pricePence < 0) return undefined;
  if (json === null || typeof json !== 'object') return undefined;
  const { name, images } = json as { name?: unknown; images?: unknown };
  if (typeof name !== 'string' || !Array.isArray(images)) return undefined;
  if (!images.length) return { name, image: '', pricePence };
  const url = (images[0] as { url?: unknown } | null)?.url;
  return typeof url === 'string' ? { name, image: url, pricePence } : undefined;
}

const isTextList = (value: unknown): value is string[] =>
  Array.isArray(value) && value.every((item) => typeof item === 'string');

/**
 * A product's options and stock from its public JSON (as the catalogue read model holds it), as the rules of a line
 * need them: the catalog writes `name`, `sizes`, `colors` and `countInStock` from the same stored fields as its
 * price answer. Undefined when the JSON is not plainly that.
 */
export function lineProductOfProductJson(json: unknown): LineProduct | undefined {
  if (json === null || typeof json !== 'object') return undefined;
  const { name, sizes, colors, countInStock } = json as Record<string, unknown>;
  if (typeof name !== 'string' || !isTextList(sizes) || !isTextList(colors)) return undefined;
  if (typeof countInStock !== 'number' || !Number.isSafeInteger(countInStock)) return undefined;
  return { name, sizes, colors, countInStock };
}
