import { memo, useEffect, useState, type ReactNode } from 'react';
import { notify } from '@/lib/notify';
import { MAX_CART_LINE_QUANTITY, type ProductJson } from '@shop/contracts';
import { useAppDispatch, useAppSelector } from '@/app/hooks';
import { Price } from '@/components/Price';
import { announce } from '@/components/Announcer';
import { addToCart, CART_TOAST } from '@/features/cart/cartSlice';
import { cartSummary } from '@/features/cart/cartSummary';
import { swatch } from '@/lib/colors';
import { isSoldOut, LOW_STOCK, stockFor } from './stock';
import { HIGH_PRIORITY } from '@/lib/html';

export const PICK_SIZE_AND_COLOR = 'Please select a size and color before adding to cart.';
export const ADDED_TO_CART = 'Product added to cart!';
/** What a size or colour with no stock for the current pick is called, visibly and to a screen reader. */
const SOLD_OUT_WORD = 'sold out';

interface ProductDetailsProps {
  product: ProductJson;
  /** h1 on the product page, h2 where it is a section (Best Seller on the home page). */
  headingLevel?: 1 | 2;
  /** The first image is the page's main picture (load it at once) or below the fold (lazily). */
  eagerImage?: boolean;
  /**
   * A size and colour to start with (the product page's `?size=&color=`, e.g. a back-in-stock email's link): taken
   * after the first render, so the page the server rendered hydrates as it was; a value the product does not offer is
   * ignored.
   */
  initialPick?: { size?: string | null; color?: string | null };
  /**
   * Shown under Add to cart (the product page's heart and "Email me when it's back", loaded after the page), given the
   * size and colour picked.
   */
  extras?: (pick: { size: string; color: string }) => ReactNode;
}

/**
 * Gallery, colour and size pickers, quantity, Add to cart, and the brand and material table
 * (docs/product.md#product-page). Memoised: its pages render it from a deferred value (useDeferredSelector).
 */
export const ProductDetails = memo(function ProductDetails({
  product,
  headingLevel = 1,
  eagerImage = true,
  initialPick,
  extras,
}: ProductDetailsProps) {
  const dispatch = useAppDispatch();
  const { user, guestId } = useAppSelector((s) => s.auth);
  const [imageIndex, setImageIndex] = useState(0);
  const [size, setSize] = useState('');
  const [color, setColor] = useState('');
  const [quantity, setQuantity] = useState(1);
  const [adding, setAdding] = useState(false);
  const pickSize = initialPick?.size ?? '';
  const pickColor = initialPick?.color ?? '';
  useEffect(() => {
    if (pickSize && product.sizes.includes(pickSize)) setSize(pickSize);
    if (pickColor && product.colors.includes(pickColor)) setColor(pickColor);
  }, [product, pickSize, pickColor]);

  const Heading = headingLevel === 1 ? 'h1' : 'h2';
  // one level below the product's name, so a reader's heading outline never skips a level
  const SubHeading = headingLevel === 1 ? 'h2' : 'h3';
  const image = product.images[imageIndex] ?? product.images[0];
  const needsSize = product.sizes.length > 0;
  const needsColor = product.colors.length > 0;
  const picked = (!needsSize || !!size) && (!needsColor || !!color);
  // what is left of the pick: the variant's stock once both are chosen, else the most any matching variant has
  const left = stockFor(product, { size, color });
  const soldOut = isSoldOut(product);
  const pickSoldOut = picked && left <= 0;
  const maxQuantity = Math.max(1, Math.min(left, MAX_CART_LINE_QUANTITY));
  // a pick with less stock than the quantity chosen lowers it
  const shownQuantity = Math.min(quantity, maxQuantity);
  const idPrefix = `p-${product._id}`;
  const stockNote =
    picked && left > 0 && left <= LOW_STOCK
      ? `Only ${left} left in stock`
      : pickSoldOut && !soldOut
        ? `${[size, color].filter(Boolean).join(' / ')} is sold out`
        : null;
  // a size (colour) is sold out for the colour (size) picked, or in every colour (size) while none is
  const sizeSoldOut = (s: string) => stockFor(product, { size: s, color }) <= 0;
  const colorSoldOut = (c: string) => stockFor(product, { size, color: c }) <= 0;

  const add = async () => {
    if (!picked) {
      notify.error(PICK_SIZE_AND_COLOR, CART_TOAST);
      return;
    }
    if (pickSoldOut) return;
    setAdding(true);
    const result = await dispatch(
      addToCart({ productId: product._id, quantity: shownQuantity, size, color, guestId, userId: user?._id }),
    );
    setAdding(false);
    // the toast for the eye, the live region for a screen reader (the toasts' own region may not be in the page yet)
    if (addToCart.fulfilled.match(result)) {
      notify.success(ADDED_TO_CART, CART_TOAST);
      announce(`${ADDED_TO_CART} ${cartSummary(result.payload)}`);
    } else {
      notify.error(result.payload ?? 'Failed to add to cart', CART_TOAST);
      announce(result.payload ?? 'Failed to add to cart');
    }
  };

  return (
    <div className="grid gap-8 md:grid-cols-2" data-testid="product-details">
      <div className="flex flex-col-reverse gap-4 md:flex-row">
        {product.images.length > 1 && (
          <ul className="flex gap-3 md:flex-col" aria-label="Product images">
            {product.images.map((img, i) => (
              <li key={img.url}>
                <button
                  type="button"
                  onClick={() => setImageIndex(i)}
                  aria-label={`Show image ${i + 1} of ${product.images.length}`}
                  aria-pressed={i === imageIndex}
                  className={`block overflow-hidden rounded-lg border-2 ${i === imageIndex ? 'border-black' : 'border-transparent'}`}
                >
                  <img
                    src={img.url}
                    alt=""
                    width={80}
                    height={100}
                    loading="lazy"
                    className="h-20 w-16 bg-gray-100 object-cover md:h-24 md:w-20"
                  />
                </button>
              </li>
            ))}
          </ul>
        )}
        <div className="aspect-[4/5] flex-1 overflow-hidden rounded-lg bg-gray-100">
          {image && (
            <img
              src={image.url}
              alt={image.altText || product.name}
              width={600}
              height={750}
              loading={eagerImage ? 'eager' : 'lazy'}
              {...(eagerImage ? HIGH_PRIORITY : {})}
              className="h-full w-full object-cover"
            />
          )}
        </div>
      </div>

      <div>
        <Heading className="mb-2 text-2xl font-semibold md:text-3xl">{product.name}</Heading>
        <p className="mb-4 text-xl font-semibold" data-testid="product-price">
          <Price value={product.price} original={product.originalPrice} />
        </p>
        <p className="mb-6 text-gray-700">{product.description}</p>

        <fieldset className="mb-5">
          <legend className="mb-2 text-sm font-medium text-gray-800">
            Color{color && <span className="font-normal text-gray-600">: {color}</span>}
          </legend>
          <div className="flex flex-wrap gap-2">
            {product.colors.map((c) => {
              const out = colorSoldOut(c);
              return (
                <button
                  key={c}
                  type="button"
                  onClick={() => !out && setColor(c)}
                  aria-pressed={color === c}
                  aria-disabled={out || undefined}
                  aria-label={out ? `${c}, ${SOLD_OUT_WORD}` : c}
                  title={out ? `${c}: ${SOLD_OUT_WORD}${size ? ` in ${size}` : ''}` : c}
                  className={`relative h-9 w-9 overflow-hidden rounded-full border-2 ${out ? 'cursor-not-allowed border-dashed border-gray-700' : 'border-gray-300'} ${color === c ? 'ring-2 ring-black ring-offset-2' : ''}`}
                  style={{ backgroundColor: swatch(c) }}
                  data-sold-out={out || undefined}
                >
                  {/* sold out: a bold cross-out, black edged with white, so it stands out on any colour (no fading) */}
                  {out && (
                    <span className="absolute top-1/2 left-[-20%] h-1 w-[140%] -translate-y-1/2 -rotate-45 border-y border-white bg-gray-900" />
                  )}
                </button>
              );
            })}
          </div>
        </fieldset>

        <fieldset className="mb-5">
          <legend className="mb-2 text-sm font-medium text-gray-800">Size</legend>
          <div className="flex flex-wrap gap-2">
            {product.sizes.map((s) => {
              const out = sizeSoldOut(s);
              return (
                <button
                  key={s}
                  type="button"
                  onClick={() => !out && setSize(s)}
                  aria-pressed={size === s}
                  aria-disabled={out || undefined}
                  aria-label={out ? `${s}, ${SOLD_OUT_WORD}` : undefined}
                  title={out ? `${s}: ${SOLD_OUT_WORD}${color ? ` in ${color}` : ''}` : undefined}
                  className={`min-w-12 rounded border px-4 py-2 text-sm ${
                    out
                      ? 'cursor-not-allowed border-dashed border-gray-600 bg-gray-100 text-gray-700'
                      : size === s
                        ? 'border-black bg-black text-white'
                        : 'border-gray-300 hover:border-gray-500'
                  }`}
                  data-sold-out={out || undefined}
                >
                  <span className={out ? 'line-through decoration-2' : undefined}>{s}</span>
                  {/* said by the label; shown so that sold out never rests on the strike-through alone (the space
                      keeps "M sold out" the visible text that the label "M, sold out" holds, as axe checks) */}
                  {out && ' '}
                  {out && (
                    <span className="block text-[0.625rem] leading-3 font-semibold tracking-wide uppercase">
                      sold out
                    </span>
                  )}
                </button>
              );
            })}
          </div>
        </fieldset>

        <div className="mb-6">
          <span id={`${idPrefix}-qty`} className="mb-2 block text-sm font-medium text-gray-800">
            Quantity
          </span>
          <div
            className="inline-flex items-center rounded border border-gray-300"
            role="group"
            aria-labelledby={`${idPrefix}-qty`}
          >
            <button
              type="button"
              onClick={() => setQuantity(Math.max(1, shownQuantity - 1))}
              disabled={shownQuantity <= 1}
              aria-label="Decrease quantity"
              className="px-4 py-2 text-lg disabled:text-gray-300"
            >
              −
            </button>
            <output className="min-w-10 text-center" aria-live="polite" data-testid="quantity">
              {shownQuantity}
            </output>
            <button
              type="button"
              onClick={() => setQuantity(Math.min(maxQuantity, shownQuantity + 1))}
              disabled={shownQuantity >= maxQuantity}
              aria-label="Increase quantity"
              className="px-4 py-2 text-lg disabled:text-gray-300"
            >
              +
            </button>
          </div>
          <p className="mt-2 min-h-5 text-sm text-amber-800" role="status" data-testid="stock-note">
            {stockNote}
          </p>
        </div>

        <button
          type="button"
          onClick={add}
          disabled={adding || soldOut || pickSoldOut}
          className="mb-8 w-full rounded-lg bg-black px-6 py-3 font-semibold tracking-wide text-white uppercase hover:bg-gray-800 disabled:cursor-not-allowed disabled:bg-gray-500"
        >
          {soldOut ? 'Out of stock' : pickSoldOut ? 'Sold out' : adding ? 'Adding...' : 'Add to cart'}
        </button>
        {extras?.({ size, color })}

        <SubHeading className="mb-2 text-lg font-semibold">Characteristics</SubHeading>
        <table className="w-full text-left text-sm text-gray-700">
          <tbody>
            <tr className="border-b border-gray-200">
              <th scope="row" className="py-2 pr-4 font-medium">
                Brand
              </th>
              <td className="py-2">{product.brand}</td>
            </tr>
            <tr className="border-b border-gray-200">
              <th scope="row" className="py-2 pr-4 font-medium">
                Material
              </th>
              <td className="py-2">{product.material}</td>
            </tr>
          </tbody>
        </table>
      </div>
    </div>
  );
});
