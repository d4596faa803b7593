import { MyOrdersTable } from '@/features/orders/MyOrdersTable';
import { usePageMeta } from '@/lib/usePageMeta';

export default function MyOrdersPage() {
  usePageMeta('My orders');
  return (
    <div className="mx-auto max-w-7xl px-4 py-10">
      <h1 className="mb-6 text-2xl font-bold">My Orders</h1>
      <MyOrdersTable />
    </div>
  );
}
