// prestart/pretest: make node_modules match package-lock.json, so `npm start` and `npm test` work on a
// fresh clone with no `npm install` before them. Node builtins only (nothing is installed yet).
//   node_modules missing                          -> npm install (the locked versions; see below)
//   package-lock.json newer than the installed tree -> npm install
// Not `npm ci`: it refuses any lock that lacks an optional package (here: other platforms' @swc/core-* builds,
// which this workplace's registry does not serve, so no lock made here lists them) after printing a wall of
// errors; `npm install` installs the same locked versions and accepts that.
//   otherwise                                     -> nothing
import fs from 'node:fs';
import path from 'node:path';
import { ROOT, describeError, freshLog, log, run, step } from './lib/util.mjs';

const lock = path.join(ROOT, 'package-lock.json');
const installed = path.join(ROOT, 'node_modules/.package-lock.json'); // npm writes it after every install
const mtime = (f) => {
  try {
    return fs.statSync(f).mtimeMs;
  } catch {
    return 0;
  }
};

/** npm install on one progress line; its output in .data/logs/npm-install.log, the tail shown only if it fails. */
async function npmInstall(why) {
  const args = ['install', '--no-audit', '--no-fund'];
  try {
    await step(`install dependencies (${why})`, async (note) => {
      const logFile = freshLog('npm-install.log');
      note(`npm ${args.join(' ')}, output in ${path.relative(ROOT, logFile)} ...`);
      await run('npm', args, { logFile, what: `npm ${args.join(' ')}` });
      // npm may rewrite package-lock.json after its hidden lockfile: keep "installed" newer than the lock
      if (fs.existsSync(installed) && mtime(lock) > mtime(installed)) {
        const now = new Date();
        fs.utimesSync(installed, now, now);
      }
      note('installed');
    });
  } catch (err) {
    console.error(`[shop] ${describeError(err)}`);
    // `npm test` must end with the summary line CI reads, even when it stops this early
    if (process.env.npm_lifecycle_event === 'pretest') console.log('0 passed, 1 failed');
    process.exit(1);
  }
}

if (!fs.existsSync(path.join(ROOT, 'node_modules')) || !mtime(installed)) {
  await npmInstall('node_modules is missing');
} else if (mtime(lock) > mtime(installed)) {
  await npmInstall('package-lock.json is newer than node_modules');
} else {
  log('dependencies are up to date');
}
