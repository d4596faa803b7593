import pino, { type Logger } from 'pino';

export type { Logger };

/** JSON lines on stdout, one logger for the whole process. */
export function createLogger(level: string): Logger {
  return pino({
    name: 'gateway',
    level,
    base: { pid: process.pid },
    timestamp: pino.stdTimeFunctions.isoTime,
    redact: { paths: ['req.headers.authorization', 'req.headers.cookie'], remove: true },
  });
}

/** Logs at most once per interval (a Redis outage must not flood the log). */
export function throttled(intervalMs: number): (fn: () => void) => void {
  let last = 0;
  return (fn) => {
    const now = Date.now();
    if (now - last >= intervalMs) {
      last = now;
      fn();
    }
  };
}
