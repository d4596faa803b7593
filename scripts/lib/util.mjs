// Small helpers shared by scripts/start.mjs, scripts/test.mjs, scripts/build.mjs and the e2e setup.
// Node builtins only: these run before (and without) any npm dependency.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const DATA_DIR = path.join(ROOT, '.data');
export const LOG_DIR = path.join(DATA_DIR, 'logs');
export const RUN_DIR = path.join(DATA_DIR, 'run');

/** A failure we can explain in one message: printed without a stack trace. */
export class StepError extends Error {
  constructor(message, { detail } = {}) {
    super(message);
    this.name = 'StepError';
    this.detail = detail;
  }
}

// A step's progress line (see step()) stays open while the step runs, so its notes and its outcome land on it. Anything
// else written to the terminal meanwhile ends that line first.
let openStep = null;

function endOpenLine() {
  if (openStep && !openStep.broken) {
    process.stdout.write('\n');
    openStep.broken = true;
  }
}

export function log(message) {
  endOpenLine();
  process.stdout.write(`[shop] ${message}\n`);
}

export function warn(message) {
  endOpenLine();
  process.stderr.write(`[shop] WARNING: ${message}\n`);
}

/** Writes `text` to the terminal (stdout, or `stream`) below any open progress line: child processes' output. */
export function writeOut(text, stream = process.stdout) {
  endOpenLine();
  stream.write(text);
}

export function formatMs(ms) {
  return ms < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(1)} s`;
}

/**
 * Runs one named step on one progress line: `[shop] <title> ... <notes> (<time>)`, or `... done (<time>)` when it
 * noted nothing, `... failed (<time>)` when it threw. `fn(note)` may add short notes to the line (what it found,
 * what it is doing); a note or a log line written after something else broke the line goes on a line of its own.
 * Records the time in `timings` when given.
 */
export async function step(title, fn, timings) {
  endOpenLine();
  const started = Date.now();
  const mine = { broken: false, noted: false, last: '...' };
  openStep = mine;
  process.stdout.write(`[shop] ${title} ...`);
  const note = (text) => {
    // after "…" a space, between two findings a comma
    if (openStep === mine && !mine.broken) process.stdout.write(`${mine.last.endsWith('...') ? ' ' : ', '}${text}`);
    else log(`${title}: ${text}`);
    mine.noted = true;
    mine.last = text;
  };
  const end = (outcome) => {
    if (openStep === mine) openStep = null;
    if (mine.broken) log(`${title}: ${outcome}`);
    else process.stdout.write(` ${outcome}\n`);
  };
  let result;
  try {
    result = await fn(note);
  } catch (err) {
    end(`failed (${formatMs(Date.now() - started)})`);
    throw err;
  }
  const ms = Date.now() - started;
  if (timings) timings.push([title, ms]);
  end(mine.noted && !mine.broken ? `(${formatMs(ms)})` : `done (${formatMs(ms)})`);
  return result;
}

export function describeError(err) {
  if (err instanceof StepError) return err.detail ? `${err.message}\n${err.detail}` : err.message;
  return err && err.stack ? err.stack : String(err);
}

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

export function mtimeMs(file) {
  try {
    return fs.statSync(file).mtimeMs;
  } catch {
    return 0;
  }
}

/** Newest modification time of any file under `dir` (recursively), skipping directories named in `skip`. */
export function newestMtime(dir, skip = ['node_modules', 'dist']) {
  let newest = 0;
  let entries;
  try {
    entries = fs.readdirSync(dir, { withFileTypes: true });
  } catch {
    return mtimeMs(dir);
  }
  for (const entry of entries) {
    if (skip.includes(entry.name)) continue;
    const full = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(full, skip) : mtimeMs(full));
  }
  return newest;
}

/** Finds an executable on PATH, also looking in the sbin directories a non-root PATH may lack. */
export function which(command, extraDirs = []) {
  const dirs = [
    ...(process.env.PATH || '').split(path.delimiter),
    '/usr/local/sbin',
    '/usr/sbin',
    '/sbin',
    ...extraDirs,
  ];
  for (const dir of dirs) {
    if (!dir) continue;
    const candidate = path.join(dir, command);
    try {
      fs.accessSync(candidate, fs.constants.X_OK);
      if (fs.statSync(candidate).isFile()) return candidate;
    } catch {
      // not here
    }
  }
  return null;
}

export const isRoot = () => typeof process.getuid === 'function' && process.getuid() === 0;

/** A log file under .data/logs/ for one build or install, emptied now; give it to run({ logFile }). */
export function freshLog(name) {
  const file = path.join(LOG_DIR, name);
  fs.mkdirSync(LOG_DIR, { recursive: true });
  fs.writeFileSync(file, `# ${new Date().toISOString()}\n`);
  return file;
}

const TAIL_LINES = 40;
const tail = (text) => text.trim().split('\n').slice(-TAIL_LINES).join('\n');

/**
 * Runs a command to completion. Its output goes:
 * - with `logFile`: to the end of that file (after a `$ command` line), and only its tail to the terminal, in the
 *   error, when the command fails — how builds and installs run. With `capture` too, stdout is returned instead.
 * - with `capture`: into the returned string (and the error when the command fails);
 * - else to this terminal, below any open step line.
 */
export function run(command, args = [], { cwd = ROOT, env = process.env, capture = false, logFile, what } = {}) {
  return new Promise((resolve, reject) => {
    let fd = null;
    let from = 0;
    if (logFile) {
      fs.mkdirSync(path.dirname(logFile), { recursive: true });
      fd = fs.openSync(logFile, 'a');
      fs.writeSync(fd, `$ ${[command, ...args].join(' ')}\n`);
      from = fs.fstatSync(fd).size;
    }
    const stdio = logFile ? ['ignore', capture ? 'pipe' : fd, fd] : ['ignore', 'pipe', 'pipe'];
    let child;
    try {
      child = spawn(command, args, { cwd, env, stdio });
    } finally {
      if (fd !== null) fs.closeSync(fd); // the child has its own copy
    }
    let output = '';
    if (capture) child.stdout.on('data', (d) => (output += d));
    if (capture && !logFile) child.stderr.on('data', (d) => (output += d));
    if (!capture && !logFile) {
      child.stdout.on('data', (d) => writeOut(d));
      child.stderr.on('data', (d) => writeOut(d, process.stderr));
    }
    const logged = () => {
      if (!logFile) return '';
      const text = fs.readFileSync(logFile).subarray(from).toString();
      return `${tail(text)}\n(the whole output: ${path.relative(ROOT, logFile)})`;
    };
    child.on('error', (err) => reject(new StepError(`${what || command}: could not run ${command}: ${err.message}`)));
    child.on('close', (code, signal) => {
      if (code === 0) resolve(output);
      else
        reject(
          new StepError(
            `${what || `${command} ${args.join(' ')}`} failed (${signal ? `signal ${signal}` : `exit code ${code}`})`,
            { detail: [capture ? tail(output) : '', logged()].filter(Boolean).join('\n') || undefined },
          ),
        );
    });
  });
}

/** Resolves true when something accepts TCP connections on host:port. */
export function isPortOpen(port, host = '127.0.0.1', timeoutMs = 1000) {
  return new Promise((resolve) => {
    const socket = net.connect({ port, host });
    const done = (open) => {
      socket.destroy();
      resolve(open);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

/** Polls `check` until it returns a truthy value; throws a StepError naming `what` after `timeoutMs`. */
export async function waitFor(check, { timeoutMs, intervalMs = 250, what }) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new StepError(`timed out after ${formatMs(timeoutMs)} waiting for ${what}`);
    await sleep(intervalMs);
  }
}

/** A port nothing listens on right now (bound by the OS, then released). */
export function closedPort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** host and port of a URL such as redis://127.0.0.1:6379 or amqp://guest:guest@127.0.0.1:5672. */
export function hostPort(url, defaultPort) {
  const u = new URL(url);
  return { host: u.hostname.replace(/^\[|\]$/g, ''), port: Number(u.port || defaultPort) };
}

export function readJson(file) {
  return JSON.parse(fs.readFileSync(file, 'utf8'));
}
