import { Suspense } from 'react';
import { PageLoading } from '@/components/layout/Layout';
import { RequireAdmin, RequireAuth } from '@/features/auth/guards';
import { lazyPage } from '@/lib/lazyPage';

// The routes behind a guard (src/router.tsx loads this module when one of them is visited): the guards are no first
// route's code (issue 27). Each guard decides before its page's chunk loads, as it did from the router: a guest sent
// from /profile to /login, or a customer from /admin, does not load the page they may not see.
const ProfilePage = lazyPage(() => import('@/pages/ProfilePage'));
// The admin area (its layout, pages, slices and chart) loads only when an admin opens it.
const AdminArea = lazyPage(() => import('@/pages/admin/AdminArea'));

/** /profile: signed-in customers only (docs/product.md#profile). */
export function ProfileRoute() {
  return (
    <RequireAuth>
      <ProfilePage />
    </RequireAuth>
  );
}

/** /admin/*: admins only (docs/product.md#roles), in the admin area's own layout. */
export function AdminRoute() {
  return (
    <RequireAdmin>
      <Suspense fallback={<PageLoading />}>
        <AdminArea />
      </Suspense>
    </RequireAdmin>
  );
}
