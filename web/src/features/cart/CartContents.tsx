import { notify } from '@/lib/notify';
import { MAX_CART_LINE_QUANTITY, type CartLineJson } from '@shop/contracts';
import { useAppDispatch, useAppSelector } from '@/app/hooks';
import { Price } from '@/components/Price';
import { IconTrash } from '@/components/icons';
import { lineKey, removeFromCart, updateCartItemQuantity } from './cartSlice';

/** Cart toasts last one second (SPEC §9). */
export const CART_TOAST = { duration: 1000 } as const;

/** The cart's lines: image, name, size, colour, price, − / + (a change below 1 is ignored), remove. */
export function CartContents() {
  const dispatch = useAppDispatch();
  const { cart, busyLine } = useAppSelector((s) => s.cart);
  const { user, guestId } = useAppSelector((s) => s.auth);
  const owner = { userId: user?._id, guestId };

  const changeQuantity = async (line: CartLineJson, delta: number) => {
    const quantity = line.quantity + delta;
    if (quantity < 1 || quantity > MAX_CART_LINE_QUANTITY) return; // SPEC §5: removal needs the remove icon
    const result = await dispatch(
      updateCartItemQuantity({ ...owner, productId: line.productId, size: line.size, color: line.color, quantity }),
    );
    if (updateCartItemQuantity.rejected.match(result) && result.payload) notify.error(result.payload, CART_TOAST);
  };

  const remove = async (line: CartLineJson) => {
    const result = await dispatch(
      removeFromCart({ ...owner, productId: line.productId, size: line.size, color: line.color }),
    );
    if (removeFromCart.rejected.match(result) && result.payload) notify.error(result.payload, CART_TOAST);
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
                    disabled={busy || line.quantity >= MAX_CART_LINE_QUANTITY}
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
