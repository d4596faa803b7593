// A deploy replaces the build's hashed chunks, so a tab opened before it fails to load the next chunk it needs
// ("Failed to fetch dynamically imported module"). Loading the page again fetches the new build. Once only: a second
// failure soon after is a real outage (or no network), and the page then says so.
// No React here: the entry (main.tsx) uses this before React is loaded.
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
 * What to do when a chunk failed to load: reload once (the promise then never settles, so whatever shows the loading
 * stays until the new build is there), or, when that was just tried, fail with the loading error.
 */
export function reloadForNewBuild(error: unknown, deps: ReloadDeps = browser()): Promise<never> {
  const last = Number(deps.storage.getItem(RELOADED_AT) ?? 0);
  if (deps.now() - last < ONCE_WITHIN_MS) return Promise.reject(error);
  deps.storage.setItem(RELOADED_AT, String(deps.now()));
  deps.reload();
  return new Promise<never>(() => undefined);
}

export const START_FAILED_ID = 'shop-start-failed';
export const START_FAILED_MESSAGE = 'The shop could not load. Check your connection and reload the page.';

/**
 * The shop's own code failed to load or start (main.tsx): the page is the prerendered HTML, which shows but does not
 * respond (no cart, no buttons; its links still work). Reload once into the current build; when that was just tried,
 * say so at the top of the page instead of leaving a page that silently does nothing.
 */
export function startFailed(error: unknown, deps?: ReloadDeps, doc: Document = document): Promise<void> {
  let reloading: Promise<never>;
  try {
    reloading = reloadForNewBuild(error, deps ?? browser());
  } catch {
    reloading = Promise.reject(error); // no session storage (a browser that blocks it): no reload, say so at once
  }
  return reloading.catch(() => {
    console.error('The shop could not start:', error);
    if (doc.getElementById(START_FAILED_ID)) return;
    const banner = doc.createElement('p');
    banner.id = START_FAILED_ID;
    banner.setAttribute('role', 'alert');
    banner.className = 'sticky top-0 z-50 bg-red-700 px-4 py-3 text-center font-semibold text-white';
    banner.textContent = START_FAILED_MESSAGE;
    doc.body.prepend(banner);
  });
}
