// Debian's chromium for the browser journeys (e2e/test/browser.spec.ts, via playwright-core).
import fs from 'node:fs';
import { aptInstall } from './apt.mjs';
import { StepError, isRoot, log } from './util.mjs';

export const CHROMIUM_PATH = '/usr/bin/chromium';

/** The launch arguments every browser test uses (the machine's network is closed: no background calls). */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];

export const chromiumInstalled = () => fs.existsSync(CHROMIUM_PATH);

/** Installs Debian's chromium when it is missing (root only); a clear failure otherwise. */
export async function ensureChromium({ note = log } = {}) {
  if (chromiumInstalled()) return `chromium is installed (${CHROMIUM_PATH})`;
  if (!isRoot()) {
    throw new StepError(
      `${CHROMIUM_PATH} is missing and this user is not root, so it cannot be installed here. The browser tests ` +
        'need it: run `sudo apt-get update && sudo apt-get install -y chromium`, then retry.',
    );
  }
  await aptInstall(['chromium'], { note });
  if (!chromiumInstalled()) throw new StepError(`apt-get installed chromium but ${CHROMIUM_PATH} is still missing`);
  return `chromium installed (${CHROMIUM_PATH})`;
}
