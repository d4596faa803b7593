// Debian packages the scripts install when they are missing and the process runs as root: Redis and RabbitMQ
// (scripts/lib/infra.mjs), chromium for the browser tests (scripts/lib/chromium.mjs). Non-interactive; the output
// goes to .data/logs/apt.log and only its tail to the terminal, when apt-get fails.
import path from 'node:path';
import { LOG_DIR, ROOT, freshLog, log, run } from './util.mjs';

export const APT_LOG = path.join(LOG_DIR, 'apt.log');

let updated = false;

/** `apt-get update` (once per process), then `apt-get install -y <packages>`. Root only: the callers check. */
export async function aptInstall(packages, { note = log } = {}) {
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const list = packages.join(' ');
  note(`installing ${list} from Debian (apt-get, output in ${path.relative(ROOT, APT_LOG)}) ...`);
  if (!updated) {
    freshLog(path.basename(APT_LOG));
    await run('apt-get', ['update'], { env, logFile: APT_LOG, what: 'apt-get update' });
    updated = true;
  }
  await run('apt-get', ['install', '-y', ...packages], { env, logFile: APT_LOG, what: `apt-get install -y ${list}` });
}
