import { useEffect } from 'react';
import { useNavigate } from 'react-router-dom';
import { useAppDispatch, useAppSelector, useAppStore } from '@/app/hooks';
import { Drawer } from '@/components/Drawer';
import { Price } from '@/components/Price';
import { CartContents } from './CartContents';
import { fetchCart } from './cartSlice';
import { hasShortfall } from './lineStock';

/**
 * The lines, the total, the note, and Checkout (signed in → /checkout, else /login?redirect=checkout):
 * docs/product.md#cart-drawer.
 */
export function CartDrawer({ open, onClose }: { open: boolean; onClose: () => void }) {
  const navigate = useNavigate();
  const dispatch = useAppDispatch();
  const store = useAppStore();
  const cart = useAppSelector((s) => s.cart.cart);
  const user = useAppSelector((s) => s.auth.user);
  const hasItems = cart.products.length > 0;
  const short = hasShortfall(cart.products);

  // Opening the cart reads it again: each line's stock now, so that a line that sold out since it was added says so
  // here rather than at payment (not while another cart call is under way, whose answer is the newer one).
  useEffect(() => {
    if (!open) return;
    const { auth, cart: state } = store.getState();
    if (!state.loading) void dispatch(fetchCart({ userId: auth.user?._id, guestId: auth.guestId }));
  }, [open, dispatch, store]);

  const checkout = () => {
    onClose();
    navigate(user ? '/checkout' : '/login?redirect=checkout');
  };

  return (
    <Drawer
      open={open}
      onClose={onClose}
      title="Your Cart"
      testId="cart-drawer"
      footer={
        hasItems && (
          <>
            <div className="mb-3 flex items-center justify-between text-base font-semibold">
              <span>Total</span>
              <Price value={cart.totalPrice} />
            </div>
            {short && (
              <p className="mb-3 text-sm text-amber-900" role="status">
                Some items have less stock than you asked for: lower them to check out.
              </p>
            )}
            <button
              type="button"
              onClick={checkout}
              className="w-full rounded-lg bg-black py-3 font-semibold text-white hover:bg-gray-800"
            >
              Checkout
            </button>
            <p className="mt-2 text-center text-sm text-gray-600">
              Shipping, taxes, and discount codes calculated at checkout.
            </p>
          </>
        )
      }
    >
      <CartContents />
    </Drawer>
  );
}
