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

export function log(message) {
  process.stdout.write(`[shop] ${message}\n`);
}

export function warn(message) {
  process.stderr.write(`[shop] WARNING: ${message}\n`);
}

export function formatMs(ms) {
  return ms < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(1)} s`;
}

/** Runs one named step, printing its start and how long it took. Records the time in `timings` when given. */
export async function step(title, fn, timings) {
  const started = Date.now();
  log(`${title} ...`);
  const result = await fn();
  const ms = Date.now() - started;
  if (timings) timings.push([title, ms]);
  log(`${title}: done (${formatMs(ms)})`);
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

/**
 * Runs a command to completion. Output goes to this terminal unless `capture` is set, in which case
 * stdout+stderr are returned (and shown in the error when the command fails).
 */
export function run(command, args = [], { cwd = ROOT, env = process.env, capture = false, what } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd,
      env,
      stdio: capture ? ['ignore', 'pipe', 'pipe'] : ['ignore', 'inherit', 'inherit'],
    });
    let output = '';
    if (capture) {
      child.stdout.on('data', (d) => (output += d));
      child.stderr.on('data', (d) => (output += d));
    }
    child.on('error', (err) => reject(new StepError(`${what || command}: could not run ${command}: ${err.message}`)));
    child.on('close', (code, signal) => {
      if (code === 0) resolve(output);
      else
        reject(
          new StepError(
            `${what || `${command} ${args.join(' ')}`} failed (${signal ? `signal ${signal}` : `exit code ${code}`})`,
            {
              detail: capture ? output.trim().split('\n').slice(-40).join('\n') : undefined,
            },
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
