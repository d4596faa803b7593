// Long-running child processes (FerretDB, services, gateway) that we start and must always stop:
// output prefixed to the terminal or written to a log file, the last lines kept for error messages,
// a pid file per process so a leftover from a crashed run is found and stopped by its id next time,
// and exit/signal handlers so that none outlives the script that started it.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { RUN_DIR, StepError, log, sleep, stopCommands, writeOut } from './util.mjs';

const live = new Set();
const COLORS = [36, 33, 35, 32, 34, 96, 93, 95, 92, 94];
let colorIndex = 0;

function pidFile(id) {
  return path.join(RUN_DIR, `${id}.pid`);
}

function processCmdline(pid) {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ');
  } catch {
    return null;
  }
}

/**
 * Stops a process left behind by an earlier run under the same id, if its pid file names a live
 * process whose command line still contains `marker` (so an unrelated process that reused the pid is
 * left alone).
 */
export async function stopLeftover(id, marker) {
  const file = pidFile(id);
  let pid;
  try {
    pid = Number(JSON.parse(fs.readFileSync(file, 'utf8')).pid);
  } catch {
    return;
  }
  const cmdline = pid ? processCmdline(pid) : null;
  if (cmdline && cmdline.includes(marker)) {
    log(`stopping a leftover ${id} (pid ${pid}) from an earlier run`);
    try {
      process.kill(pid, 'SIGTERM');
    } catch {
      // already gone
    }
    for (let i = 0; i < 50 && processCmdline(pid); i++) await sleep(100);
    if (processCmdline(pid)) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // already gone
      }
      await sleep(200);
    }
  }
  fs.rmSync(file, { force: true });
}

/**
 * Starts a long-running process.
 * - `id`: unique name for the pid file (e.g. "dev-identity"); `label`: shown as the output prefix.
 * - `logFile`: write output there; otherwise it is forwarded to this terminal with a coloured prefix.
 * Returns a handle: { id, label, pid, exited (promise of {code, signal}), running(), tail(n), stop() }.
 */
export function startProcess({ id, label = id, command, args = [], env, cwd, logFile, marker = command }) {
  fs.mkdirSync(RUN_DIR, { recursive: true });
  const child = spawn(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  const tailLines = [];
  let out = null;
  if (logFile) {
    fs.mkdirSync(path.dirname(logFile), { recursive: true });
    out = fs.createWriteStream(logFile, { flags: 'a' });
  }
  const color = COLORS[colorIndex++ % COLORS.length];
  const prefix = process.stdout.isTTY ? `\x1b[${color}m${label.padEnd(9)}|\x1b[0m ` : `${label.padEnd(9)}| `;

  // A chunk's lines go out in one write: a service under load logs in 4 KB blocks, and a write per line was a
  // syscall per line in this process, on the CPU the shop itself runs on.
  const onLines = (stream) => {
    let partial = '';
    stream.setEncoding('utf8'); // a character split between two chunks stays whole
    stream.on('data', (chunk) => {
      const lines = (partial + chunk).split('\n');
      partial = lines.pop();
      emit(lines);
    });
    stream.on('end', () => partial && emit([partial]));
  };
  const emit = (lines) => {
    if (!lines.length) return;
    tailLines.push(...lines);
    if (tailLines.length > 60) tailLines.splice(0, tailLines.length - 60);
    if (out) out.write(`${lines.join('\n')}\n`);
    else writeOut(`${lines.map((line) => prefix + line).join('\n')}\n`);
  };
  onLines(child.stdout);
  onLines(child.stderr);

  let exitInfo = null;
  const handle = {
    id,
    label,
    pid: child.pid,
    logFile,
    child,
    running: () => exitInfo === null,
    tail: (n = 30) => tailLines.slice(-n).join('\n'),
    exited: new Promise((resolve) => {
      child.on('error', (err) => {
        emit([`could not start ${command}: ${err.message}`]);
        exitInfo = { code: null, signal: null, error: err };
        resolve(exitInfo);
      });
      child.on('exit', (code, signal) => {
        // give the pipes a moment to deliver the last lines
        setTimeout(() => {
          exitInfo = { code, signal };
          resolve(exitInfo);
        }, 50);
      });
    }),
    stop: (timeoutMs = 10000) => stopOne(handle, timeoutMs),
  };
  handle.exited.then(() => {
    live.delete(handle);
    fs.rmSync(pidFile(id), { force: true });
    if (out) out.end();
  });
  if (child.pid) {
    fs.writeFileSync(pidFile(id), JSON.stringify({ pid: child.pid, marker, startedAt: new Date().toISOString() }));
    live.add(handle);
  }
  installExitHandler();
  return handle;
}

async function stopOne(handle, timeoutMs) {
  if (!handle.running()) return handle.exited;
  try {
    handle.child.kill('SIGTERM');
  } catch {
    // already gone
  }
  const timer = setTimeout(() => {
    if (handle.running()) {
      log(`${handle.label} did not stop within ${timeoutMs / 1000} s: killing it`);
      handle.child.kill('SIGKILL');
    }
  }, timeoutMs);
  const info = await handle.exited;
  clearTimeout(timer);
  return info;
}

/**
 * Stops every process started through this module (newest first, all in parallel), and every build or install
 * still running (util.mjs stopCommands: a build in the background).
 */
export async function stopAll(timeoutMs = 10000) {
  stopCommands();
  await Promise.all([...live].reverse().map((h) => stopOne(h, timeoutMs)));
}

/** Describes why a process is not running (exit code/signal) plus the tail of its output. */
export function exitReport(handle) {
  const info = handle.running() ? null : handle.exited;
  return Promise.resolve(info).then((i) => {
    const how = !i
      ? 'is still running'
      : i.error
        ? `could not start (${i.error.message})`
        : i.signal
          ? `was killed by ${i.signal}`
          : `exited with code ${i.code}`;
    const where = handle.logFile ? ` (full log: ${handle.logFile})` : '';
    return `${handle.label} ${how}${where}. Last lines of its output:\n${indent(handle.tail(25)) || '    (no output)'}`;
  });
}

export function indent(text, pad = '    ') {
  return text
    .split('\n')
    .filter((l) => l.length)
    .map((l) => pad + l)
    .join('\n');
}

let exitHandlerInstalled = false;
function installExitHandler() {
  if (exitHandlerInstalled) return;
  exitHandlerInstalled = true;
  // Last resort (process.exit or an uncaught error): no orphans, even if nothing awaited stopAll().
  process.on('exit', () => {
    for (const h of live) {
      try {
        h.child.kill('SIGKILL');
      } catch {
        // already gone
      }
    }
  });
}

/**
 * On SIGINT/SIGTERM/SIGHUP: run `cleanup` (default: stop every child) once, then exit 130/143/129.
 * A second signal while cleaning up kills the children at once.
 */
export function exitOnSignals(cleanup = () => stopAll()) {
  let stopping = false;
  const codes = { SIGINT: 130, SIGTERM: 143, SIGHUP: 129 };
  const shutDown = async (reason, code) => {
    if (stopping) {
      for (const h of live) h.child.kill('SIGKILL');
      process.exit(code);
    }
    stopping = true;
    log(`${reason}: stopping everything this run started ...`);
    try {
      await cleanup();
    } finally {
      process.exit(code);
    }
  };
  for (const signal of Object.keys(codes)) process.on(signal, () => shutDown(`${signal} received`, codes[signal]));
  // `npm start` runs us under `sh -c`: when npm is killed (not Ctrl-C in a terminal, which signals the whole
  // process group), sh dies and we are re-parented without any signal. Notice that and clean up anyway.
  const parent = process.ppid;
  setInterval(() => {
    if (process.ppid !== parent) shutDown(`the parent process (pid ${parent}) is gone`, 143);
  }, 1000).unref();
}

export { StepError };
