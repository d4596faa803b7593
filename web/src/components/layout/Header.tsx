import { lazy, Suspense, useCallback, useState } from 'react';
import { Link, NavLink } from 'react-router-dom';
import { useAppSelector } from '@/app/hooks';
import { LazyDrawer, loadDrawer } from '@/components/LazyDrawer';
import { IconBag, IconHeart, IconMenu, IconUser } from '@/components/icons';
import { selectCartCount } from '@/features/cart/cartSlice';
import { reloadForNewBuild } from '@/lib/reload';
import { SHOP_LINKS, STORE_NAME } from '@/lib/shop';
import { SearchBar } from './SearchBar';
import { Topbar } from './Topbar';

export function StoreName({ className = '' }: { className?: string }) {
  return (
    <span className={`font-extrabold tracking-tight ${className}`} data-testid="store-name">
      Gridiron <span className="text-accent">Store</span>
    </span>
  );
}

const MENU_ID = 'mobile-menu';

/**
 * The cart drawer's code (its lines, quantity buttons and stock warnings) is loaded when the shopper heads for the
 * cart button (pointer over it, or keyboard focus on it), not with every first page: a page shows without it
 * (issue 27: first-route JS). A chunk a deploy has removed reloads the page into the new build.
 */
const loadCartDrawer = () => import('@/features/cart/CartDrawer').catch((error: unknown) => reloadForNewBuild(error));
const CartDrawer = lazy(() => loadCartDrawer().then((m) => ({ default: m.CartDrawer })));

/**
 * Store name; Men, Women, Equipment, Accessories; Admin (admins only); profile; wishlist with its count; cart badge;
 * search; mobile menu (docs/product.md#header).
 */
export function Header() {
  const user = useAppSelector((s) => s.auth.user);
  const count = useAppSelector(selectCartCount);
  // the wishlist's slice joins the store once its code has loaded (Layout): 0 until then
  const saved = useAppSelector((s) => s.wishlist?.ids.length ?? 0);
  const [cartOpen, setCartOpen] = useState(false);
  // mounted from its first opening on (then kept, so that it closes as it always did)
  const [cartUsed, setCartUsed] = useState(false);
  const [menuOpen, setMenuOpen] = useState(false);
  const closeCart = useCallback(() => setCartOpen(false), []);
  const closeMenu = useCallback(() => setMenuOpen(false), []);
  const isAdmin = user?.role === 'admin';

  return (
    <header className="border-b border-gray-200 bg-white">
      <Topbar />
      <nav aria-label="Main" className="relative mx-auto flex h-16 max-w-7xl items-center justify-between px-4">
        <Link to="/" className="text-2xl" aria-label={`${STORE_NAME} home`}>
          <StoreName />
        </Link>
        <ul className="hidden items-center gap-6 md:flex">
          {SHOP_LINKS.map((link) => (
            <li key={link.label}>
              <NavLink
                to={link.to}
                className="text-sm font-semibold tracking-wide text-gray-700 uppercase hover:text-black"
              >
                {link.label}
              </NavLink>
            </li>
          ))}
        </ul>
        <div className="flex items-center gap-1 sm:gap-2">
          {isAdmin && (
            <Link
              to="/admin"
              className="mr-1 hidden rounded bg-black px-2 py-1 text-sm font-semibold text-white sm:block"
            >
              Admin
            </Link>
          )}
          <Link
            to={user ? '/profile' : '/login'}
            className="rounded p-2 text-gray-700 hover:bg-gray-100 hover:text-black"
            aria-label={user ? `My profile (${user.name})` : 'Log in'}
          >
            <IconUser className="h-6 w-6" />
          </Link>
          <Link
            to="/wishlist"
            className="relative rounded p-2 text-gray-700 hover:bg-gray-100 hover:text-black"
            aria-label={`Wishlist, ${saved} ${saved === 1 ? 'item' : 'items'}`}
            data-testid="wishlist-link"
          >
            <IconHeart className="h-6 w-6" />
            {saved > 0 && (
              <span
                className="absolute -top-0.5 -right-0.5 min-w-5 rounded-full bg-gray-900 px-1 text-center text-xs leading-5 font-bold text-white"
                data-testid="wishlist-badge"
                aria-hidden="true"
              >
                {saved > 99 ? '99+' : saved}
              </span>
            )}
          </Link>
          <button
            type="button"
            onClick={() => {
              setCartUsed(true);
              setCartOpen(true);
            }}
            onPointerEnter={() => void loadCartDrawer()}
            onFocus={() => void loadCartDrawer()}
            className="relative rounded p-2 text-gray-700 hover:bg-gray-100 hover:text-black"
            aria-label={`Cart, ${count} ${count === 1 ? 'item' : 'items'}`}
            aria-haspopup="dialog"
            data-testid="cart-button"
          >
            <IconBag className="h-6 w-6" />
            {count > 0 && (
              <span
                className="bg-accent absolute -top-0.5 -right-0.5 min-w-5 rounded-full px-1 text-center text-xs leading-5 font-bold text-white"
                data-testid="cart-badge"
                aria-hidden="true"
              >
                {count > 99 ? '99+' : count}
              </span>
            )}
          </button>
          <SearchBar />
          <button
            type="button"
            onClick={() => setMenuOpen(true)}
            onPointerEnter={() => void loadDrawer()}
            onFocus={() => void loadDrawer()}
            className="rounded p-2 text-gray-700 hover:bg-gray-100 md:hidden"
            aria-label="Open menu"
            aria-haspopup="dialog"
            aria-expanded={menuOpen}
            aria-controls={MENU_ID}
          >
            <IconMenu className="h-6 w-6" />
          </button>
        </div>
      </nav>
      {cartUsed && (
        <Suspense fallback={null}>
          <CartDrawer open={cartOpen} onClose={closeCart} />
        </Suspense>
      )}
      <LazyDrawer open={menuOpen} onClose={closeMenu} title="Menu" side="left" id={MENU_ID}>
        <nav aria-label="Mobile">
          <ul className="space-y-1 p-4">
            {SHOP_LINKS.map((link) => (
              <li key={link.label}>
                <Link
                  to={link.to}
                  onClick={closeMenu}
                  className="block rounded px-3 py-3 text-lg font-medium hover:bg-gray-100"
                >
                  {link.label}
                </Link>
              </li>
            ))}
            <li>
              <Link
                to={user ? '/profile' : '/login'}
                onClick={closeMenu}
                className="block rounded px-3 py-3 text-lg font-medium hover:bg-gray-100"
              >
                {user ? 'My profile' : 'Log in'}
              </Link>
            </li>
            {isAdmin && (
              <li>
                <Link
                  to="/admin"
                  onClick={closeMenu}
                  className="block rounded px-3 py-3 text-lg font-medium hover:bg-gray-100"
                >
                  Admin
                </Link>
              </li>
            )}
          </ul>
        </nav>
      </LazyDrawer>
    </header>
  );
}
