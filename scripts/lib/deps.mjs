// node_modules as package-lock.json says, so `npm start` and `npm test` work on a fresh clone with no `npm install`
// before them (scripts/lib/build.mjs runs it beside the Go builds, which need no node_modules; scripts/ensure-deps.mjs
// on its own before `npm run stack:replicas`). Also the web bench's own tools (scripts/bench/package.json), which
// only that bench installs. Node builtins only (nothing is installed yet).
//   node_modules missing                            -> npm install (the locked versions; see below)
//   package-lock.json newer than the installed tree -> npm install
//   otherwise                                       -> nothing
// Not `npm ci`: it refuses any lock that lacks an optional package (here: other platforms' @swc/core-* builds,
// which this workplace's registry does not serve, so no lock made here lists them) after printing a wall of
// errors; `npm install` installs the same locked versions and accepts that.
import fs from 'node:fs';
import path from 'node:path';
import { ROOT, freshLog, mtimeMs, run } from './util.mjs';

/** Why `dir`'s node_modules must be (re)installed, or null when it matches its package-lock.json. */
export function installReason(dir = ROOT) {
  // npm writes node_modules/.package-lock.json after every install
  if (!fs.existsSync(path.join(dir, 'node_modules')) || !mtimeMs(installedOf(dir))) return 'node_modules is missing';
  if (mtimeMs(lockOf(dir)) > mtimeMs(installedOf(dir))) return 'package-lock.json is newer than node_modules';
  return null;
}

const lockOf = (dir) => path.join(dir, 'package-lock.json');
const installedOf = (dir) => path.join(dir, 'node_modules/.package-lock.json');

/**
 * npm install in `dir` (the repository's root unless given) when installReason() says so; its output in
 * .data/logs/npm-install[-<name>].log, the tail shown only if it fails. Resolves to 'installed' or 'up to date';
 * `note` receives the progress.
 */
export async function ensureDependencies({ dir = ROOT, note = () => undefined } = {}) {
  const why = installReason(dir);
  if (!why) return 'up to date';
  const args = ['install', '--no-audit', '--no-fund'];
  const where = path.relative(ROOT, dir);
  const logFile = freshLog(where ? `npm-install-${path.basename(dir)}.log` : 'npm-install.log');
  note(`${where ? `${where}: ` : ''}${why}: npm ${args.join(' ')}, output in ${path.relative(ROOT, logFile)} ...`);
  await run('npm', args, {
    cwd: dir,
    logFile,
    what: `npm ${args.join(' ')}`,
    // swagger-ui-dist's install script would otherwise run `npm ls` over the whole tree to report the install to
    // its publisher (Scarf): a few seconds of a fresh clone's CPU, and nothing we want sent.
    env: { ...process.env, SCARF_ANALYTICS: 'false' },
  });
  // npm may rewrite package-lock.json after its hidden lockfile: keep "installed" newer than the lock
  if (fs.existsSync(installedOf(dir)) && mtimeMs(lockOf(dir)) > mtimeMs(installedOf(dir))) {
    const now = new Date();
    fs.utimesSync(installedOf(dir), now, now);
  }
  return 'installed';
}
