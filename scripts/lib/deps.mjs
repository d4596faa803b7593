// node_modules as package-lock.json says, so `npm start` and `npm test` work on a fresh clone with no `npm install`
// before them (scripts/lib/build.mjs runs it beside the Go builds, which need no node_modules; scripts/ensure-deps.mjs
// on its own before `npm run stack:replicas`). Node builtins only (nothing is installed yet).
//   node_modules missing                            -> npm install (the locked versions; see below)
//   package-lock.json newer than the installed tree -> npm install
//   otherwise                                       -> nothing
// Not `npm ci`: it refuses any lock that lacks an optional package (here: other platforms' @swc/core-* builds,
// which this workplace's registry does not serve, so no lock made here lists them) after printing a wall of
// errors; `npm install` installs the same locked versions and accepts that.
import fs from 'node:fs';
import path from 'node:path';
import { ROOT, freshLog, mtimeMs, run } from './util.mjs';

const LOCK = path.join(ROOT, 'package-lock.json');
const INSTALLED = path.join(ROOT, 'node_modules/.package-lock.json'); // npm writes it after every install

/** Why node_modules must be (re)installed, or null when it matches package-lock.json. */
export function installReason() {
  if (!fs.existsSync(path.join(ROOT, 'node_modules')) || !mtimeMs(INSTALLED)) return 'node_modules is missing';
  if (mtimeMs(LOCK) > mtimeMs(INSTALLED)) return 'package-lock.json is newer than node_modules';
  return null;
}

/**
 * npm install when installReason() says so; its output in .data/logs/npm-install.log, the tail shown only if it
 * fails. Resolves to 'installed' or 'up to date'; `note` receives the progress.
 */
export async function ensureDependencies({ note = () => undefined } = {}) {
  const why = installReason();
  if (!why) return 'up to date';
  const args = ['install', '--no-audit', '--no-fund'];
  const logFile = freshLog('npm-install.log');
  note(`${why}: npm ${args.join(' ')}, output in ${path.relative(ROOT, logFile)} ...`);
  await run('npm', args, { logFile, what: `npm ${args.join(' ')}` });
  // npm may rewrite package-lock.json after its hidden lockfile: keep "installed" newer than the lock
  if (fs.existsSync(INSTALLED) && mtimeMs(LOCK) > mtimeMs(INSTALLED)) {
    const now = new Date();
    fs.utimesSync(INSTALLED, now, now);
  }
  return 'installed';
}
