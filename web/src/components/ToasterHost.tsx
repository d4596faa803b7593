import { lazy, Suspense, useEffect, useSyncExternalStore } from 'react';
import { loadSonner, toasterState } from '@/lib/notify';

const LazyToaster = lazy(async () => {
  const { Toaster } = await loadSonner();
  function ShopToaster() {
    // effects run child first: sonner's Toaster is listening by the time this says it is mounted
    useEffect(() => {
      toasterState.mounted();
    }, []);
    return <Toaster position="top-right" visibleToasts={3} duration={4000} richColors closeButton />;
  }
  return { default: ShopToaster };
});

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
