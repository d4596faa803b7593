import { lazy, type ComponentType } from 'react';

// A deploy replaces the build's hashed chunks, so a tab opened before it fails to load the next page it opens
// ("Failed to fetch dynamically imported module") and would land on the error screen. Loading the page again fetches
// the new build. Once only: a second failure soon after is a real outage, and the error screen then says so.
const RELOADED_AT = 'reloadedForNewBuildAt';
const ONCE_WITHIN_MS = 60_000;

export interface ReloadDeps {
  storage: Pick<Storage, 'getItem' | 'setItem'>;
  reload: () => void;
  now: () => number;
}

const browser = (): ReloadDeps => ({
  storage: window.sessionStorage,
  reload: () => window.location.reload(),
  now: Date.now,
});

/**
 * What to do when a page's chunk failed to load: reload once (the promise then never settles, so the page's
 * spinner stays until the new build is there), or, when that was just tried, fail with the loading error.
 */
export function reloadForNewBuild(error: unknown, deps: ReloadDeps = browser()): Promise<never> {
  const last = Number(deps.storage.getItem(RELOADED_AT) ?? 0);
  if (deps.now() - last < ONCE_WITHIN_MS) return Promise.reject(error);
  deps.storage.setItem(RELOADED_AT, String(deps.now()));
  deps.reload();
  return new Promise<never>(() => undefined);
}

/** React.lazy for a route's page, reloading once into a new build when its chunk is gone. */
export function lazyPage<T extends ComponentType<object>>(load: () => Promise<{ default: T }>) {
  return lazy(() => load().catch((error: unknown) => reloadForNewBuild(error)));
}
