// The shop with several replicas of every service, isolated from `npm start`, `npm test` and the e2e stack on one
// machine: its own ports (the defaults + CHAOS_PORT_OFFSET, 15000: gateway 23080, services 18001–18006 and their
// second replicas 18101–18106, the fake PayPal 23090, Mailpit SMTP 16025 and API 23025), its own FerretDB (27037,
// data in .data/replica-mongo, fresh each run), Redis db 5 (flushed), a fresh RabbitMQ vhost `shop_replicas`
// (RABBITMQ_NAMESPACE `replicas.`), a random JWT secret, seeded. Used by `npm run stack:replicas` and
// scripts/bench/chaos.mjs (docs/operations.md, "Two replicas of everything").
import fs from 'node:fs';
import path from 'node:path';
import {
  DEFAULT_RABBITMQ_URL,
  DEFAULT_REDIS_URL,
  ensureInfra,
  flushRedisDb,
  freshRabbitVhost,
  startFerret,
  startMailpit,
} from './infra.mjs';
import { randomSecret } from './secrets.mjs';
import { FAKE_PAYPAL_PORT, defaultPorts, startStack } from './stack.mjs';
import { DATA_DIR, LOG_DIR, StepError, log } from './util.mjs';

export const REPLICA_STACK = {
  portOffset: Number(process.env.CHAOS_PORT_OFFSET || 15000),
  ferretPort: Number(process.env.CHAOS_FERRET_PORT || 27037),
  redisDb: Number(process.env.CHAOS_REDIS_DB || 5),
  vhost: process.env.CHAOS_VHOST || 'shop_replicas',
  namespace: 'replicas.',
  scope: 'replicas',
};

/**
 * Starts FerretDB, Mailpit and the shop with `replicas` processes of each service. `extraEnv` goes to every
 * service (e.g. shorter sweeps for the chaos run). Resolves to { stack, ferret, mailpit, urls: {gateway, paypal,
 * mailpit, mongo, redis, rabbit}, vhost, logDir, restartMailpit(), stop() }.
 */
export async function startReplicaStack({ replicas = 2, extraEnv = {}, note = log, logLevel = 'warn' } = {}) {
  const { portOffset, ferretPort, redisDb, vhost, namespace, scope } = REPLICA_STACK;
  const logDir = path.join(LOG_DIR, scope);
  fs.rmSync(logDir, { recursive: true, force: true });
  fs.mkdirSync(logDir, { recursive: true });

  const redis = new URL(process.env.REDIS_URL || DEFAULT_REDIS_URL);
  const rabbit = new URL(process.env.RABBITMQ_URL || DEFAULT_RABBITMQ_URL);
  await ensureInfra({ note, redisUrl: redis.toString(), rabbitUrl: rabbit.toString() });
  redis.pathname = `/${redisDb}`;
  const redisUrl = redis.toString().replace(/\/$/, '');
  await flushRedisDb(redisUrl, redisDb);
  // A vhost of its own: dropping its broker connections touches no other stack's.
  if (!(await freshRabbitVhost(vhost)))
    throw new StepError(`the replica stack needs a RabbitMQ vhost of its own ("${vhost}"): run as root`);
  rabbit.pathname = `/${vhost}`;
  const rabbitUrl = rabbit.toString().replace(/\/$/, '');

  const started = [];
  const stopStarted = () => Promise.all(started.map((h) => h.stop()));
  try {
    const ferret = await startFerret({
      id: `${scope}-ferretdb`,
      port: ferretPort,
      dataDir: path.join(DATA_DIR, 'replica-mongo'),
      fresh: true,
      logFile: path.join(logDir, 'ferretdb.log'),
    });
    started.push(ferret);
    const mailpitDb = path.join(DATA_DIR, 'replica-mailpit', 'mailpit.db');
    fs.rmSync(path.dirname(mailpitDb), { recursive: true, force: true });
    const mailpitOptions = {
      id: `${scope}-mailpit`,
      smtpPort: 1025 + portOffset,
      httpPort: 8025 + portOffset,
      database: mailpitDb,
      maxMessages: 0, // every email is audited
      logFile: path.join(logDir, 'mailpit.log'),
    };
    let mailpit = await startMailpit(mailpitOptions);
    started.push(mailpit);

    const ports = Object.fromEntries(Object.entries(defaultPorts()).map(([name, port]) => [name, port + portOffset]));
    const stack = await startStack({
      scope,
      ports,
      mongoUrl: ferret.url,
      dbPrefix: 'replicas_shop_',
      redisUrl,
      rabbitUrl,
      jwtSecret: randomSecret(),
      nodeEnv: 'development',
      logLevel,
      logDir,
      paypalPort: FAKE_PAYPAL_PORT + portOffset,
      smtpUrl: mailpit.smtpUrl,
      replicas,
      extraEnv: { RABBITMQ_NAMESPACE: namespace, RATE_LIMIT_PREFIX: `${namespace}gw:rl`, ...extraEnv },
      note,
    });
    return {
      stack,
      ferret,
      get mailpit() {
        return mailpit;
      },
      urls: {
        gateway: stack.baseUrl,
        paypal: stack.paypalUrl,
        mailpit: mailpit.url,
        mongo: ferret.url,
        dbPrefix: 'replicas_shop_',
        redis: redisUrl,
        rabbit: rabbitUrl,
      },
      vhost,
      logDir,
      /** Starts Mailpit again on its ports with its mail (after it was stopped). */
      async restartMailpit() {
        mailpit = await startMailpit(mailpitOptions);
        started.push(mailpit);
        return mailpit;
      },
      async stop() {
        await stack.stop();
        await stopStarted();
      },
    };
  } catch (err) {
    await stopStarted();
    throw err;
  }
}
