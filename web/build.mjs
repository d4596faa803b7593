// Builds the SPA into web/dist: type-check (tsc -p web/tsconfig.json, sources and tests) then `vite build`.
// scripts/lib/build.mjs runs it (npm run build -w web) when a web source, the contracts or the lockfile changed.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.join(here, '..');

const started = Date.now();
const tsc = spawnSync(
  process.execPath,
  [path.join(root, 'node_modules/typescript/bin/tsc'), '-p', path.join(here, 'tsconfig.json'), '--noEmit'],
  { stdio: 'inherit', cwd: root },
);
if (tsc.status !== 0) {
  console.error('web: the type check failed (tsc -p web/tsconfig.json)');
  process.exit(tsc.status ?? 1);
}

const { build } = await import('vite');
await build({ configFile: path.join(here, 'vite.config.mts'), logLevel: process.env.WEB_BUILD_LOG ?? 'warn' });

// The shopper's first route: at most 110 KB of JS gzipped (issue 9), and none of it the admin area's (issue 10).
const { adminFilesIn, routeChunks } = await import('./route-size.mjs');
const HOME_BUDGET_KB = 110;
const home = routeChunks('src/pages/HomePage.tsx');
const homeKb = home.gzip / 1024;
const admin = adminFilesIn(home.chunks);
if (homeKb > HOME_BUDGET_KB || admin.length) {
  console.error(
    `web: the home route loads ${homeKb.toFixed(1)} KB of JS gzipped (budget ${HOME_BUDGET_KB} KB)` +
      (admin.length ? ` including admin code: ${admin.join(', ')}` : ''),
  );
  process.exit(1);
}
console.log(
  `web: built ${path.relative(process.cwd(), path.join(here, 'dist')) || 'dist'} in ${Date.now() - started} ms ` +
    `(home route ${homeKb.toFixed(1)} KB of JS gzipped)`,
);
