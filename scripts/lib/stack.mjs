// The running shop: every built service plus the gateway as child processes, seeded, checked ready.
// Used by `npm start` (dev ports, output to the terminal) and by the e2e jest setup (test ports, logs
// in files). Services are discovered: services/<name>/package.json makes a service; it runs when
// services/<name>/dist/main.js exists.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { nodeFlags } from './node-flags.cjs';
import { exitReport, startProcess, stopLeftover } from './procs.mjs';
import { ROOT, StepError, formatMs, isPortOpen, log, sleep, warn } from './util.mjs';

/** Logins the identity seed creates (SPEC: printed by `npm start` and listed in the README). */
export const SEEDED_LOGINS = [
  { role: 'admin', email: 'admin@example.com', password: 'Admin!2345' },
  { role: 'customer', email: 'customer@example.com', password: 'Customer!2345' },
];

/** The fake PayPal (packages/fake-paypal) that npm start and the e2e stack run instead of PayPal. */
export const FAKE_PAYPAL_PORT = 8090;
const FAKE_PAYPAL_MAIN = path.join(ROOT, 'packages/fake-paypal/dist/main.js');

/** The gateway serves GET /metrics on its port + this (9080 beside 8080), unless told otherwise. */
export const GATEWAY_METRICS_PORT_OFFSET = 1000;

/** Kept in step with DEFAULT_PORTS in packages/contracts/src/services.ts, which wins when built. */
const FALLBACK_PORTS = {
  gateway: 8080,
  catalog: 3001,
  cart: 3002,
  identity: 3003,
  checkout: 3004,
  orders: 3005,
  notifications: 3006,
};

/** The default ports (gateway and each service), read from the built contracts package when present. */
export function defaultPorts() {
  const built = path.join(ROOT, 'packages/contracts/dist/services.js');
  try {
    if (fs.existsSync(built)) {
      const { DEFAULT_PORTS } = createRequire(import.meta.url)(built);
      if (DEFAULT_PORTS && DEFAULT_PORTS.gateway) return { ...FALLBACK_PORTS, ...DEFAULT_PORTS };
    }
  } catch (err) {
    warn(`could not read DEFAULT_PORTS from ${built}: ${err.message}; using the built-in table`);
  }
  return { ...FALLBACK_PORTS };
}

/** Every service on disk: { name, dir, main (dist/main.js or null), seed (dist/seed/seed.main.js or null) }. */
export function discoverServices() {
  const dir = path.join(ROOT, 'services');
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir)
    .sort()
    .filter((name) => fs.existsSync(path.join(dir, name, 'package.json')))
    .map((name) => {
      const main = path.join(dir, name, 'dist/main.js');
      const seed = path.join(dir, name, 'dist/seed/seed.main.js');
      return {
        name,
        dir: path.join(dir, name),
        main: fs.existsSync(main) ? main : null,
        seed: fs.existsSync(seed) ? seed : null,
      };
    });
}

/** A service's second replica listens on its port + this (3101 beside 3001), its third + twice this, … */
export const REPLICA_PORT_STEP = 100;

/** The port of replica `r` (0-based) of a service whose first replica listens on `port`. */
export const replicaPort = (port, r) => port + r * REPLICA_PORT_STEP;

/** NODE_OPTIONS of one of the stack's processes: the caller's own, then the shop's V8 flags (node-flags.cjs). */
const nodeOptions = (name) => [process.env.NODE_OPTIONS, nodeFlags(name)].filter(Boolean).join(' ');

/** The URL env names the gateway reads: CATALOG_URL, CART_URL, ... */
export const upstreamEnvName = (service) => `${service.toUpperCase().replace(/[^A-Z0-9]/g, '_')}_URL`;

async function ready(url) {
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(2000) });
    await res.arrayBuffer();
    return res.status === 200;
  } catch {
    return false;
  }
}

/** Waits for GET `url` to answer 200, failing at once (with the tail of its output) if the process exits. */
async function waitReady(handle, url, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (!handle.running())
      throw new StepError(`${handle.label} stopped before it was ready`, { detail: await exitReport(handle) });
    if (await ready(url)) return;
    await sleep(250);
  }
  throw new StepError(`${handle.label} was not ready within ${formatMs(timeoutMs)} (GET ${url} never answered 200)`, {
    detail: await exitReport(handle),
  });
}

async function runToCompletion(handle, what) {
  const info = await handle.exited;
  if (info.code !== 0) throw new StepError(`${what} failed`, { detail: await exitReport(handle) });
}

/**
 * Starts the shop and resolves when every process answers GET /ready with 200.
 *
 * options:
 * - scope: 'dev' | 'e2e' | ... (names the pid files and log directory)
 * - ports: { gateway, <service>: port } (default: defaultPorts())
 * - mongoUrl: base URL of the MongoDB-wire server, e.g. mongodb://127.0.0.1:27017
 * - dbPrefix: database name prefix ('shop_' gives shop_identity, ...)
 * - redisUrl, rabbitUrl, jwtSecret, nodeEnv, logLevel
 * - logDir: write each process's output to <logDir>/<name>.log instead of the terminal
 * - extraEnv: added to every service's environment (and the gateway's)
 * - envOf: { <service>: env } added to that service's environment only (after extraEnv)
 * - seed: run each service's seed program first (default true)
 * - readyTimeoutMs: per process (default 90 s: the services start in parallel on 2 cores)
 * - paypalPort: where the fake PayPal listens (default FAKE_PAYPAL_PORT); checkout is pointed at it
 * - smtpUrl: where notifications sends its email (the run's Mailpit); publicUrl: the shop's address in the emails'
 *   links (default http://localhost:<gateway port>)
 * - metricsPort: the gateway's METRICS_PORT (default the gateway's port + 1000: 9080 for npm start)
 * - note: receives the progress (seeds, ready), default a log line each (npm start passes its step's note)
 * - replicas: processes of each service (default 1); replica r (0-based) listens on its port + r × REPLICA_PORT_STEP,
 *   and the gateway takes them in turn (its <SERVICE>_URL a comma list)
 *
 * Resolves to { baseUrl, metricsUrls: { gateway, <service>: …/metrics }, running: [names],
 * missing: [names without dist/main.js], handles, processes, restart(id), stop() }. `processes` lists every service
 * replica and the gateway as { id, name, replica, port, handle }; `restart(id)` starts one of them again, as it was
 * started, once its process has exited (resolves with the new handle once it answers /ready).
 * On failure everything it started is stopped before the error is thrown.
 */
export async function startStack(options) {
  const {
    scope,
    ports = defaultPorts(),
    mongoUrl,
    dbPrefix = 'shop_',
    redisUrl,
    rabbitUrl,
    jwtSecret,
    nodeEnv = 'development',
    logLevel = 'info',
    logDir,
    extraEnv = {},
    envOf = {},
    seed = true,
    readyTimeoutMs = 90000,
    webDist = path.join(ROOT, 'web/dist'),
    paypalPort = FAKE_PAYPAL_PORT,
    smtpUrl,
    publicUrl = `http://localhost:${ports.gateway}`,
    note = log,
    replicas = 1,
  } = options;
  if (!Number.isInteger(replicas) || replicas < 1 || replicas > 9)
    throw new StepError(`replicas must be a whole number from 1 to 9 (got ${replicas})`);
  const metricsPort = options.metricsPort ?? ports.gateway + GATEWAY_METRICS_PORT_OFFSET;
  const services = discoverServices();
  const runnable = services.filter((s) => s.main);
  const missing = services.filter((s) => !s.main).map((s) => s.name);
  if (missing.length) warn(`not built, so not started (no dist/main.js): ${missing.join(', ')}`);
  if (!fs.existsSync(path.join(ROOT, 'gateway/dist/main.js')))
    throw new StepError('gateway/dist/main.js is missing: the gateway is not built (npm run build).');
  for (const s of runnable)
    if (!ports[s.name])
      throw new StepError(
        `no port for service "${s.name}": add it to DEFAULT_PORTS in packages/contracts/src/services.ts`,
      );

  // mongodb://host:port[/db][?options] -> mongodb://host:port/<prefix><service>[?options]
  const [hostPart, query] = mongoUrl.split('?');
  const base = hostPart.replace(/^(mongodb(?:\+srv)?:\/\/[^/]+).*$/, '$1');
  const mongoUri = (service) => `${base}/${dbPrefix}${service}${query ? `?${query}` : ''}`;
  // The fake PayPal approves every payment: checkout refuses it in production, and so does the fake itself.
  const paypalUrl = `http://127.0.0.1:${paypalPort}`;
  const paypalEnv = {
    PAYPAL_MODE: 'fake',
    PAYPAL_API_BASE: paypalUrl,
    PAYPAL_PUBLIC_API_BASE: paypalUrl,
    PAYPAL_CLIENT_ID: 'fake-client-id',
    PAYPAL_CLIENT_SECRET: 'fake-client-secret',
    // The fake signs its webhook events for this id, and checkout verifies them for it.
    PAYPAL_WEBHOOK_ID: 'FAKEWEBHOOKID',
  };
  const serviceEnv = (s, replica = 0) => ({
    ...process.env,
    NODE_OPTIONS: nodeOptions(s.name),
    ...(s.name === 'checkout' ? paypalEnv : {}),
    ...(s.name === 'notifications' ? { PUBLIC_URL: publicUrl, ...(smtpUrl ? { SMTP_URL: smtpUrl } : {}) } : {}),
    // Image URLs carry the gateway's address in development (catalog README): this stack's, whatever its port.
    ...(s.name === 'catalog' && nodeEnv === 'development' && !process.env.ASSET_URL_PREFIX
      ? { ASSET_URL_PREFIX: `http://localhost:${ports.gateway}` }
      : {}),
    ...extraEnv,
    ...envOf[s.name],
    PORT: String(replicaPort(ports[s.name], replica)),
    MONGO_URI: mongoUri(s.name),
    REDIS_URL: redisUrl,
    RABBITMQ_URL: rabbitUrl,
    JWT_SECRET: jwtSecret,
    NODE_ENV: nodeEnv,
    LOG_LEVEL: logLevel,
  });
  const logFile = (name) => (logDir ? path.join(logDir, `${name}.log`) : undefined);
  const handles = [];
  const stop = async () => {
    await Promise.all(handles.map((h) => h.stop()));
  };
  // Each service replica and the gateway: how to start it (again).
  const processes = [];
  const replicaId = (s, r) => (r === 0 ? `${scope}-${s.name}` : `${scope}-${s.name}-${r + 1}`);
  const spawnReplica = (s, r) =>
    startProcess({
      id: replicaId(s, r),
      label: r === 0 ? s.name : `${s.name}-${r + 1}`,
      command: process.execPath,
      args: [s.main],
      env: serviceEnv(s, r),
      cwd: s.dir,
      logFile: logFile(r === 0 ? s.name : `${s.name}-${r + 1}`),
      marker: s.main,
    });
  const gatewayOptions = {
    scope,
    port: ports.gateway,
    metricsPort,
    ports,
    upstreams: Object.fromEntries(
      runnable.map((s) => [
        s.name,
        Array.from({ length: replicas }, (_, r) => `http://127.0.0.1:${replicaPort(ports[s.name], r)}`).join(','),
      ]),
    ),
    redisUrl,
    webDist,
    logFile: logFile('gateway'),
    extraEnv,
    nodeEnv,
    logLevel,
  };
  const readyUrl = (p) => `http://127.0.0.1:${p.port}/ready`;

  try {
    // Free our ports from leftovers of an earlier crashed run (by pid file), then insist they are free.
    await Promise.all([
      ...runnable.flatMap((s) => Array.from({ length: replicas }, (_, r) => stopLeftover(replicaId(s, r), s.main))),
      stopLeftover(`${scope}-gateway`, path.join(ROOT, 'gateway/dist/main.js')),
      stopLeftover(`${scope}-fake-paypal`, FAKE_PAYPAL_MAIN),
    ]);
    const wanted = [
      ...runnable.flatMap((s) =>
        Array.from({ length: replicas }, (_, r) => [
          r === 0 ? s.name : `${s.name}-${r + 1}`,
          replicaPort(ports[s.name], r),
        ]),
      ),
      ['gateway', ports.gateway],
      ['the gateway metrics', metricsPort],
      ['the fake PayPal', paypalPort],
    ];
    for (const [name, port] of wanted) {
      if (await isPortOpen(port))
        throw new StepError(`port ${port} (for ${name}) is already in use by another program: stop it and retry`);
    }

    if (seed) {
      for (const s of runnable.filter((x) => x.seed)) {
        const started = Date.now();
        const h = startProcess({
          id: `${scope}-seed-${s.name}`,
          label: `seed:${s.name}`,
          command: process.execPath,
          args: [s.seed],
          env: serviceEnv(s),
          cwd: s.dir,
          logFile: logFile(`seed-${s.name}`),
          marker: s.seed,
        });
        await runToCompletion(h, `the ${s.name} seed (${path.relative(ROOT, s.seed)})`);
        note(`seeded ${s.name} (${formatMs(Date.now() - started)})`);
      }
    }

    const started = Date.now();
    const waits = [];
    if (!fs.existsSync(FAKE_PAYPAL_MAIN))
      throw new StepError(
        `${path.relative(ROOT, FAKE_PAYPAL_MAIN)} is missing: the fake PayPal is not built (npm run build).`,
      );
    const paypal = startProcess({
      id: `${scope}-fake-paypal`,
      label: 'fake-paypal',
      command: process.execPath,
      args: [FAKE_PAYPAL_MAIN],
      env: {
        ...process.env,
        ...paypalEnv,
        FAKE_PAYPAL_PORT: String(paypalPort),
        // PayPal's webhook events reach the shop as PayPal's would: through the gateway (retried until it is up).
        FAKE_PAYPAL_WEBHOOK_URL: `http://127.0.0.1:${ports.gateway}/api/paypal/webhooks`,
        NODE_ENV: nodeEnv,
      },
      cwd: path.join(ROOT, 'packages/fake-paypal'),
      logFile: logFile('fake-paypal'),
      marker: FAKE_PAYPAL_MAIN,
    });
    handles.push(paypal);
    waits.push(waitReady(paypal, `${paypalUrl}/__fake/health`, readyTimeoutMs));
    for (const s of runnable) {
      for (let r = 0; r < replicas; r++) {
        const h = spawnReplica(s, r);
        const p = { id: h.id, name: s.name, replica: r, port: replicaPort(ports[s.name], r), handle: h };
        p.spawn = () => spawnReplica(s, r);
        processes.push(p);
        handles.push(h);
        waits.push(waitReady(h, readyUrl(p), readyTimeoutMs));
      }
    }
    const gateway = startGateway(gatewayOptions);
    processes.push({
      id: gateway.id,
      name: 'gateway',
      replica: 0,
      port: ports.gateway,
      handle: gateway,
      spawn: () => startGateway(gatewayOptions),
    });
    handles.push(gateway);
    waits.push(waitReady(gateway, `http://127.0.0.1:${ports.gateway}/ready`, readyTimeoutMs));
    await Promise.all(waits);
    note(
      `${runnable.length} service(s)${replicas > 1 ? ` × ${replicas} replicas` : ''} and the gateway ready in ${formatMs(Date.now() - started)}`,
    );
  } catch (err) {
    await stop();
    throw err;
  }

  return {
    baseUrl: `http://127.0.0.1:${ports.gateway}`,
    // Prometheus endpoints: the gateway's own metrics listener, and each service's internal port.
    metricsUrls: {
      gateway: `http://127.0.0.1:${metricsPort}/metrics`,
      ...Object.fromEntries(runnable.map((s) => [s.name, `http://127.0.0.1:${ports[s.name]}/metrics`])),
    },
    paypalUrl,
    running: runnable.map((s) => s.name),
    missing,
    handles,
    processes,
    restart,
    stop,
  };

  /** Starts process `id` again (it must have exited), resolves with its new handle once it answers /ready. */
  async function restart(id, timeoutMs = readyTimeoutMs) {
    const p = processes.find((x) => x.id === id);
    if (!p) throw new StepError(`no process ${id} in this stack`);
    if (p.handle.running()) throw new StepError(`${id} is still running`);
    handles.splice(handles.indexOf(p.handle), 1);
    p.handle = p.spawn();
    handles.push(p.handle);
    await waitReady(p.handle, readyUrl(p), timeoutMs);
    return p.handle;
  }
}

/**
 * Starts one gateway process. `upstreams` overrides the URL of any service (used by e2e to point a second
 * gateway at a port where nothing listens); otherwise each service is http://127.0.0.1:<ports[name]>.
 */
export function startGateway({
  scope,
  id = `${scope}-gateway`,
  label = 'gateway',
  port,
  metricsPort,
  ports = defaultPorts(),
  upstreams = {},
  redisUrl,
  webDist,
  logFile,
  extraEnv = {},
  nodeEnv = 'development',
  logLevel = 'info',
}) {
  const main = path.join(ROOT, 'gateway/dist/main.js');
  // READY_CHECK_UPSTREAMS=false: we wait for each service's /ready ourselves, and a service that is not
  // built yet must not keep the gateway "not ready" (its routes answer 503 JSON meanwhile).
  const env = {
    READY_CHECK_UPSTREAMS: 'false',
    ...process.env,
    NODE_OPTIONS: nodeOptions('gateway'),
    ...extraEnv,
    PORT: String(port),
    // GET /metrics on a listener of its own (never the public port); off unless given.
    METRICS_PORT: metricsPort ? String(metricsPort) : 'off',
    REDIS_URL: redisUrl,
    WEB_DIST: webDist,
    NODE_ENV: nodeEnv,
    LOG_LEVEL: logLevel,
  };
  for (const [name, p] of Object.entries(ports)) {
    if (name === 'gateway') continue;
    env[upstreamEnvName(name)] = upstreams[name] || `http://127.0.0.1:${p}`;
  }
  return startProcess({
    id,
    label,
    command: process.execPath,
    args: [main],
    env,
    cwd: path.join(ROOT, 'gateway'),
    logFile,
    marker: main,
  });
}

export { waitReady };
