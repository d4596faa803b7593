import { lazy, Suspense, useSyncExternalStore } from 'react';
import { toasterState } from '@/lib/notify';

const LazyToaster = lazy(() => import('./ShopToaster'));

/** Mounts sonner's Toaster the first time a toast is asked for. */
export function ToasterHost() {
  const wanted = useSyncExternalStore(toasterState.subscribe, toasterState.wanted, toasterState.wanted);
  if (!wanted) return null;
  return (
    <Suspense fallback={null}>
      <LazyToaster />
    </Suspense>
  );
}
