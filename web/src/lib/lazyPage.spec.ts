import { reloadForNewBuild, type ReloadDeps } from './lazyPage';

function aBrowser(start = 1_000_000) {
  const stored = new Map<string, string>();
  const deps: ReloadDeps & { clock: number; reloads: number } = {
    clock: start,
    reloads: 0,
    storage: { getItem: (k) => stored.get(k) ?? null, setItem: (k, v) => void stored.set(k, v) },
    reload: () => void deps.reloads++,
    now: () => deps.clock,
  };
  return deps;
}

const gone = new TypeError('Failed to fetch dynamically imported module: /assets/CollectionPage-old.js');
const settled = (promise: Promise<unknown>) =>
  Promise.race([
    promise.then(
      () => 'resolved',
      () => 'rejected',
    ),
    new Promise((r) => setTimeout(() => r('pending'), 20)),
  ]);

describe('a page whose chunk a deploy removed', () => {
  it('reloads the page once into the new build, keeping the spinner meanwhile', async () => {
    const browser = aBrowser();
    await expect(settled(reloadForNewBuild(gone, browser))).resolves.toBe('pending');
    expect(browser.reloads).toBe(1);
  });

  it('shows the loading error when the reload just tried did not help (a real outage), and reloads again later', async () => {
    const browser = aBrowser();
    void reloadForNewBuild(gone, browser);
    browser.clock += 5_000;
    await expect(reloadForNewBuild(gone, browser)).rejects.toBe(gone);
    expect(browser.reloads).toBe(1);

    browser.clock += 60_000;
    await expect(settled(reloadForNewBuild(gone, browser))).resolves.toBe('pending');
    expect(browser.reloads).toBe(2);
  });
});
