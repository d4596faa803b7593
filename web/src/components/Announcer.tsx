import { useSyncExternalStore } from 'react';

/**
 * The shop's one polite live region (issue 40): what changed out of sight of a screen reader's focus — the cart's
 * lines, a discount code applied, a stock limit — is said through it, without moving focus. It is in the page from
 * the first paint (an element added together with its text is often not read) and empty until `announce`.
 */
let current = { text: '', id: 0 };
const listeners = new Set<() => void>();

/** Says `text` politely. The same text twice is said twice: each announcement replaces the region's content. */
export function announce(text: string): void {
  current = { text, id: current.id + 1 };
  listeners.forEach((listener) => listener());
}

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => void listeners.delete(listener);
};
const snapshot = () => current;
const serverSnapshot = () => ({ text: '', id: 0 });

export function Announcer() {
  const { text, id } = useSyncExternalStore(subscribe, snapshot, serverSnapshot);
  return (
    <div role="status" aria-live="polite" aria-atomic="true" className="sr-only" data-testid="announcer">
      {/* keyed by the announcement: a repeated text is a new node, so it is read again */}
      {text && <span key={id}>{text}</span>}
    </div>
  );
}
