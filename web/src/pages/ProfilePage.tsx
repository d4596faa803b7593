import { useNavigate } from 'react-router-dom';
import { useAppDispatch, useAppSelector } from '@/app/hooks';
import { logout } from '@/features/auth/authSlice';
import { MyOrdersTable } from '@/features/orders/MyOrdersTable';
import { usePageMeta } from '@/lib/usePageMeta';

/** Name, email, Logout, and the My Orders table; the route guard sends guests to /login (docs/product.md#profile). */
export default function ProfilePage() {
  usePageMeta('My profile');
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const user = useAppSelector((s) => s.auth.user);
  if (!user) return null;

  const signOut = () => {
    dispatch(logout()); // clears user and token, new guest id, empty cart (docs/product.md#signing-in-and-out)
    navigate('/login');
  };

  return (
    <div className="mx-auto flex max-w-7xl flex-col gap-8 px-4 py-10 md:flex-row">
      <section className="h-fit rounded-lg border border-gray-200 p-6 shadow-sm md:w-1/3 lg:w-1/4">
        <h1 className="mb-2 text-2xl font-bold break-words">{user.name}</h1>
        <p className="mb-6 break-words text-gray-600">{user.email}</p>
        <button
          type="button"
          onClick={signOut}
          className="w-full rounded-lg bg-red-600 px-4 py-2 font-semibold text-white hover:bg-red-700"
        >
          Logout
        </button>
      </section>
      <section className="min-w-0 flex-1" aria-labelledby="my-orders">
        <h2 id="my-orders" className="mb-4 text-xl font-bold">
          My Orders
        </h2>
        <MyOrdersTable />
      </section>
    </div>
  );
}
