// Starts the whole shop for the e2e suites: every built service + the gateway on test ports (gateway
// 18080, services 13001-13006, the fake PayPal 18090, Mailpit SMTP 11025 and API 18025), databases e2e_shop_<name> on the test FerretDB
// (TEST_MONGO_URL, fresh from npm test; on an external MongoDB e2e_<run id>_<name>, TEST_E2E_DB_PREFIX from npm test),
// Redis db 1 (flushed), a fresh RabbitMQ vhost, a random JWT
// secret, seeded; plus a second gateway (18081) whose upstreams all point at a closed
// port, for "service down" journeys.
// A failure here does not abort the whole jest run: it is handed to the e2e tests (E2E_SETUP_ERROR), which
// then fail with the reason, while every other project's tests still run and count.
import fs from 'node:fs';
import path from 'node:path';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../scripts/lib/chromium.mjs';
import {
  DEFAULT_RABBITMQ_URL,
  DEFAULT_REDIS_URL,
  ensureInfra,
  flushRedisDb,
  freshRabbitVhost,
  startFerret,
  startMailpit,
} from '../scripts/lib/infra.mjs';
import { exitOnSignals, stopAll } from '../scripts/lib/procs.mjs';
import { randomSecret } from '../scripts/lib/secrets.mjs';
import {
  FAKE_PAYPAL_PORT,
  SEEDED_LOGINS,
  defaultPorts,
  startGateway,
  startStack,
  waitReady,
} from '../scripts/lib/stack.mjs';
import { DATA_DIR, LOG_DIR, ROOT, closedPort, describeError, formatMs, log } from '../scripts/lib/util.mjs';

// Where the e2e stack lives; two checkouts of the shop on one machine run their e2e suites side by side by
// giving one of them other values (E2E_PORT_OFFSET=20000 E2E_REDIS_DB=2 E2E_VHOST=shop_e2e2).
const PORT_OFFSET = Number(process.env.E2E_PORT_OFFSET || 10000);
const REDIS_DB = Number(process.env.E2E_REDIS_DB || 1);
const VHOST = process.env.E2E_VHOST || 'shop_e2e';
const STANDALONE_MONGO_PORT = 27019;

export default async function globalSetup() {
  const started = Date.now();
  // A stack on other ports (another e2e run beside this one) keeps its logs and pid files apart: a run stops the
  // leftovers of its own scope only.
  const scope = PORT_OFFSET === 10000 ? 'e2e' : `e2e-${PORT_OFFSET}`;
  const logDir = path.join(LOG_DIR, scope);
  fs.rmSync(logDir, { recursive: true, force: true });
  // Ctrl-C or SIGTERM to jest: stop the stack before exiting (jest would skip globalTeardown).
  exitOnSignals();
  process.stdout.write('\n');
  try {
    let mongoUrl = process.env.TEST_MONGO_URL || process.env.TEST_EXTERNAL_MONGO_URL;
    if (!mongoUrl) {
      // plain `npx jest` rather than `npm test`: bring our own fresh FerretDB
      await ensureInfra();
      const mongo = await startFerret({
        id: 'e2e-ferretdb',
        port: STANDALONE_MONGO_PORT,
        dataDir: path.join(DATA_DIR, 'e2e-mongo'),
        fresh: true,
        logFile: path.join(logDir, 'ferretdb.log'),
      });
      mongoUrl = mongo.url;
    }

    const redis = new URL(process.env.REDIS_URL || DEFAULT_REDIS_URL);
    redis.pathname = `/${REDIS_DB}`;
    const redisUrl = redis.toString().replace(/\/$/, '');
    await flushRedisDb(redisUrl, REDIS_DB);

    const rabbit = new URL(process.env.RABBITMQ_URL || DEFAULT_RABBITMQ_URL);
    if (await freshRabbitVhost(VHOST)) rabbit.pathname = `/${VHOST}`;
    const rabbitUrl = rabbit.toString().replace(/\/$/, '');

    // The stack's own mail server: every email the shop sends lands there, read by the suites through its API.
    const mailpit = await startMailpit({
      id: `${scope}-mailpit`,
      smtpPort: 1025 + PORT_OFFSET,
      httpPort: 8025 + PORT_OFFSET,
      logFile: path.join(logDir, 'mailpit.log'),
    });

    const ports = Object.fromEntries(Object.entries(defaultPorts()).map(([name, port]) => [name, port + PORT_OFFSET]));
    const common = {
      nodeEnv: 'test',
      logLevel: 'info',
      extraEnv: { RABBITMQ_NAMESPACE: 'e2e.', RATE_LIMIT_PREFIX: 'e2e:gw:rl', READY_CHECK_UPSTREAMS: 'false' },
    };
    log(`e2e: starting the shop on test ports (logs in ${path.relative(ROOT, logDir)}/) ...`);
    const stack = await startStack({
      scope,
      ports,
      mongoUrl,
      dbPrefix: process.env.TEST_E2E_DB_PREFIX || 'e2e_shop_',
      redisUrl,
      rabbitUrl,
      jwtSecret: randomSecret(),
      paypalPort: FAKE_PAYPAL_PORT + PORT_OFFSET,
      smtpUrl: mailpit.smtpUrl,
      logDir,
      ...common,
    });

    const deadPort = await closedPort();
    const deadGatewayPort = ports.gateway + 1;
    const upstreams = Object.fromEntries(Object.keys(ports).map((name) => [name, `http://127.0.0.1:${deadPort}`]));
    const dead = startGateway({
      scope,
      id: `${scope}-gateway-dead`,
      label: 'gateway (dead upstreams)',
      port: deadGatewayPort,
      ports,
      upstreams,
      redisUrl,
      webDist: path.join(ROOT, 'web/dist'),
      logFile: path.join(logDir, 'gateway-dead-upstreams.log'),
      ...common,
    });
    await waitReady(dead, `http://127.0.0.1:${deadGatewayPort}/ready`, 60000);

    Object.assign(process.env, {
      E2E_BASE_URL: stack.baseUrl,
      E2E_PAYPAL_URL: stack.paypalUrl,
      E2E_MAILPIT_URL: mailpit.url,
      E2E_METRICS_URLS: JSON.stringify(stack.metricsUrls),
      E2E_DEAD_GATEWAY_URL: `http://127.0.0.1:${deadGatewayPort}`,
      E2E_RUNNING_SERVICES: stack.running.join(','),
      E2E_MISSING_SERVICES: stack.missing.join(','),
      E2E_LOGINS: JSON.stringify(SEEDED_LOGINS),
      E2E_REDIS_URL: redisUrl,
      E2E_RABBITMQ_URL: rabbitUrl,
      E2E_NAMESPACE: common.extraEnv.RABBITMQ_NAMESPACE,
      // For fixtures no route can make (an order delivered 46 days ago): the stack's database server and names.
      E2E_MONGO_URL: mongoUrl,
      E2E_DB_PREFIX: process.env.TEST_E2E_DB_PREFIX || 'e2e_shop_',
      E2E_LOG_DIR: logDir,
      E2E_SCREENSHOT_DIR: path.join(DATA_DIR, 'screenshots'),
      E2E_CHROMIUM: JSON.stringify({ path: CHROMIUM_PATH, args: CHROMIUM_ARGS }),
    });
    log(
      `e2e: shop ready at ${stack.baseUrl} in ${formatMs(Date.now() - started)} (services: ${stack.running.join(', ') || 'none'}${stack.missing.length ? `; not built: ${stack.missing.join(', ')}` : ''})`,
    );
  } catch (err) {
    await stopAll();
    process.env.E2E_SETUP_ERROR = describeError(err);
    process.stderr.write(
      `\n[shop] e2e: the shop did not start, so every e2e test will fail with this reason:\n${process.env.E2E_SETUP_ERROR}\n\n`,
    );
  }
}
