// `npm start`: the whole shop on this machine, from a fresh clone.
// Redis/RabbitMQ (started if installed but stopped; installed from Debian first when absent and run as root) ->
// build what is stale -> FerretDB on 27017 with data in .data/mongo (kept across restarts) -> Mailpit (SMTP 1025,
// inbox 8025; unless SMTP_URL names another mail server) -> seeds -> services + gateway -> URL, logins and inbox.
// One progress line per step; build and install output goes to .data/logs/ and is shown only when it fails.
// Ctrl-C stops everything this started (not Redis or RabbitMQ).
import path from 'node:path';
import { buildAll } from './lib/build.mjs';
import { DEFAULT_RABBITMQ_URL, DEFAULT_REDIS_URL, ensureInfra, startFerret, startMailpit } from './lib/infra.mjs';
import { exitOnSignals, stopAll } from './lib/procs.mjs';
import { devSecrets } from './lib/secrets.mjs';
import { SEEDED_LOGINS, defaultPorts, startStack } from './lib/stack.mjs';
import { DATA_DIR, LOG_DIR, describeError, formatMs, log, step } from './lib/util.mjs';

const MONGO_PORT = 27017;
const MAILPIT_SMTP_PORT = 1025;
const MAILPIT_HTTP_PORT = 8025;
const redisUrl = process.env.REDIS_URL || DEFAULT_REDIS_URL;
const rabbitUrl = process.env.RABBITMQ_URL || DEFAULT_RABBITMQ_URL;

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
  await buildAll(timings);
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
  // The notifications service's mail: to our Mailpit, or to the SMTP server SMTP_URL names.
  const mailpit = process.env.SMTP_URL
    ? null
    : await step(
        `start Mailpit (SMTP 127.0.0.1:${MAILPIT_SMTP_PORT}, inbox http://localhost:${MAILPIT_HTTP_PORT}; mail kept in .data/mailpit)`,
        () =>
          startMailpit({
            id: 'dev-mailpit',
            smtpPort: MAILPIT_SMTP_PORT,
            httpPort: MAILPIT_HTTP_PORT,
            database: path.join(DATA_DIR, 'mailpit/mailpit.db'),
            logFile: path.join(LOG_DIR, 'dev-mailpit.log'),
          }),
        timings,
      );
  const ports = defaultPorts();
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
        smtpUrl: mailpit?.smtpUrl ?? process.env.SMTP_URL,
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
    mailpit
      ? `  Email (every message the shop sends) lands in Mailpit: http://localhost:${MAILPIT_HTTP_PORT}`
      : `  Email goes to SMTP_URL (${redactUrl(process.env.SMTP_URL)}).`,
    `  Payments go to a fake PayPal (${stack.paypalUrl}): no real money moves.`,
    `  Metrics (Prometheus): ${stack.metricsUrls.gateway} for the gateway; each service's /metrics on its port.`,
    '  Data: .data/mongo   FerretDB log: .data/logs/dev-ferretdb.log   More: docs/operations.md',
    '  Press Ctrl-C to stop.',
    '',
  ];
  console.log(lines.join('\n'));
  // Keep running until a signal; report any process that dies meanwhile.
  for (const h of stack.handles) {
    h.exited.then((info) => {
      if (!shuttingDown)
        log(
          `${h.label} stopped unexpectedly (${info.signal || `exit code ${info.code}`}); the rest keeps running. Restart npm start to bring it back.`,
        );
    });
  }
  mailpit?.exited.then(
    (info) =>
      !shuttingDown &&
      log(
        `Mailpit stopped unexpectedly (${info.signal || `exit code ${info.code}`}): emails fail (retried, then dead-lettered) until it is back. Restart npm start.`,
      ),
  );
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
