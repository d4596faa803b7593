// The servers the shop needs around it: Redis and RabbitMQ (the machine's: started when installed but stopped,
// installed from Debian first when absent and this runs as root — scripts/lib/infra-plan.cjs decides), our
// embedded FerretDB (built from tools/ferretdb, started per run) and Mailpit, the development mail server (built
// with `go install` at a pinned version, started per run).
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { aptInstall } from './apt.mjs';
import { ensureServers } from './infra-plan.cjs';
import { startProcess, stopLeftover, exitReport } from './procs.mjs';
import {
  ROOT,
  StepError,
  freshLog,
  hostPort,
  isPortOpen,
  isRoot,
  log,
  mtimeMs,
  run,
  waitFor,
  warn,
  which,
} from './util.mjs';

export const DEFAULT_REDIS_URL = 'redis://127.0.0.1:6379';
export const DEFAULT_RABBITMQ_URL = 'amqp://guest:guest@127.0.0.1:5672';

const FERRET_SRC = path.join(ROOT, 'tools/ferretdb');
export const FERRET_BIN = path.join(ROOT, '.tools/bin/ferretdb-dev');
const FERRET_LOG = 'build-ferretdb.log';

/** redis-server, daemonized on 127.0.0.1:`port`, without persistence (carts expire; the rest is rebuilt). */
async function startRedis(server, { host, port }, note) {
  note(`starting Redis (${server}) ...`);
  for (const dir of ['/var/lib/redis', '/var/log/redis']) fs.mkdirSync(dir, { recursive: true });
  await run(
    server,
    [
      '--daemonize',
      'yes',
      '--bind',
      '127.0.0.1',
      '-::1',
      '--port',
      String(port),
      '--save',
      '',
      '--appendonly',
      'no',
      '--dir',
      '/var/lib/redis',
      '--logfile',
      '/var/log/redis/ci.log',
    ],
    { capture: true, what: 'starting redis-server' },
  );
  await waitFor(() => isPortOpen(port, host), {
    timeoutMs: 15000,
    what: `Redis on ${host}:${port} (log: /var/log/redis/ci.log)`,
  });
}

/** `rabbitmq-server -detached`, then up to 60 s for its port. */
async function startRabbitMQ(server, { host, port }, note) {
  note(`starting RabbitMQ (${server} -detached, up to 60 s) ...`);
  await run(server, ['-detached'], { capture: true, what: 'starting rabbitmq-server' });
  await waitFor(() => isPortOpen(port, host), {
    timeoutMs: 60000,
    intervalMs: 500,
    what: `RabbitMQ on ${host}:${port} (see /var/log/rabbitmq/)`,
  });
}

/**
 * Redis on REDIS_URL and RabbitMQ on RABBITMQ_URL (defaults on 127.0.0.1): nothing when they listen; started when
 * installed but stopped; installed from Debian first when absent and this runs as root; otherwise a StepError
 * with the command to run. `note` receives the progress and the outcome (one line).
 */
export async function ensureInfra({
  note = log,
  redisUrl = process.env.REDIS_URL || DEFAULT_REDIS_URL,
  rabbitUrl = process.env.RABBITMQ_URL || DEFAULT_RABBITMQ_URL,
} = {}) {
  const servers = [
    { name: 'Redis', binary: 'redis-server', pkg: 'redis-server', envVar: 'REDIS_URL', start: startRedis },
    {
      name: 'RabbitMQ',
      binary: 'rabbitmq-server',
      pkg: 'rabbitmq-server',
      envVar: 'RABBITMQ_URL',
      start: startRabbitMQ,
    },
  ].map((s, i) => ({ ...s, ...hostPort(i === 0 ? redisUrl : rabbitUrl, i === 0 ? 6379 : 5672) }));
  // one after the other: RabbitMQ's start may take most of a minute, and the notes stay readable
  const outcomes = await ensureServers(servers, {
    portOpen: (host, port) => isPortOpen(port, host),
    installed: (binary) => which(binary),
    isRoot,
    aptInstall: (packages) => aptInstall(packages, { note }),
    start: (server, binary) => server.start(binary, server, note),
    fail: (message) => new StepError(message),
  });
  note(outcomes.join(', '));
}

const FERRET_PATCHES = path.join(FERRET_SRC, 'patches');

/** The source patches (tools/ferretdb/patches/*.json) our build lays over FerretDB's module: see patchedFerretModFile. */
function ferretPatches() {
  return fs
    .readdirSync(FERRET_PATCHES)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => ({ name: f, ...JSON.parse(fs.readFileSync(path.join(FERRET_PATCHES, f), 'utf8')) }));
}

/** True when .tools/bin/ferretdb-dev is missing or older than its sources or patches. */
export function ferretNeedsBuild() {
  const built = mtimeMs(FERRET_BIN);
  if (!built) return true;
  const sources = ['main.go', 'go.mod', 'go.sum'].map((f) => path.join(FERRET_SRC, f));
  const patches = fs.readdirSync(FERRET_PATCHES, { recursive: true }).map((f) => path.join(FERRET_PATCHES, f));
  return [...sources, FERRET_PATCHES, ...patches].some((f) => mtimeMs(f) > built);
}

function makeWritable(dir) {
  fs.chmodSync(dir, 0o755);
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) makeWritable(file);
    else if (entry.isFile()) fs.chmodSync(file, 0o644);
  }
}

/**
 * Copies FerretDB's module (at the version go.mod requires) out of the Go module cache into .tools/ferretdb-src,
 * applies our patches there and writes a go.mod for `go build -modfile` that is tools/ferretdb/go.mod plus a
 * `replace` to the copy: tools/ferretdb and the module cache stay as they are. Each patches/*.json lists edits, each
 * replacing text that must be in its file as many times as it says (once unless `occurrences` is set), so an
 * upgrade that moves it fails the build loudly instead of dropping the patch; files under patches/_add/ (a folder
 * the go tool ignores) are added to the module at the same path.
 */
async function patchedFerretModFile(go, logFile) {
  const dir = path.join(ROOT, '.tools/ferretdb-src');
  if (fs.existsSync(dir)) makeWritable(dir); // a copy left by a build before this one was made writable; be sure
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  const module = 'github.com/FerretDB/FerretDB';
  const listed = await run(go, ['mod', 'download', '-json', module], {
    cwd: FERRET_SRC,
    capture: true,
    logFile,
    what: `go mod download ${module}`,
  });
  const { Dir, Version } = JSON.parse(listed);
  const copy = path.join(dir, `FerretDB@${Version}`);
  fs.cpSync(Dir, copy, { recursive: true });
  makeWritable(copy); // the module cache is read-only, and cpSync keeps modes: patches and the next clean need writes
  for (const patch of ferretPatches()) {
    if (patch.module !== module) throw new StepError(`tools/ferretdb/patches/${patch.name}: only ${module} is patched`);
    for (const edit of patch.edits) {
      const file = path.join(copy, edit.file);
      const text = fs.readFileSync(file, 'utf8');
      const occurrences = edit.occurrences ?? 1;
      if (text.split(edit.from).length !== occurrences + 1) {
        throw new StepError(
          `tools/ferretdb/patches/${patch.name} was written for ${module}@${patch.writtenFor}, but ${edit.file} of ${Version} does not hold this text ${occurrences} time(s): ${edit.from}`,
        );
      }
      fs.writeFileSync(file, text.replaceAll(edit.from, edit.to));
    }
  }
  const added = path.join(FERRET_PATCHES, '_add');
  if (fs.existsSync(added)) {
    fs.cpSync(added, copy, { recursive: true, force: true });
  }
  const modFile = path.join(dir, 'go.mod');
  fs.writeFileSync(
    modFile,
    `${fs.readFileSync(path.join(FERRET_SRC, 'go.mod'), 'utf8')}\nreplace ${module} => ${copy}\n`,
  );
  fs.copyFileSync(path.join(FERRET_SRC, 'go.sum'), path.join(dir, 'go.sum')); // -modfile reads the go.sum beside it
  return modFile;
}

/**
 * Builds the embedded FerretDB program when stale, its output (`go: downloading …`) in .data/logs/build-ferretdb.log.
 * Returns false when nothing had to be done.
 */
export async function buildFerret({ force = false, note = log } = {}) {
  if (!force && !ferretNeedsBuild()) return false;
  const go = which('go', ['/usr/local/go/bin']);
  if (!go) {
    throw new StepError(
      'The embedded FerretDB (tools/ferretdb) must be built, but the Go toolchain (`go`) is not installed or not on PATH (looked in PATH and /usr/local/go/bin).',
    );
  }
  const logFile = freshLog(FERRET_LOG);
  note(
    `building ${path.relative(ROOT, FERRET_BIN)} (about 2 minutes from a cold Go module cache; output in ${path.relative(ROOT, logFile)}) ...`,
  );
  fs.mkdirSync(path.dirname(FERRET_BIN), { recursive: true });
  const tmp = `${FERRET_BIN}.tmp`;
  // Build to a temporary name: an interrupted build must not leave a "fresh" broken binary behind.
  const modFile = await patchedFerretModFile(go, logFile);
  await run(go, ['build', `-modfile=${modFile}`, '-o', tmp, '.'], {
    cwd: FERRET_SRC,
    logFile,
    what: 'go build (tools/ferretdb)',
  });
  fs.renameSync(tmp, FERRET_BIN);
  return true;
}

/**
 * Starts FerretDB on 127.0.0.1:`port` with its SQLite files in `dataDir` (wiped first when `fresh`).
 * `id` names its pid file; `logFile` (optional) receives its output instead of the terminal.
 */
export async function startFerret({ id, port, dataDir, fresh = false, logFile, label = 'ferretdb' }) {
  if (!fs.existsSync(FERRET_BIN))
    throw new StepError(`${FERRET_BIN} is missing: build it first (npm run build, or npm start / npm test do it).`);
  await stopLeftover(id, FERRET_BIN);
  if (await isPortOpen(port)) {
    throw new StepError(
      `port ${port} is already in use, so FerretDB cannot listen there (another \`npm start\`/\`npm test\`, or a MongoDB?). Stop that program and retry.`,
    );
  }
  if (fresh) fs.rmSync(dataDir, { recursive: true, force: true });
  fs.mkdirSync(dataDir, { recursive: true });
  const handle = startProcess({
    id,
    label,
    command: FERRET_BIN,
    args: ['-listen', `127.0.0.1:${port}`, '-data', dataDir, '-log-level', 'warn'],
    cwd: ROOT,
    logFile,
    marker: FERRET_BIN,
  });
  let exited = false;
  handle.exited.then(() => (exited = true));
  // FerretDB listens once it has opened its databases; the first start of a build with order indexes
  // (tools/ferretdb/patches/sqlite-order-index.json) on data made by an older build creates them first: about a
  // minute for 100,000 orders, once.
  await waitFor(async () => exited || (await isPortOpen(port)), {
    timeoutMs: 180_000,
    what: `FerretDB on 127.0.0.1:${port}`,
  }).catch(async (err) => {
    await handle.stop(2000);
    throw err;
  });
  if (exited) throw new StepError(`FerretDB did not start on 127.0.0.1:${port}`, { detail: await exitReport(handle) });
  handle.url = `mongodb://127.0.0.1:${port}`;
  return handle;
}

/**
 * Makes a fresh RabbitMQ virtual host (deleted and re-created, guest given all rights) so a test stack
 * shares no queue with a dev stack or an earlier run. Needs rabbitmqctl, i.e. root on these machines.
 * Returns false (with a warning) when that is not possible; the caller then uses the default vhost.
 */
export async function freshRabbitVhost(vhost) {
  const ctl = which('rabbitmqctl');
  if (!ctl || !isRoot()) {
    warn(
      `cannot create the RabbitMQ vhost "${vhost}" (${ctl ? 'not root' : 'rabbitmqctl not found'}): the e2e stack uses the default vhost "/"`,
    );
    return false;
  }
  try {
    await run(ctl, ['-q', 'delete_vhost', vhost], { capture: true }).catch(() => undefined); // absent the first time
    await run(ctl, ['-q', 'add_vhost', vhost], { capture: true, what: `rabbitmqctl add_vhost ${vhost}` });
    await run(ctl, ['-q', 'set_permissions', '-p', vhost, 'guest', '.*', '.*', '.*'], {
      capture: true,
      what: `rabbitmqctl set_permissions -p ${vhost}`,
    });
    return true;
  } catch (err) {
    warn(`could not create the RabbitMQ vhost "${vhost}": ${err.message}; the e2e stack uses the default vhost "/"`);
    return false;
  }
}

/** Empties one Redis database (FLUSHDB on db `db`) over a plain socket. */
export function flushRedisDb(url, db) {
  const { host, port } = hostPort(url, 6379);
  const u = new URL(url);
  const cmds = [];
  if (u.password)
    cmds.push(
      u.username
        ? ['AUTH', decodeURIComponent(u.username), decodeURIComponent(u.password)]
        : ['AUTH', decodeURIComponent(u.password)],
    );
  cmds.push(['SELECT', String(db)], ['FLUSHDB']);
  const payload = cmds
    .map((c) => `*${c.length}\r\n${c.map((a) => `$${Buffer.byteLength(a)}\r\n${a}\r\n`).join('')}`)
    .join('');
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host, port });
    let reply = '';
    socket.setTimeout(5000, () => {
      socket.destroy();
      reject(new StepError(`Redis at ${host}:${port} did not answer FLUSHDB`));
    });
    socket.on('connect', () => socket.write(payload));
    socket.on('data', (d) => {
      reply += d;
      const lines = reply.split('\r\n').filter(Boolean);
      if (lines.some((l) => l.startsWith('-'))) {
        socket.destroy();
        reject(new StepError(`Redis refused FLUSHDB on db ${db}: ${reply.trim()}`));
      } else if (lines.length >= cmds.length) {
        socket.end();
        resolve();
      }
    });
    socket.on('error', (err) => reject(new StepError(`Redis at ${host}:${port}: ${err.message}`)));
  });
}

export const MAILPIT_MODULE = 'github.com/axllent/mailpit';
/** The Mailpit release `npm start` and the tests run (docker compose runs its image, axllent/mailpit:v1.33). */
export const MAILPIT_VERSION = 'v1.33.1';
export const MAILPIT_BIN = path.join(ROOT, '.tools/bin/mailpit');
/** Beside the binary: the version it was built from (a `go install` binary does not say, `mailpit version` reads "dev"). */
const MAILPIT_STAMP = `${MAILPIT_BIN}.version`;

/** True when .tools/bin/mailpit is missing or was built from another version than MAILPIT_VERSION. */
export function mailpitNeedsBuild() {
  if (!mtimeMs(MAILPIT_BIN)) return true;
  try {
    return fs.readFileSync(MAILPIT_STAMP, 'utf8').trim() !== `${MAILPIT_MODULE}@${MAILPIT_VERSION}`;
  } catch {
    return true;
  }
}

/**
 * Builds Mailpit when stale: `go install github.com/axllent/mailpit@<version>` through the Go module proxy (about 2
 * minutes from a cold Go module cache), output in .data/logs/build-mailpit.log. At the lowest CPU priority (`nice -n
 * 19`, when there is a `nice`): it runs beside the builds the shop waits for and must not slow them down, taking the
 * CPU they leave (at `nice 10` it still took about a tenth of a busy core from them); start.mjs gives it its normal
 * priority back once the shop is ready, test.mjs once the other builds are done (util.mjs unniceCommands). Returns
 * false when nothing had to be done.
 */
export async function buildMailpit({ force = false, note = log } = {}) {
  if (!force && !mailpitNeedsBuild()) return false;
  const go = which('go', ['/usr/local/go/bin']);
  if (!go) {
    throw new StepError(
      'Mailpit (the development mail server) must be built, but the Go toolchain (`go`) is not installed or not on PATH (looked in PATH and /usr/local/go/bin).',
    );
  }
  const logFile = freshLog('build-mailpit.log');
  note(
    `building ${path.relative(ROOT, MAILPIT_BIN)} (${MAILPIT_MODULE}@${MAILPIT_VERSION}; about 2 minutes from a cold Go module cache; output in ${path.relative(ROOT, logFile)}) ...`,
  );
  // Into a directory of its own, then renamed: an interrupted build must not leave a "fresh" broken binary behind.
  const gobin = path.join(ROOT, `.tools/mailpit-build-${process.pid}`);
  fs.rmSync(gobin, { recursive: true, force: true });
  try {
    await run(go, ['install', `${MAILPIT_MODULE}@${MAILPIT_VERSION}`], {
      nice: 19,
      cwd: ROOT,
      env: { ...process.env, GOBIN: gobin, GOFLAGS: [process.env.GOFLAGS, '-trimpath'].filter(Boolean).join(' ') },
      logFile,
      what: `go install ${MAILPIT_MODULE}@${MAILPIT_VERSION}`,
    });
    fs.mkdirSync(path.dirname(MAILPIT_BIN), { recursive: true });
    fs.renameSync(path.join(gobin, 'mailpit'), MAILPIT_BIN);
    fs.writeFileSync(MAILPIT_STAMP, `${MAILPIT_MODULE}@${MAILPIT_VERSION}\n`);
  } finally {
    fs.rmSync(gobin, { recursive: true, force: true });
  }
  return true;
}

/**
 * Starts Mailpit on 127.0.0.1: SMTP on `smtpPort`, the web inbox and its API on `httpPort`. Messages are kept in
 * `database` (a SQLite file; a temporary one Mailpit deletes on exit when not given). Resolves to the process
 * handle with `smtpUrl` and `url` (the inbox and API) once both ports answer.
 */
export async function startMailpit({ id, smtpPort, httpPort, database, logFile, label = 'mailpit', maxMessages }) {
  if (!fs.existsSync(MAILPIT_BIN))
    throw new StepError(`${MAILPIT_BIN} is missing: build it first (npm run build, or npm start / npm test do it).`);
  await stopLeftover(id, MAILPIT_BIN);
  for (const [what, port] of [
    ['SMTP', smtpPort],
    ['web inbox', httpPort],
  ]) {
    if (await isPortOpen(port))
      throw new StepError(
        `port ${port} is already in use, so Mailpit cannot take its ${what} there (another \`npm start\`/\`npm test\`, or a Mailpit?). Stop that program and retry.`,
      );
  }
  const args = [
    '--smtp',
    `127.0.0.1:${smtpPort}`,
    '--listen',
    `127.0.0.1:${httpPort}`,
    // Any login is accepted and none is needed; no call home, no reverse DNS of each client.
    '--smtp-auth-accept-any',
    '--smtp-auth-allow-insecure',
    '--disable-version-check',
    '--smtp-disable-rdns',
    '--quiet',
  ];
  if (database) {
    fs.mkdirSync(path.dirname(database), { recursive: true });
    args.push('--database', database);
  }
  // Mailpit keeps the newest 500 messages unless told otherwise (0: every message)
  if (maxMessages !== undefined) args.push('--max', String(maxMessages));
  const handle = startProcess({ id, label, command: MAILPIT_BIN, args, cwd: ROOT, logFile, marker: MAILPIT_BIN });
  let exited = false;
  handle.exited.then(() => (exited = true));
  await waitFor(async () => exited || ((await isPortOpen(smtpPort)) && (await isPortOpen(httpPort))), {
    timeoutMs: 30000,
    what: `Mailpit on 127.0.0.1:${smtpPort} (SMTP) and :${httpPort} (inbox)`,
  }).catch(async (err) => {
    await handle.stop(2000);
    throw err;
  });
  if (exited)
    throw new StepError(`Mailpit did not start on 127.0.0.1:${smtpPort}`, { detail: await exitReport(handle) });
  handle.smtpUrl = `smtp://127.0.0.1:${smtpPort}`;
  handle.url = `http://127.0.0.1:${httpPort}`;
  return handle;
}
