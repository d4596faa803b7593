import { useNavigate } from 'react-router-dom';
import { useAppSelector } from '@/app/hooks';
import { Drawer } from '@/components/Drawer';
import { Price } from '@/components/Price';
import { CartContents } from './CartContents';

/** SPEC §2: the lines, the total, the note, and Checkout (signed in → /checkout, else /login?redirect=checkout). */
export function CartDrawer({ open, onClose }: { open: boolean; onClose: () => void }) {
  const navigate = useNavigate();
  const cart = useAppSelector((s) => s.cart.cart);
  const user = useAppSelector((s) => s.auth.user);
  const hasItems = cart.products.length > 0;

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
