// A cart line whose variant has less stock now than its quantity (issue 22): said so where the line shows (the
// drawer, checkout), with a button that lowers it to what is left, or removes it when nothing is.
import { CART_MESSAGES, type CartLineJson } from '@shop/contracts';
import { useAppDispatch, useAppSelector } from '@/app/hooks';
import { announce } from '@/components/Announcer';
import { notify } from '@/lib/notify';
import { cartSummary } from './cartSummary';
import { CART_TOAST, lineKey, removeFromCart, updateCartItemQuantity } from './cartSlice';

/** Units of the line's variant left when fewer than its quantity; null when it can be bought as it is. */
export function shortfall(line: CartLineJson): number | null {
  if (typeof line.countInStock !== 'number' || line.countInStock >= line.quantity) return null;
  return Math.max(0, line.countInStock);
}

/** True when some line asks for more than its variant has. */
export const hasShortfall = (lines: CartLineJson[]) => lines.some((line) => shortfall(line) !== null);

/** A line as a screen reader hears it named: "Packers Cap, size M, Red". */
const lineName = (line: Pick<CartLineJson, 'name' | 'size' | 'color'>) =>
  [line.name, line.size && `size ${line.size}`, line.color].filter(Boolean).join(', ');

/**
 * The cart's line changes through the cart thunks, for the cart's owner. Each outcome is said in the live region
 * (the line's new quantity or its removal, with the cart's total; a refusal such as "Only 2 left in stock"), and a
 * refusal shows the server's message as a toast too.
 */
export function useCartLineActions() {
  const dispatch = useAppDispatch();
  const busyLine = useAppSelector((s) => s.cart.busyLine);
  const { user, guestId } = useAppSelector((s) => s.auth);
  const owner = { userId: user?._id, guestId };

  const setQuantity = async (line: CartLineJson, quantity: number) => {
    const result = await dispatch(
      updateCartItemQuantity({ ...owner, productId: line.productId, size: line.size, color: line.color, quantity }),
    );
    if (updateCartItemQuantity.fulfilled.match(result))
      announce(`${lineName(line)}: quantity ${quantity}. ${cartSummary(result.payload)}`);
    else if (result.payload) {
      announce(result.payload);
      notify.error(result.payload, CART_TOAST);
    }
  };

  const remove = async (line: CartLineJson) => {
    const result = await dispatch(
      removeFromCart({ ...owner, productId: line.productId, size: line.size, color: line.color }),
    );
    if (removeFromCart.fulfilled.match(result))
      announce(`${lineName(line)} removed from the cart. ${cartSummary(result.payload)}`);
    else if (result.payload) {
      announce(result.payload);
      notify.error(result.payload, CART_TOAST);
    }
  };

  return { busyLine, setQuantity, remove };
}

/** "Only N left in stock" / "This item is out of stock", and the button that lowers or removes the line. */
export function LineStockWarning({ line }: { line: CartLineJson }) {
  const { busyLine, setQuantity, remove } = useCartLineActions();
  const left = shortfall(line);
  if (left === null) return null;
  const busy = busyLine === lineKey(line);
  return (
    <div
      className="mt-2 flex flex-wrap items-center gap-2 rounded border border-amber-300 bg-amber-50 px-2 py-1.5 text-sm text-amber-900"
      data-testid="line-stock-warning"
    >
      <p>{CART_MESSAGES.onlyLeft(left)}</p>
      <button
        type="button"
        onClick={() => void (left > 0 ? setQuantity(line, left) : remove(line))}
        disabled={busy}
        aria-label={left > 0 ? `Lower ${line.name} to ${left}` : `Remove ${line.name}, out of stock`}
        className="rounded border border-amber-400 bg-white px-2 py-0.5 font-semibold hover:bg-amber-100 disabled:opacity-50"
      >
        {left > 0 ? `Lower to ${left}` : 'Remove it'}
      </button>
    </div>
  );
}
