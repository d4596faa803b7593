// `npm run stack:replicas`: the whole shop with two replicas of every service (REPLICAS=n for another number), on
// ports of its own beside `npm start` (scripts/lib/replica-stack.mjs: gateway http://localhost:23080), fresh data
// each run, seeded. The gateway takes each service's replicas in turn. Ctrl-C stops everything it started.
import { buildAll } from './lib/build.mjs';
import { startReplicaStack } from './lib/replica-stack.mjs';
import { exitOnSignals, stopAll } from './lib/procs.mjs';
import { SEEDED_LOGINS } from './lib/stack.mjs';
import { describeError, formatMs, log, step } from './lib/util.mjs';

const replicas = Number(process.env.REPLICAS || 2);
exitOnSignals(async () => {
  await stopAll();
  log('stopped.');
});

const started = Date.now();
const timings = [];
try {
  await buildAll(timings);
  const shop = await step(
    `start the shop with ${replicas} replicas of every service`,
    (note) => startReplicaStack({ replicas, note, logLevel: 'info' }),
    timings,
  );
  log(`ready in ${formatMs(Date.now() - started)}: ${shop.urls.gateway.replace('127.0.0.1', 'localhost')}`);
  for (const p of shop.stack.processes) log(`  ${p.id.padEnd(26)} pid ${p.handle.pid}, port ${p.port}`);
  log(`  inbox ${shop.urls.mailpit}; fake PayPal ${shop.urls.paypal}; logs in ${shop.logDir}`);
  for (const l of SEEDED_LOGINS) log(`  ${l.role}: ${l.email} / ${l.password}`);
  log('Ctrl-C stops it.');
} catch (err) {
  console.error(`[shop] stack:replicas failed: ${describeError(err)}`);
  await stopAll();
  process.exit(1);
}
