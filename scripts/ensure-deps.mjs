// prestart/pretest: make node_modules match package-lock.json, so `npm start` and `npm test` work on a
// fresh clone with no `npm install` before them. Node builtins only (nothing is installed yet).
//   node_modules missing                          -> npm install (the locked versions; see below)
//   package-lock.json newer than the installed tree -> npm install
// Not `npm ci`: it refuses any lock that lacks an optional package (here: other platforms' @swc/core-* builds,
// which this workplace's registry does not serve, so no lock made here lists them) after printing a wall of
// errors; `npm install` installs the same locked versions and accepts that.
//   otherwise                                     -> nothing
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const lock = path.join(root, 'package-lock.json');
const installed = path.join(root, 'node_modules/.package-lock.json'); // npm writes it after every install
const mtime = (f) => {
  try {
    return fs.statSync(f).mtimeMs;
  } catch {
    return 0;
  }
};

function npm(args, why) {
  console.log(`[shop] ${why}: npm ${args.join(' ')}`);
  const started = Date.now();
  const result = spawnSync('npm', args, { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) {
    console.error(
      `[shop] npm ${args.join(' ')} failed (${result.error ? result.error.message : `exit code ${result.status}`})`,
    );
    // `npm test` must end with the summary line CI reads, even when it stops this early
    if (process.env.npm_lifecycle_event === 'pretest') console.log('0 passed, 1 failed');
    process.exit(1);
  }
  // npm may rewrite package-lock.json after its hidden lockfile: keep "installed" newer than the lock
  if (fs.existsSync(installed) && mtime(lock) > mtime(installed)) {
    const now = new Date();
    fs.utimesSync(installed, now, now);
  }
  console.log(`[shop] dependencies installed (${((Date.now() - started) / 1000).toFixed(1)} s)`);
}

if (!fs.existsSync(path.join(root, 'node_modules')) || !mtime(installed)) {
  npm(['install', '--no-audit', '--no-fund'], 'node_modules is missing');
} else if (mtime(lock) > mtime(installed)) {
  npm(['install', '--no-audit', '--no-fund'], 'package-lock.json is newer than node_modules');
} else {
  console.log('[shop] dependencies are up to date');
}
