// prestack:replicas: node_modules as package-lock.json says (scripts/lib/deps.mjs), on one progress line.
// `npm start` and `npm test` do the same themselves, beside their Go builds (scripts/lib/build.mjs).
import { ensureDependencies } from './lib/deps.mjs';
import { describeError, step } from './lib/util.mjs';

try {
  await step('install dependencies', async (note) => note(await ensureDependencies({ note })));
} catch (err) {
  console.error(`[shop] ${describeError(err)}`);
  process.exit(1);
}
