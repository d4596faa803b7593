// `npm start`: the whole shop on this machine, from a fresh clone.
// Redis/RabbitMQ (started if installed but stopped; installed from Debian first when absent and run as root) ->
// install and build what is stale, side by side (scripts/lib/build.mjs) -> FerretDB on 27017 with data in .data/mongo
// (kept across restarts) -> seeds -> services + gateway -> URL and logins. Mailpit (SMTP 1025, inbox 8025; unless
// SMTP_URL names another mail server) is built and started in the background: the shop does not wait for it, the
// emails wait in the notifications queue until it is up, and its inbox URL is printed then.
// One progress line per step; build and install output goes to .data/logs/ and is shown only when it fails.
// Ctrl-C stops everything this started (not Redis or RabbitMQ).
import path from 'node:path';
import { buildAll } from './lib/build.mjs';
import { DEFAULT_RABBITMQ_URL, DEFAULT_REDIS_URL, ensureInfra, startFerret, startMailpit } from './lib/infra.mjs';
import { exitOnSignals, stopAll } from './lib/procs.mjs';
import { devSecrets } from './lib/secrets.mjs';
import { SEEDED_LOGINS, defaultPorts, startStack } from './lib/stack.mjs';
import { DATA_DIR, LOG_DIR, describeError, formatMs, log, step, unniceCommands } from './lib/util.mjs';

const MONGO_PORT = 27017;
const MAILPIT_SMTP_PORT = 1025;
const MAILPIT_HTTP_PORT = 8025;
const INBOX = `http://localhost:${MAILPIT_HTTP_PORT}`;
const redisUrl = process.env.REDIS_URL || DEFAULT_REDIS_URL;
const rabbitUrl = process.env.RABBITMQ_URL || DEFAULT_RABBITMQ_URL;
const ownMailpit = !process.env.SMTP_URL;
/**
 * The notifications service's runs of an email's event before it is dead-lettered, while Mailpit is still being
 * built: 360 runs 5 s apart (EVENT_RETRY_DELAY_MS) are 30 minutes, past a cold Mailpit build (about 2 minutes alone
 * on 2 idle cores; 15 minutes and more on a shared machine that runs 20 other processes), so the first email of a fresh clone
 * waits for it.
 */
const MAIL_WAIT_ATTEMPTS = 360;

let shuttingDown = false;
exitOnSignals(async () => {
  shuttingDown = true;
  await stopAll();
  log('stopped. Data is kept in .data/mongo; Redis and RabbitMQ were left running.');
});

const started = Date.now();
const timings = [];
try {
  await step('check Redis and RabbitMQ', (note) => ensureInfra({ note, redisUrl, rabbitUrl }), timings);
  const builds = await buildAll(timings, { install: true, mailpit: ownMailpit, mailpitInBackground: true });
  // Mailpit starts as soon as it is built, whatever the rest is doing; `mailpit` is its handle once it runs.
  let mailpit = null;
  const mailpitUp = ownMailpit
    ? builds.mailpit
        .then(() =>
          step(
            `start Mailpit (SMTP 127.0.0.1:${MAILPIT_SMTP_PORT}, inbox ${INBOX}; mail kept in .data/mailpit)`,
            () =>
              startMailpit({
                id: 'dev-mailpit',
                smtpPort: MAILPIT_SMTP_PORT,
                httpPort: MAILPIT_HTTP_PORT,
                database: path.join(DATA_DIR, 'mailpit/mailpit.db'),
                logFile: path.join(LOG_DIR, 'dev-mailpit.log'),
              }),
            timings,
          ),
        )
        .then((handle) => {
          mailpit = handle;
          handle.exited.then(
            (info) =>
              !shuttingDown &&
              log(
                `Mailpit stopped unexpectedly (${info.signal || `exit code ${info.code}`}): emails fail (retried, then dead-lettered) until it is back. Restart npm start.`,
              ),
          );
          return handle;
        })
    : null;
  let mailpitFailed = false;
  mailpitUp?.catch(() => (mailpitFailed = true)); // reported once the shop is up (below)
  const { jwtSecret } = devSecrets();
  const mongo = await step(
    `start FerretDB on 127.0.0.1:${MONGO_PORT} (data in .data/mongo)`,
    () =>
      startFerret({
        id: 'dev-ferretdb',
        port: MONGO_PORT,
        dataDir: path.join(DATA_DIR, 'mongo'),
        logFile: path.join(LOG_DIR, 'dev-ferretdb.log'),
      }),
    timings,
  );
  const ports = defaultPorts();
  // While Mailpit is being built, notifications retries an email long enough to outlast the build (its own default
  // gives up after 3 minutes), unless EVENT_MAX_ATTEMPTS was given.
  const mailWaits = ownMailpit && !mailpit && !process.env.EVENT_MAX_ATTEMPTS;
  const stack = await step(
    'seed, start the services and the gateway',
    (note) =>
      startStack({
        scope: 'dev',
        ports,
        mongoUrl: mongo.url,
        dbPrefix: 'shop_',
        redisUrl,
        rabbitUrl,
        jwtSecret,
        smtpUrl: ownMailpit ? `smtp://127.0.0.1:${MAILPIT_SMTP_PORT}` : process.env.SMTP_URL,
        envOf: mailWaits ? { notifications: { EVENT_MAX_ATTEMPTS: String(MAIL_WAIT_ATTEMPTS) } } : {},
        nodeEnv: 'development',
        logLevel: process.env.LOG_LEVEL || 'info',
        note,
      }),
    timings,
  );
  const url = `http://localhost:${ports.gateway}`;
  const lines = [
    '',
    `  The shop is running: ${url}   (started in ${formatMs(Date.now() - started)})`,
    `  services: ${stack.running.join(', ') || '(none built yet)'}${stack.missing.length ? `   not built yet: ${stack.missing.join(', ')}` : ''}`,
    '  Logins (created by the seed on the first start):',
    ...SEEDED_LOGINS.map((l) => `    ${l.role.padEnd(9)} ${l.email.padEnd(24)} ${l.password}`),
    !ownMailpit
      ? `  Email goes to SMTP_URL (${redactUrl(process.env.SMTP_URL)}).`
      : mailpit
        ? `  Email (every message the shop sends) lands in Mailpit: ${INBOX}`
        : mailpitFailed
          ? '  Email: no mail server, Mailpit failed (below).'
          : '  Email: Mailpit is still being built in the background; emails wait in the queue until it is up (its inbox is printed then).',
    `  Payments go to a fake PayPal (${stack.paypalUrl}): no real money moves.`,
    `  Metrics (Prometheus): ${stack.metricsUrls.gateway} for the gateway; each service's /metrics on its port.`,
    '  Data: .data/mongo   FerretDB log: .data/logs/dev-ferretdb.log   More: docs/operations.md',
    '  Press Ctrl-C to stop.',
    '',
  ];
  console.log(lines.join('\n'));
  // Nothing the user waits for runs any more: Mailpit's build (niced so far) gets its normal CPU priority back, or
  // on a busy machine it would get next to nothing.
  unniceCommands();
  if (mailpitUp && !mailpit) {
    mailpitUp.then(
      () =>
        !shuttingDown &&
        log(`Mailpit is up: every email the shop sends lands in ${INBOX} (the ones waiting in the queue follow).`),
      (err) =>
        !shuttingDown &&
        console.error(
          `\n[shop] Mailpit could not be built or started: ${describeError(err)}\n[shop] The shop runs on without a mail server: emails are retried for a while, then kept in the dead-letter queue (node scripts/dlq.mjs replay notifications.events sends them again). Fix the cause and restart npm start, or set SMTP_URL.\n`,
        ),
    );
  }
  // Keep running until a signal; report any process that dies meanwhile.
  for (const h of stack.handles) {
    h.exited.then((info) => {
      if (!shuttingDown)
        log(
          `${h.label} stopped unexpectedly (${info.signal || `exit code ${info.code}`}); the rest keeps running. Restart npm start to bring it back.`,
        );
    });
  }
  mongo.exited.then(
    (info) =>
      !shuttingDown &&
      log(
        `FerretDB stopped unexpectedly (${info.signal || `exit code ${info.code}`}): the services cannot reach their databases. Restart npm start.`,
      ),
  );
} catch (err) {
  console.error(`\n[shop] npm start failed: ${describeError(err)}\n`);
  await stopAll();
  process.exit(1);
}

/** A URL without its password, for the terminal. */
function redactUrl(url) {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return '(not a URL)';
  }
}
