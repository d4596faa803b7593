import { lazy, Suspense, useCallback, useEffect, useState } from 'react';
import { Link, Outlet, Route, Routes, useLocation } from 'react-router-dom';
import { Drawer } from '@/components/Drawer';
import { IconMenu } from '@/components/icons';
import { PageLoading } from '@/components/layout/Layout';
import { usePageMeta } from '@/lib/usePageMeta';
import { AdminSidebar } from '@/features/admin/AdminSidebar';

// Each admin page is its own chunk too (the dashboard's chart library loads only with its chart).
const AdminDashboardPage = lazy(() => import('./AdminDashboardPage'));
const AdminUsersPage = lazy(() => import('./AdminUsersPage'));
const AdminProductsPage = lazy(() => import('./AdminProductsPage'));
const AdminProductEditPage = lazy(() => import('./AdminProductEditPage'));
const AdminOrdersPage = lazy(() => import('./AdminOrdersPage'));
const AdminOrderPage = lazy(() => import('./AdminOrderPage'));
const AdminDiscountsPage = lazy(() => import('./AdminDiscountsPage'));
const AdminReturnsPage = lazy(() => import('./AdminReturnsPage'));

/**
 * The admin layout: a sidebar beside the page on wide screens, behind a toggle on phones (docs/product.md#admin-area).
 */
export function AdminLayout() {
  const [menuOpen, setMenuOpen] = useState(false);
  const closeMenu = useCallback(() => setMenuOpen(false), []);
  const { pathname } = useLocation();
  useEffect(() => {
    window.scrollTo(0, 0); // a new admin page starts at its top
  }, [pathname]);
  return (
    <div className="min-h-screen bg-gray-50 md:flex">
      <a
        href="#admin-main"
        className="sr-only z-50 rounded bg-white px-4 py-2 focus:not-sr-only focus:absolute focus:top-2 focus:left-2"
      >
        Skip to content
      </a>
      <header className="sticky top-0 z-30 flex items-center gap-3 bg-gray-900 px-4 py-3 text-white md:hidden">
        <button
          type="button"
          onClick={() => setMenuOpen(true)}
          className="rounded p-2 hover:bg-gray-800"
          aria-label="Open admin menu"
          aria-haspopup="dialog"
          aria-expanded={menuOpen}
        >
          <IconMenu className="h-6 w-6" />
        </button>
        <span className="text-lg font-semibold">Admin Dashboard</span>
      </header>
      <aside className="hidden w-64 shrink-0 bg-gray-900 md:block" aria-label="Admin sidebar">
        <div className="sticky top-0 h-screen overflow-y-auto">
          <AdminSidebar />
        </div>
      </aside>
      <Drawer open={menuOpen} onClose={closeMenu} title="Admin menu" side="left">
        <AdminSidebar onNavigate={closeMenu} />
      </Drawer>
      <main id="admin-main" className="min-w-0 flex-1 px-4 py-6 md:px-8 md:py-8" tabIndex={-1}>
        <Suspense fallback={<PageLoading />}>
          <Outlet />
        </Suspense>
      </main>
    </div>
  );
}

function AdminNotFound() {
  usePageMeta('Not found');
  return (
    <div className="py-12">
      <h1 className="mb-4 text-2xl font-bold">Page not found</h1>
      <p className="mb-6 text-gray-700">There is no admin page at this address.</p>
      <Link to="/admin" className="font-semibold text-blue-700 underline">
        Back to the dashboard
      </Link>
    </div>
  );
}

/** /admin and below (behind RequireAdmin in the router). */
export default function AdminArea() {
  return (
    <Routes>
      <Route element={<AdminLayout />}>
        <Route index element={<AdminDashboardPage />} />
        <Route path="users" element={<AdminUsersPage />} />
        <Route path="products" element={<AdminProductsPage />} />
        <Route path="products/new" element={<AdminProductEditPage />} />
        <Route path="products/:id/edit" element={<AdminProductEditPage />} />
        <Route path="orders" element={<AdminOrdersPage />} />
        <Route path="orders/:id" element={<AdminOrderPage />} />
        <Route path="discounts" element={<AdminDiscountsPage />} />
        <Route path="returns" element={<AdminReturnsPage />} />
        <Route path="*" element={<AdminNotFound />} />
      </Route>
    </Routes>
  );
}
