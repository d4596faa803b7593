// Builds what is stale, side by side where one does not need another: the dependencies (npm install), the embedded
// FerretDB and Mailpit (Go), the TypeScript workspaces (tsc -b, incremental), the OpenAPI documents and the web app
// (only when its sources changed since web/dist was written). One progress line per build; each build's output goes
// to .data/logs/, its tail to the terminal only when it fails.
import fs from 'node:fs';
import path from 'node:path';
import { MERGED_DOCUMENT, openApiInputs } from '../openapi.mjs';
import { runTasks } from './build-plan.cjs';
import { ensureDependencies } from './deps.mjs';
import { buildFerret, buildMailpit } from './infra.mjs';
import { ROOT, freshLog, mtimeMs, newestMtime, readJson, run, step, stopCommands, warn } from './util.mjs';

const TSC = path.join(ROOT, 'node_modules/typescript/bin/tsc');
const WEB = path.join(ROOT, 'web');

/** Every TypeScript workspace on disk (a tsconfig.json under packages/*, services/* or gateway). */
export function tsWorkspaces() {
  const found = [];
  for (const parent of ['packages', 'services']) {
    const dir = path.join(ROOT, parent);
    if (!fs.existsSync(dir)) continue;
    for (const name of fs.readdirSync(dir).sort()) {
      if (fs.existsSync(path.join(dir, name, 'tsconfig.json'))) found.push(`${parent}/${name}`);
    }
  }
  if (fs.existsSync(path.join(ROOT, 'gateway/tsconfig.json'))) found.push('gateway');
  return found;
}

/** Workspaces with a tsconfig.json that tsconfig.build.json does not reference yet (built anyway, with a warning). */
function buildReferences() {
  return (readJson(path.join(ROOT, 'tsconfig.build.json')).references || []).map((r) =>
    path.normalize(r.path).replace(/\/tsconfig\.json$/, ''),
  );
}

export function unreferencedWorkspaces() {
  const refs = buildReferences();
  return tsWorkspaces().filter((w) => !refs.includes(path.normalize(w)));
}

export async function buildTypeScript() {
  const refs = buildReferences();
  const absent = refs.filter((r) => !fs.existsSync(path.join(ROOT, r, 'tsconfig.json')));
  const extra = unreferencedWorkspaces();
  if (extra.length) warn(`not referenced in tsconfig.build.json (built anyway, please add them): ${extra.join(', ')}`);
  const logFile = freshLog('build-typescript.log');
  if (!absent.length) {
    await run(process.execPath, [TSC, '-b', 'tsconfig.build.json', ...extra], {
      logFile,
      what: 'tsc -b tsconfig.build.json',
    });
    return;
  }
  // A referenced workspace is not in this checkout (yet): build the ones that are, rather than fail on a path.
  warn(`tsconfig.build.json references workspaces that are not here (skipped): ${absent.join(', ')}`);
  const present = refs.filter((r) => !absent.includes(r));
  await run(process.execPath, [TSC, '-b', ...present, ...extra], {
    logFile,
    what: `tsc -b ${[...present, ...extra].join(' ')}`,
  });
}

/**
 * True when web/dist/index.html is missing or older than any source the web build reads: web/ (sources, configs; a
 * test's change rebuilds too, harmlessly), the contracts, and the lockfile (a dependency changed).
 */
export function webNeedsBuild() {
  const built = mtimeMs(path.join(WEB, 'dist/index.html'));
  if (!built) return true;
  const sources = Math.max(
    newestMtime(WEB, ['node_modules', 'dist']),
    newestMtime(path.join(ROOT, 'packages/contracts/src')),
    mtimeMs(path.join(ROOT, 'package-lock.json')),
  );
  return sources > built;
}

export async function buildWeb({ force = false } = {}) {
  if (!force && !webNeedsBuild()) return false;
  // web/build.mjs: vite build into web/dist, prerender, precompress (the type check is npm test's)
  await run('npm', ['run', '--silent', 'build', '-w', 'web'], {
    logFile: freshLog('build-web.log'),
    what: 'npm run build -w web (vite build, prerender, precompress)',
  });
  return true;
}

/**
 * The OpenAPI documents (scripts/openapi.mjs: each service's from its decorators, merged into the one the gateway
 * serves), when a built file they come from is newer than the merged document. A child process: Nest loads there.
 */
export async function buildOpenApi({ force = false } = {}) {
  const built = mtimeMs(MERGED_DOCUMENT);
  if (!force && built && openApiInputs().every((dir) => newestMtime(dir, ['openapi.json']) <= built)) return false;
  await run(process.execPath, [path.join(ROOT, 'scripts/openapi.mjs')], {
    logFile: freshLog('build-openapi.log'),
    what: 'node scripts/openapi.mjs',
  });
  return true;
}

/**
 * How many heavy builds (npm install, the two `go` builds, tsc, the web build) run at once: BUILD_JOBS, or all of them.
 * Mailpit's build does not count: it runs at a lower CPU priority (`nice`) and so takes only what the others leave.
 */
export function buildJobs(env = process.env) {
  const n = Number(env.BUILD_JOBS);
  return Number.isInteger(n) && n >= 1 ? n : Infinity;
}

/**
 * Builds what is stale, side by side: the dependencies (npm install, when `install`), FerretDB (unless `ferret` is
 * false: tests against an external MongoDB) and Mailpit (Go: they need no node_modules, so they start at once,
 * their module downloads beside npm install), then, once node_modules is there, TypeScript (then the OpenAPI
 * documents, made from its output) beside the web build (it reads the contracts' sources, not their dist). Each on a
 * progress line; timings appended to `timings`. Resolves when all but Mailpit are built, with `{ mailpit }`: the
 * promise of Mailpit's build (unless `mailpit` is false: another mail server is used), which needs nothing and nobody
 * waits for until mail is sent — awaited here too unless `mailpitInBackground`. The first failure of a build that is
 * waited for stops the others (util.mjs stopCommands) and is thrown once they have stopped.
 */
export async function buildAll(
  timings,
  {
    force = false,
    ferret = true,
    mailpit = true,
    install = false,
    mailpitInBackground = false,
    jobs = buildJobs(),
  } = {},
) {
  const tasks = [
    {
      id: 'install',
      heavy: install,
      run: () =>
        install
          ? step('install dependencies', async (note) => note(await ensureDependencies({ note })), timings)
          : undefined,
    },
    {
      id: 'mailpit',
      background: mailpitInBackground,
      run: () =>
        mailpit &&
        step(
          mailpitInBackground ? 'build Mailpit (in the background)' : 'build Mailpit',
          async (note) => note((await buildMailpit({ force, note })) ? 'built' : 'up to date'),
          timings,
        ),
    },
    {
      id: 'typescript',
      needs: ['install'],
      heavy: true,
      run: () => step('build TypeScript (tsc -b)', buildTypeScript, timings),
    },
    {
      id: 'openapi',
      needs: ['typescript'],
      run: () =>
        step(
          'build OpenAPI documents',
          async (note) => note((await buildOpenApi({ force })) ? 'built' : 'up to date'),
          timings,
        ),
    },
    {
      id: 'web',
      needs: ['install'],
      heavy: true,
      run: () =>
        !force && !webNeedsBuild()
          ? step('build web', async (note) => note('up to date'), timings)
          : step(
              'build web',
              async (note) => {
                note('vite build, prerender; output in .data/logs/build-web.log ...');
                await buildWeb({ force: true });
                note('built');
              },
              timings,
            ),
    },
  ];
  if (ferret)
    tasks.unshift({
      id: 'ferretdb',
      heavy: true,
      run: () =>
        step(
          'build FerretDB',
          async (note) => note((await buildFerret({ force, note })) ? 'built' : 'up to date'),
          timings,
        ),
    });
  const { done, results } = runTasks(tasks, { limit: jobs, onFailure: () => stopCommands() });
  await done;
  return { mailpit: results.get('mailpit') };
}
