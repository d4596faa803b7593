// `npm run build`: builds what is stale (the embedded FerretDB, the TypeScript workspaces, the web app).
// `npm run build -- --force` rebuilds FerretDB and web even when they look up to date (tsc -b stays incremental).
import { buildAll } from './lib/build.mjs';
import { describeError, formatMs, log } from './lib/util.mjs';

const timings = [];
try {
  await buildAll(timings, { force: process.argv.includes('--force') });
  log(`build finished: ${timings.map(([t, ms]) => `${t.split(' (')[0]} ${formatMs(ms)}`).join(', ')}`);
} catch (err) {
  console.error(`[shop] build failed: ${describeError(err)}`);
  process.exit(1);
}
