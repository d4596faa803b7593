import { Link, NavLink, useNavigate } from 'react-router-dom';
import { useAppDispatch, useAppSelector } from '@/app/hooks';
import { StoreName } from '@/components/layout/Header';
import { logout } from '@/features/auth/authSlice';

/** The admin sidebar's links (docs/product.md#admin-area). */
export const ADMIN_LINKS = [
  { label: 'Users', to: '/admin/users' },
  { label: 'Products', to: '/admin/products' },
  { label: 'Orders', to: '/admin/orders' },
  { label: 'Returns', to: '/admin/returns' },
  { label: 'Discounts', to: '/admin/discounts' },
] as const;

const item = 'flex items-center rounded-lg px-4 py-2.5 font-medium';

/** The sidebar's content (on phones it shows in a drawer): the dashboard link, Users, Products, Orders, Returns, Discounts, Shop, Logout. */
export function AdminSidebar({ onNavigate }: { onNavigate?: () => void }) {
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const user = useAppSelector((s) => s.auth.user);

  const signOut = () => {
    onNavigate?.();
    navigate('/');
    dispatch(logout()); // user and token cleared, new guest id, cart emptied (docs/product.md#signing-in-and-out)
  };

  return (
    <div className="flex h-full flex-col bg-gray-900 p-6 text-white">
      <Link to="/admin" onClick={onNavigate} className="mb-8 block rounded">
        <StoreName className="text-2xl" />
        <span className="mt-1 block text-sm font-semibold tracking-wide text-gray-300 uppercase">Admin Dashboard</span>
      </Link>
      <nav aria-label="Admin" className="flex-1">
        <ul className="space-y-1">
          {ADMIN_LINKS.map((link) => (
            <li key={link.to}>
              <NavLink
                to={link.to}
                onClick={onNavigate}
                className={({ isActive }) =>
                  `${item} ${isActive ? 'bg-gray-700 text-white' : 'text-gray-200 hover:bg-gray-800 hover:text-white'}`
                }
              >
                {link.label}
              </NavLink>
            </li>
          ))}
          <li>
            <Link to="/" onClick={onNavigate} className={`${item} text-gray-200 hover:bg-gray-800 hover:text-white`}>
              Shop
            </Link>
          </li>
        </ul>
      </nav>
      <div className="mt-8 border-t border-gray-700 pt-6">
        {user && (
          <p className="mb-3 truncate text-sm text-gray-300" title={user.email}>
            Signed in as <span className="font-semibold text-white">{user.name}</span>
          </p>
        )}
        <button
          type="button"
          onClick={signOut}
          className="w-full rounded-lg bg-red-600 px-4 py-2 font-semibold text-white hover:bg-red-700"
        >
          Logout
        </button>
      </div>
    </div>
  );
}
