// `npm run build`: builds what is stale, side by side (the embedded FerretDB and Mailpit, the TypeScript workspaces,
// the OpenAPI documents, the web app; scripts/lib/build.mjs).
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
