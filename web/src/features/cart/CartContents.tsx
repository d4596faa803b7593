import { MAX_CART_LINE_QUANTITY, type CartLineJson } from '@shop/contracts';
import { useAppSelector } from '@/app/hooks';
import { Price } from '@/components/Price';
import { IconTrash } from '@/components/icons';
import { lineKey } from './cartSlice';
import { LineStockWarning, useCartLineActions } from './lineStock';

export { CART_TOAST } from './cartSlice';

/** Most units the + button asks for: the variant's stock when the cart knows it, and never above 99. */
const maxQuantity = (line: CartLineJson) =>
  Math.min(MAX_CART_LINE_QUANTITY, typeof line.countInStock === 'number' ? line.countInStock : Infinity);

/**
 * The cart's lines: image, name, size, colour, price, − / + (a change below 1 is ignored), remove; a line whose
 * variant has less stock now than its quantity says so and offers to lower it (LineStockWarning).
 */
export function CartContents() {
  const cart = useAppSelector((s) => s.cart.cart);
  const { busyLine, setQuantity, remove } = useCartLineActions();

  const changeQuantity = async (line: CartLineJson, delta: number) => {
    const quantity = line.quantity + delta;
    if (quantity < 1 || quantity > MAX_CART_LINE_QUANTITY) return; // removal needs the remove icon
    await setQuantity(line, quantity);
  };

  if (!cart.products.length) return <p className="p-4 text-gray-600">Your cart is empty.</p>;

  return (
    <ul className="divide-y divide-gray-200" data-testid="cart-lines">
      {cart.products.map((line) => {
        const key = lineKey(line);
        const busy = busyLine === key;
        const details = [line.size && `Size: ${line.size}`, line.color && `Color: ${line.color}`]
          .filter(Boolean)
          .join(' | ');
        return (
          <li key={key} className="flex gap-4 p-4" data-testid="cart-line" aria-busy={busy}>
            <img
              src={line.image}
              alt={line.name}
              width={80}
              height={96}
              loading="lazy"
              className="h-24 w-20 shrink-0 rounded bg-gray-100 object-cover"
            />
            <div className="flex min-w-0 flex-1 flex-col">
              <div className="flex items-start justify-between gap-2">
                <h3 className="text-sm font-medium">{line.name}</h3>
                <Price value={line.price * line.quantity} className="text-sm font-semibold whitespace-nowrap" />
              </div>
              {details && <p className="text-sm text-gray-600">{details}</p>}
              {line.quantity > 1 && (
                <p className="text-xs text-gray-600">
                  <Price value={line.price} /> each
                </p>
              )}
              <LineStockWarning line={line} />
              <div className="mt-auto flex items-center justify-between pt-2">
                <div className="flex items-center rounded border border-gray-300">
                  <button
                    type="button"
                    onClick={() => changeQuantity(line, -1)}
                    disabled={busy || line.quantity <= 1}
                    aria-label={`Decrease quantity of ${line.name}`}
                    className="px-3 py-1 text-lg leading-none disabled:text-gray-300"
                  >
                    −
                  </button>
                  <span className="min-w-8 text-center text-sm" aria-label={`Quantity ${line.quantity}`}>
                    {line.quantity}
                  </span>
                  <button
                    type="button"
                    onClick={() => changeQuantity(line, 1)}
                    disabled={busy || line.quantity >= maxQuantity(line)}
                    aria-label={`Increase quantity of ${line.name}`}
                    className="px-3 py-1 text-lg leading-none disabled:text-gray-300"
                  >
                    +
                  </button>
                </div>
                <button
                  type="button"
                  onClick={() => remove(line)}
                  disabled={busy}
                  aria-label={`Remove ${line.name} from cart`}
                  className="rounded p-2 text-red-600 hover:bg-red-50 disabled:opacity-50"
                >
                  <IconTrash className="h-5 w-5" />
                </button>
              </div>
            </div>
          </li>
        );
      })}
    </ul>
  );
}
