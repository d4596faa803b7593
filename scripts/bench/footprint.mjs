// Footprint: `node scripts/bench/footprint.mjs` while `npm start` runs (figures: docs/performance.md, "Footprint").
//
// Prints the resident memory (RSS, from /proc) of every process `npm start` started — FerretDB, the five services,
// the fake PayPal and the gateway, found by their pid files in .data/run — and their sum, as the median of
// FOOTPRINT_SAMPLES readings FOOTPRINT_INTERVAL_MS apart (idle: nothing should be asking the shop anything, and a
// minute after "The shop is running", by which time V8 has collected what the start-up left behind). The
// target (issue 13): the whole stack (five services, gateway, FerretDB) under 600 MB idle; the fake PayPal, a
// development stand-in, is shown but not counted. Exits 1 when a process is missing or the target is missed.
//
// Environment: FOOTPRINT_SCOPE (dev: the pid files of `npm start`; e2e for the test stack), FOOTPRINT_SAMPLES (5),
// FOOTPRINT_INTERVAL_MS (1000), FOOTPRINT_JSON (write the figures to this file as JSON too).
import fs from 'node:fs';
import { rssKiB, stackProcesses } from './lib/rss.mjs';

const SCOPE = process.env.FOOTPRINT_SCOPE || 'dev';
const SAMPLES = Number(process.env.FOOTPRINT_SAMPLES || 5);
const INTERVAL_MS = Number(process.env.FOOTPRINT_INTERVAL_MS || 1000);
const TARGET_MB = 600;
/** Development stand-ins: shown, not part of the shop an operator runs. */
const NOT_COUNTED = new Set(['fake-paypal']);
const EXPECTED = ['ferretdb', 'catalog', 'cart', 'identity', 'checkout', 'orders', 'gateway'];

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

const procs = stackProcesses(SCOPE);
const missing = EXPECTED.filter((name) => !procs.has(name));
if (missing.length) {
  console.error(
    `footprint: not running (no live pid file in .data/run for scope "${SCOPE}"): ${missing.join(', ')}. Start the shop with npm start first.`,
  );
  process.exit(1);
}

const readings = new Map([...procs.keys()].map((name) => [name, []]));
for (let i = 0; i < SAMPLES; i++) {
  if (i) await sleep(INTERVAL_MS);
  for (const [name, pid] of procs) readings.get(name).push(rssKiB(pid));
}

const rows = [...procs.keys()]
  .map((name) => ({ name, pid: procs.get(name), rssMB: median(readings.get(name)) / 1024 }))
  .sort((a, b) => b.rssMB - a.rssMB);
const counted = rows.filter((r) => !NOT_COUNTED.has(r.name));
const totalMB = counted.reduce((sum, r) => sum + r.rssMB, 0);

console.log(`Footprint of the "${SCOPE}" stack — ${new Date().toISOString()}`);
console.log(`  idle RSS, median of ${SAMPLES} readings ${INTERVAL_MS} ms apart\n`);
for (const r of rows)
  console.log(
    `  ${r.name.padEnd(12)} pid ${String(r.pid).padStart(7)}  ${r.rssMB.toFixed(1).padStart(7)} MB${NOT_COUNTED.has(r.name) ? '   (development stand-in, not counted)' : ''}`,
  );
console.log(`  ${'total'.padEnd(12)} ${''.padStart(11)}  ${totalMB.toFixed(1).padStart(7)} MB`);
const pass = totalMB < TARGET_MB;
console.log(`\nTarget: [${pass ? 'PASS' : 'FAIL'}] whole stack under ${TARGET_MB} MB idle: ${totalMB.toFixed(0)} MB`);

if (process.env.FOOTPRINT_JSON)
  fs.writeFileSync(
    process.env.FOOTPRINT_JSON,
    JSON.stringify({ at: new Date().toISOString(), scope: SCOPE, rows, totalMB, targetMB: TARGET_MB }, null, 2),
  );
process.exit(pass ? 0 : 1);
