// `npm test`: everything, from a fresh clone, ending with the one line CI reads: "N passed, N failed".
// Redis/RabbitMQ and chromium (each installed from Debian when missing and run as root) -> install and build, side by
// side (scripts/lib/build.mjs; Mailpit's build goes on in the background through the checks) -> typecheck (every
// workspace's sources and specs, and the web app's) -> lint -> a fresh FerretDB on 27018 and a Mailpit (SMTP 1026, API 8026) ->
// jest over every workspace (the e2e project starts the whole shop on test ports in its globalSetup, with its own
// Mailpit) -> FerretDB and Mailpit stopped. One progress line per step
// before jest; build and install output goes to .data/logs/ and is shown only when it fails.
// Arguments after `npm test --` go to jest (e.g. `npm test -- e2e` or `npm test -- -t register`).
// TEST_EXTERNAL_MONGO_URL=<mongodb URL> npm test: every suite runs against that server instead, the embedded FerretDB
// neither built nor started; the databases the run created are dropped at the end (scripts/lib/external-mongo.mjs).
import { spawn } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { buildAll } from './lib/build.mjs';
import { ensureChromium } from './lib/chromium.mjs';
import { EXTERNAL_MONGO_URL, dropCreatedDatabases, openExternalMongo, redact } from './lib/external-mongo.mjs';
import { DEFAULT_RABBITMQ_URL, DEFAULT_REDIS_URL, ensureInfra, startFerret, startMailpit } from './lib/infra.mjs';
import { exitOnSignals, stopAll } from './lib/procs.mjs';
import { DATA_DIR, LOG_DIR, ROOT, describeError, formatMs, log, run, step, unniceCommands } from './lib/util.mjs';

const TEST_MONGO_PORT = Number(process.env.TEST_MONGO_PORT || 27018);
const TEST_SMTP_PORT = Number(process.env.TEST_SMTP_PORT || 1026);
const TEST_MAILPIT_PORT = Number(process.env.TEST_MAILPIT_PORT || 8026);
const redisUrl = process.env.REDIS_URL || DEFAULT_REDIS_URL;
const rabbitUrl = process.env.RABBITMQ_URL || DEFAULT_RABBITMQ_URL;
const SUMMARY = /^\d+ passed, \d+ failed/;

let jestChild = null;
exitOnSignals(async () => {
  // jest's own signal handler (installed by the e2e setup) stops the e2e stack before it exits
  if (jestChild && jestChild.exitCode === null) {
    jestChild.kill('SIGTERM');
    await new Promise((resolve) => jestChild.once('close', resolve));
  }
  await stopAll();
});
const started = Date.now();
const timings = [];

const timingLine = () =>
  `[shop] timings: ${timings.map(([t, ms]) => `${t.split(' (')[0]} ${formatMs(ms)}`).join(' | ')} | total ${formatMs(Date.now() - started)}`;

/** Prints the timings, then the summary as the very last line of the output, and exits. */
function finish(code, summary) {
  console.log(timingLine());
  console.log(summary);
  process.exit(code);
}

let mongo;
let mailpit;
try {
  await step('check Redis and RabbitMQ', (note) => ensureInfra({ note, redisUrl, rabbitUrl }), timings);
  await step('check chromium for the browser tests', async (note) => note(await ensureChromium({ note })), timings);
  if (EXTERNAL_MONGO_URL)
    log(`TEST_EXTERNAL_MONGO_URL is set: the embedded FerretDB is neither built nor started for this run`);
  // Mailpit's build goes on beside the checks below; the tests' Mailpit starts once it is done.
  const builds = await buildAll(timings, { install: true, ferret: !EXTERNAL_MONGO_URL, mailpitInBackground: true });
  builds.mailpit.catch(() => undefined); // awaited (and so reported) before the tests' Mailpit starts
  unniceCommands(); // it no longer slows down a build: its normal CPU priority back
  // Two programs, side by side: the Node workspaces' and the web app's (DOM, JSX; its build does not type-check).
  const typecheck = (project) =>
    run(process.execPath, [path.join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', project, '--noEmit'], {
      what: `typecheck (tsc -p ${project} --noEmit)`,
    });
  await step(
    'typecheck sources and tests (tsc -p tsconfig.json, tsc -p web/tsconfig.json)',
    () => Promise.all([typecheck('tsconfig.json'), typecheck('web/tsconfig.json')]),
    timings,
  );
  await step(
    'lint (eslint .)',
    () => run(process.execPath, [path.join(ROOT, 'node_modules/eslint/bin/eslint.js'), '.'], { what: 'lint' }),
    timings,
  );
  await step(
    'format check (prettier --check .)',
    () =>
      run(
        process.execPath,
        [path.join(ROOT, 'node_modules/prettier/bin/prettier.cjs'), '--check', '--log-level=warn', '.'],
        {
          what: 'format check',
        },
      ),
    timings,
  );
  mongo = EXTERNAL_MONGO_URL
    ? await step(
        `check the external MongoDB for the tests, ${redact(EXTERNAL_MONGO_URL)}`,
        (note) => openExternalMongo(EXTERNAL_MONGO_URL, note),
        timings,
      )
    : await step(
        `start a fresh FerretDB for the tests on 127.0.0.1:${TEST_MONGO_PORT} (.data/test-mongo)`,
        () =>
          startFerret({
            id: 'test-ferretdb',
            port: TEST_MONGO_PORT,
            dataDir: path.join(DATA_DIR, 'test-mongo'),
            fresh: true,
            logFile: path.join(LOG_DIR, 'test-ferretdb.log'),
          }),
        timings,
      );
  await builds.mailpit;
  mailpit = await step(
    `start Mailpit for the tests on 127.0.0.1:${TEST_SMTP_PORT} (SMTP) and :${TEST_MAILPIT_PORT} (API)`,
    () =>
      startMailpit({
        id: 'test-mailpit',
        smtpPort: TEST_SMTP_PORT,
        httpPort: TEST_MAILPIT_PORT,
        logFile: path.join(LOG_DIR, 'test-mailpit.log'),
      }),
    timings,
  );
} catch (err) {
  console.error(`\n[shop] npm test stopped before the tests ran: ${describeError(err)}\n`);
  await stopAll();
  finish(1, '0 passed, 1 failed');
}

const jestStarted = Date.now();
const result = await new Promise((resolve) => {
  // Jest's default on 2 cores is one worker; two measured ~35% faster here with the same results.
  const extra = process.argv.slice(2);
  const chosen = extra.some((a) => /^(-i|--runInBand|-w|--maxWorkers)(=|$)/.test(a));
  const workers = chosen ? [] : [`--maxWorkers=${Math.max(2, os.availableParallelism() - 1)}`];
  const args = [path.join(ROOT, 'node_modules/jest/bin/jest.js'), '--ci', ...workers, ...extra];
  log(`jest: node ${args.map((a) => path.relative(ROOT, a) || a).join(' ')}`);
  const jest = spawn(process.execPath, args, {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'inherit'],
    env: {
      ...process.env,
      TEST_MONGO_URL: mongo.url,
      // an external server outlives the run: the e2e stack's databases get this run's names (the suites' are random)
      ...(EXTERNAL_MONGO_URL ? { TEST_E2E_DB_PREFIX: mongo.e2ePrefix } : {}),
      TEST_SMTP_URL: mailpit.smtpUrl,
      TEST_MAILPIT_URL: mailpit.url,
      REDIS_URL: redisUrl,
      RABBITMQ_URL: rabbitUrl,
    },
  });
  jestChild = jest;
  // Forward jest's stdout line by line, holding back its summary line to print it last.
  let summary = null;
  let partial = '';
  const forward = (line) => {
    if (SUMMARY.test(line.trim())) summary = line.trim();
    else process.stdout.write(`${line}\n`);
  };
  jest.stdout.on('data', (chunk) => {
    const lines = (partial + chunk).split('\n');
    partial = lines.pop();
    lines.forEach(forward);
  });
  jest.on('error', (err) => {
    console.error(`[shop] could not run jest: ${err.message}`);
    resolve({ code: 1, summary });
  });
  jest.on('close', (code, signal) => {
    if (partial) forward(partial);
    resolve({ code: code ?? (signal ? 1 : 0), summary });
  });
});
timings.push(['jest', Date.now() - jestStarted]);
await stopAll();
if (EXTERNAL_MONGO_URL) {
  await step('drop the test databases this run created on the external MongoDB', (note) =>
    dropCreatedDatabases(mongo, note),
  ).catch((err) => console.error(`[shop] could not drop them: ${describeError(err)}`));
}
if (!result.summary) {
  // jest died before its reporters ran (a crash, a bad config): CI still gets its line
  console.error(`[shop] jest ended without a summary (exit code ${result.code})`);
  finish(result.code || 1, '0 passed, 1 failed');
}
finish(result.code, result.summary);
