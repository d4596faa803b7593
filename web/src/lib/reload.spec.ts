import { reloadForNewBuild, startFailed, START_FAILED_MESSAGE, type ReloadDeps } from './reload';

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

describe('the shop whose own code failed to load (main.tsx)', () => {
  beforeEach(() => {
    document.body.innerHTML = '<main><a href="/collections/all">Shop all</a></main>';
    jest.spyOn(console, 'error').mockImplementation(() => undefined);
  });
  afterEach(() => jest.restoreAllMocks());

  const alerts = () => Array.from(document.querySelectorAll('[role="alert"]')).map((el) => el.textContent);

  it('reloads once into the new build, showing nothing meanwhile', async () => {
    const browser = aBrowser();
    await expect(settled(startFailed(gone, browser))).resolves.toBe('pending');
    expect(browser.reloads).toBe(1);
    expect(alerts()).toEqual([]);
  });

  it('says so at once in a browser that blocks session storage (no reload it could not count)', async () => {
    const browser = aBrowser();
    browser.storage.getItem = () => {
      throw new DOMException('The operation is insecure.', 'SecurityError');
    };
    await startFailed(gone, browser);
    expect(browser.reloads).toBe(0);
    expect(alerts()).toEqual([START_FAILED_MESSAGE]);
  });

  it('says so at the top of the page, once, when the reload just tried did not help; the page stays', async () => {
    const browser = aBrowser();
    void startFailed(gone, browser);
    browser.clock += 5_000;
    await startFailed(gone, browser);
    await startFailed(gone, browser);
    expect(browser.reloads).toBe(1);
    expect(alerts()).toEqual([START_FAILED_MESSAGE]);
    expect(document.body.firstElementChild?.getAttribute('role')).toBe('alert');
    expect(document.querySelector('main a')?.getAttribute('href')).toBe('/collections/all');
    expect(console.error).toHaveBeenCalledWith('The shop could not start:', gone);
  });
});
