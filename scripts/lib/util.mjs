// Small helpers shared by scripts/start.mjs, scripts/test.mjs, scripts/build.mjs and the e2e setup.
// Node builtins only: these run before (and without) any npm dependency.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
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
// else written to the terminal meanwhile ends that line first; a step whose line was ended writes its notes and its
// outcome on lines of their own, each starting with its title (how steps running side by side show).
let openStep = null;
/** The steps running now, for the status line: { title, started }. */
const active = new Set();
// On a terminal, the last line shows the steps running and for how long, redrawn every second while no step's line is
// open (an open line is ended once it has been open LONG_LINE_MS). Elsewhere (a log, CI) a line every
// STATUS_EVERY_MS says what still runs.
const LONG_LINE_MS = 5000;
const STATUS_EVERY_MS = 30_000;
let statusShown = false;
let ticker = null;
let lastStatusLog = 0;

function clearStatus() {
  if (statusShown) {
    process.stdout.write('\r\x1b[K');
    statusShown = false;
  }
}

function endOpenLine() {
  clearStatus();
  if (openStep && !openStep.broken) {
    process.stdout.write('\n');
    openStep.broken = true;
  }
}

/** "build FerretDB 1 min 5 s, build web 12 s": the running steps (their titles up to any "(…)") and their time so far. */
export function runningSummary(steps, now = Date.now()) {
  return [...steps].map((s) => `${s.title.split(' (')[0]} ${formatElapsed(now - s.started)}`).join(', ');
}

/** 5 s, 59 s, 1 min 5 s: a step's time so far, to the second. */
export function formatElapsed(ms) {
  const s = Math.floor(ms / 1000);
  return s < 60 ? `${s} s` : `${Math.floor(s / 60)} min ${s % 60} s`;
}

function tick() {
  if (!active.size) return;
  const now = Date.now();
  if (!process.stdout.isTTY) {
    if (now - lastStatusLog >= STATUS_EVERY_MS) {
      lastStatusLog = now;
      log(`still running: ${runningSummary(active, now)}`);
    }
    return;
  }
  if (openStep && !openStep.broken) {
    if (now - openStep.started < LONG_LINE_MS) return;
    endOpenLine();
  }
  const line = `[shop] running: ${runningSummary(active, now)}`;
  const width = process.stdout.columns || 120;
  process.stdout.write(`\r\x1b[K${line.length >= width ? `${line.slice(0, width - 2)}…` : line}`);
  statusShown = true;
}

function track(mine) {
  active.add(mine);
  if (!ticker) {
    lastStatusLog = Date.now();
    ticker = setInterval(tick, 1000);
    ticker.unref();
  }
}

function untrack(mine) {
  active.delete(mine);
  if (!active.size && ticker) {
    clearInterval(ticker);
    ticker = null;
    clearStatus();
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
 * noted nothing, `... failed (<time>)` when it threw (`stopped` when stopCommands() ended it). `fn(note)` may add
 * short notes to the line (what it found, what it is doing). Steps may run side by side: once something else was
 * written, a step's notes go on lines of their own (`[shop] <title>: <note>`), and its outcome line repeats its last
 * note (`[shop] <title>: built (95.0 s)`). Records the time in `timings` when given.
 */
export async function step(title, fn, timings) {
  endOpenLine();
  const started = Date.now();
  const mine = { title, started, broken: false, noted: false, last: '...', pending: null };
  openStep = mine;
  track(mine);
  process.stdout.write(`[shop] ${title} ...`);
  const flush = () => {
    if (mine.pending === null) return;
    log(`${title}: ${mine.pending}`);
    mine.pending = null;
  };
  const note = (text) => {
    // after "…" a space, between two findings a comma
    if (openStep === mine && !mine.broken) process.stdout.write(`${mine.last.endsWith('...') ? ' ' : ', '}${text}`);
    else {
      // held until the next turn of the event loop: a note the step ends on right after joins its outcome's line
      flush();
      mine.pending = text;
      setImmediate(flush);
    }
    mine.noted = true;
    mine.last = text;
  };
  const end = (outcome) => {
    untrack(mine);
    if (openStep === mine) openStep = null;
    if (mine.broken) {
      mine.pending = null; // the outcome says it
      log(`${title}: ${outcome}`);
    } else {
      clearStatus();
      process.stdout.write(` ${outcome}\n`);
    }
  };
  let result;
  try {
    result = await fn(note);
  } catch (err) {
    flush();
    end(`${err?.stopped ? 'stopped' : 'failed'} (${formatMs(Date.now() - started)})`);
    throw err;
  }
  const ms = Date.now() - started;
  if (timings) timings.push([title, ms]);
  const time = `(${formatMs(ms)})`;
  // on a line of its own, the outcome repeats the last note (what the step found or did)
  end(!mine.noted ? `done ${time}` : mine.broken ? `${mine.last} ${time}` : time);
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
export function run(command, args = [], { cwd = ROOT, env = process.env, capture = false, logFile, what, nice } = {}) {
  installCommandsExitHandler();
  // `nice`: at that lower CPU priority (through nice(1) when there is one), until unniceCommands()
  const niceBin = nice ? which('nice') : null;
  if (niceBin) [command, args] = [niceBin, ['-n', String(nice), command, ...args]];
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
    child.niced = Boolean(niceBin);
    commands.add(child);
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
    child.on('error', (err) => {
      commands.delete(child);
      reject(new StepError(`${what || command}: could not run ${command}: ${err.message}`));
    });
    child.on('close', (code, signal) => {
      commands.delete(child);
      if (code === 0) resolve(output);
      else if (child.stoppedByUs) {
        const err = new StepError(`${what || command} was stopped`);
        err.stopped = true;
        reject(err);
      } else
        reject(
          new StepError(
            `${what || `${command} ${args.join(' ')}`} failed (${signal ? `signal ${signal}` : `exit code ${code}`})`,
            { detail: [capture ? tail(output) : '', logged()].filter(Boolean).join('\n') || undefined },
          ),
        );
    });
  });
}

/** The commands run() is running now (builds side by side, one in the background). */
const commands = new Set();

/**
 * Stops every command run() is running (SIGTERM): a failed build's siblings, the background build when the shop
 * stops. Their run() rejects with a StepError marked `stopped`. scripts/lib/procs.mjs stopAll() calls it.
 */
export function stopCommands() {
  for (const child of commands) {
    child.stoppedByUs = true;
    try {
      child.kill('SIGTERM');
    } catch {
      // already gone
    }
  }
}

/** The process ids under `pid` (its children, theirs, …), read from /proc (Linux). */
function descendants(pid) {
  const found = [];
  let tasks = [];
  try {
    tasks = fs.readdirSync(`/proc/${pid}/task`);
  } catch {
    return found;
  }
  for (const tid of tasks) {
    let children = '';
    try {
      children = fs.readFileSync(`/proc/${pid}/task/${tid}/children`, 'utf8');
    } catch {
      continue;
    }
    for (const child of children.split(' ').filter(Boolean).map(Number)) found.push(child, ...descendants(child));
  }
  return found;
}

/**
 * Gives the commands run() started with `nice` their normal CPU priority back (a background build once the builds
 * the user waits for are done), with the processes they started. Every thread: Linux keeps a priority per thread,
 * and `go` forks its compilers from any of its threads. Lowering a priority back needs root (or CAP_SYS_NICE):
 * otherwise they stay as they are. Returns whether it could.
 */
export function unniceCommands() {
  let ok = true;
  for (const child of commands) {
    if (!child.niced || !child.pid) continue;
    for (const pid of [child.pid, ...descendants(child.pid)]) {
      let tids = [];
      try {
        tids = fs.readdirSync(`/proc/${pid}/task`).map(Number);
      } catch {
        continue; // gone meanwhile
      }
      for (const tid of tids) {
        try {
          os.setPriority(tid, 0);
        } catch (err) {
          if (err.code === 'EACCES' || err.code === 'EPERM') ok = false;
        }
      }
    }
    child.niced = false;
  }
  return ok;
}

let commandsExitHandler = false;
function installCommandsExitHandler() {
  if (commandsExitHandler) return;
  commandsExitHandler = true;
  // process.exit() with a build still running (a background one): it must not outlive this script
  process.on('exit', () => {
    for (const child of commands) {
      try {
        child.kill('SIGKILL');
      } catch {
        // already gone
      }
    }
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
