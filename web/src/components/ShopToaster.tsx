// Loaded with the first toast (ToasterHost), not with the first page.
import { useEffect, type FocusEvent, type MouseEvent } from 'react';
import { Toaster } from 'sonner';
import { toasterState } from '@/lib/notify';

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

/** Top-right, up to 3 visible, 4 s by default; cart toasts pass 1 s (docs/product.md#business-constants). */
export default function ShopToaster() {
  // effects run child first: sonner's Toaster is listening by the time this says it is mounted
  useEffect(() => {
    toasterState.mounted();
  }, []);
  return (
    // `contents`: the toasts are fixed in place; this box is only there to hear focus moving among them
    <div className="contents" onFocus={holdWhileFocused} onBlur={releaseOnFocusOut} onMouseLeave={keepHeldWhileFocused}>
      {/* its <section> is a polite live region, on the page before the first toast (notify.ts waits for it) */}
      <Toaster position="top-right" visibleToasts={3} duration={4000} richColors closeButton />
    </div>
  );
}
