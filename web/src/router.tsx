import { Suspense } from 'react';
import { Route, Routes } from 'react-router-dom';
import { Layout, PageLoading } from '@/components/layout/Layout';
import { RouteError } from '@/components/RouteError';
import { lazyPage } from '@/lib/lazyPage';

// Every page is its own chunk: the first route loads only what it shows (issue 27: ≤ 100 KB of JS gzipped). A chunk
// that a deploy has removed since the tab opened reloads the page into the new build (lazyPage).
const HomePage = lazyPage(() => import('@/pages/HomePage'));
const CollectionPage = lazyPage(() => import('@/pages/CollectionPage'));
const ProductPage = lazyPage(() => import('@/pages/ProductPage'));
const LoginPage = lazyPage(() => import('@/pages/LoginPage'));
const RegisterPage = lazyPage(() => import('@/pages/RegisterPage'));
const ForgotPasswordPage = lazyPage(() => import('@/pages/ForgotPasswordPage'));
const ResetPasswordPage = lazyPage(() => import('@/pages/ResetPasswordPage'));
const CheckoutPage = lazyPage(() => import('@/pages/CheckoutPage'));
const OrderConfirmationPage = lazyPage(() => import('@/pages/OrderConfirmationPage'));
const MyOrdersPage = lazyPage(() => import('@/pages/MyOrdersPage'));
const OrderDetailsPage = lazyPage(() => import('@/pages/OrderDetailsPage'));
const WishlistPage = lazyPage(() => import('@/pages/WishlistPage'));
// in the wishlist page's chunk: alone it is small enough for the build to merge it into the one every page loads
const UnsubscribePage = lazyPage(() => import('@/pages/WishlistPage').then((m) => ({ default: m.UnsubscribePage })));
// The guarded routes (/profile, /admin) with their guards: no first route needs those (./app/guardedRoutes.tsx).
const ProfileRoute = lazyPage(() => import('@/app/guardedRoutes').then((m) => ({ default: m.ProfileRoute })));
const AdminRoute = lazyPage(() => import('@/app/guardedRoutes').then((m) => ({ default: m.AdminRoute })));

/**
 * The route table (docs/product.md#screens-and-routes). Declarative routes: the data router would add 18 KB gzipped we
 * do not use.
 */
export function AppRoutes() {
  return (
    <Routes>
      <Route path="/" element={<Layout />}>
        <Route index element={<HomePage />} />
        <Route path="login" element={<LoginPage />} />
        <Route path="register" element={<RegisterPage />} />
        <Route path="forgot-password" element={<ForgotPasswordPage />} />
        <Route path="reset-password" element={<ResetPasswordPage />} />
        <Route path="profile" element={<ProfileRoute />} />
        <Route path="collections/:collection" element={<CollectionPage />} />
        <Route path="product/:id" element={<ProductPage />} />
        {/* order and checkout pages have no client-side guard; the server decides (docs/product.md#roles) */}
        <Route path="checkout" element={<CheckoutPage />} />
        <Route path="order-confirmation" element={<OrderConfirmationPage />} />
        <Route path="order/:id" element={<OrderDetailsPage />} />
        <Route path="my-orders" element={<MyOrdersPage />} />
        <Route path="wishlist" element={<WishlistPage />} />
        <Route path="back-in-stock/unsubscribe" element={<UnsubscribePage />} />
      </Route>
      {/* the admin area has its own layout (a sidebar), not the shop's header and footer */}
      <Route
        path="/admin/*"
        element={
          <Suspense fallback={<PageLoading />}>
            <AdminRoute />
          </Suspense>
        }
      />
      <Route path="*" element={<RouteError status={404} statusText="Not Found" />} />
    </Routes>
  );
}
