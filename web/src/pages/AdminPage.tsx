import { Link } from 'react-router-dom';
import { usePageMeta } from '@/lib/usePageMeta';

/** The admin area is the next issue; until then its guarded entry says so. */
export default function AdminPage() {
  usePageMeta('Admin');
  return (
    <div className="mx-auto max-w-3xl px-4 py-16 text-center">
      <h1 className="mb-4 text-2xl font-bold">Admin area</h1>
      <p className="mb-8 text-gray-600">User, product and order management is on its way.</p>
      <Link to="/" className="rounded-lg bg-black px-5 py-3 font-semibold text-white hover:bg-gray-800">
        Back to the shop
      </Link>
    </div>
  );
}
