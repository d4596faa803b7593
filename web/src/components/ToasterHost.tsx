import { lazy, Suspense, useEffect, useSyncExternalStore, type FocusEvent, type MouseEvent } from 'react';
import { loadSonner, toasterState } from '@/lib/notify';

/**
 * WCAG 2.2.1: a toast must wait while it is being read. sonner holds its toasts' timers while the pointer is over
 * them (it "expands" them on mousemove, collapses them on mouseleave or dragend) but not while one has keyboard
 * focus. So focus inside the toasts tells sonner what a pointer would: a mousemove holds them, a dragend lets go.
 */
function holdToasts(toaster: HTMLElement, hold: boolean) {
  const list = toaster.querySelector('[data-sonner-toaster]');
  list?.dispatchEvent(new Event(hold ? 'mousemove' : 'dragend', { bubbles: true }));
}

const holdWhileFocused = (event: FocusEvent<HTMLDivElement>) => holdToasts(event.currentTarget, true);

function releaseOnFocusOut(event: FocusEvent<HTMLDivElement>) {
  const toaster = event.currentTarget;
  const pointerOver = toaster.querySelector('[data-sonner-toaster]:hover') !== null;
  if (!toaster.contains(event.relatedTarget) && !pointerOver) holdToasts(toaster, false);
}

// sonner lets go when the pointer leaves, even if a toast still has focus
function keepHeldWhileFocused(event: MouseEvent<HTMLDivElement>) {
  if (event.currentTarget.contains(document.activeElement)) holdToasts(event.currentTarget, true);
}

const LazyToaster = lazy(async () => {
  const { Toaster } = await loadSonner();
  function ShopToaster() {
    // effects run child first: sonner's Toaster is listening by the time this says it is mounted
    useEffect(() => {
      toasterState.mounted();
    }, []);
    return (
      // `contents`: the toasts are fixed in place; this box is only there to hear focus moving among them
      <div
        className="contents"
        onFocus={holdWhileFocused}
        onBlur={releaseOnFocusOut}
        onMouseLeave={keepHeldWhileFocused}
      >
        {/* its <section> is a polite live region, on the page before the first toast (see notify.ts) */}
        <Toaster position="top-right" visibleToasts={3} duration={4000} richColors closeButton />
      </div>
    );
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
