// The shop in a real browser: Debian's chromium driven by playwright-core, through the gateway.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { e2eEnv, type E2eEnv } from './support';

jest.setTimeout(60_000);

const STORE_NAME = 'Gridiron Store';

describe('the shop in a browser', () => {
  let env: E2eEnv;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    env = e2eEnv();
    // Debian's chromium with the launch arguments of scripts/lib/chromium.mjs (the machine's network is closed)
    const { path: executablePath, args } = env.chromium;
    if (!fs.existsSync(executablePath)) {
      throw new Error(
        `${executablePath} is missing: npm test installs it when run as root; otherwise run \`apt-get install -y chromium\` as root`,
      );
    }
    browser = await chromium.launch({ executablePath, args, headless: true });
    page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  });

  afterAll(async () => {
    await browser?.close();
  });

  it('opens the home page, which shows the store name', async () => {
    const res = await page.goto(env.baseUrl, { waitUntil: 'load' });
    expect(res?.status()).toBe(200);
    await expect(page.getByText(STORE_NAME, { exact: true }).first().textContent()).resolves.toBe(STORE_NAME);
    await expect(page.title()).resolves.toContain(STORE_NAME);

    fs.mkdirSync(env.screenshotDir, { recursive: true });
    const file = path.join(env.screenshotDir, 'home.png');
    await page.screenshot({ path: file, fullPage: true });
    expect(fs.statSync(file).size).toBeGreaterThan(1000);
  });

  it('serves the app for a deep link (history fallback), not a 404', async () => {
    const res = await page.goto(`${env.baseUrl}/product/123`, { waitUntil: 'load' });
    expect(res?.status()).toBe(200);
    expect(res?.headers()['content-type']).toContain('text/html');
    await expect(page.getByText(STORE_NAME, { exact: true }).first().textContent()).resolves.toBe(STORE_NAME);
    await page.screenshot({ path: path.join(env.screenshotDir, 'deep-link-product.png') });
  });
});
