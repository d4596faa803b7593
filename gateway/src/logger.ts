import pino, { type Logger } from 'pino';

export type { Logger };

/**
 * JSON lines on stdout, one logger for the whole process. Lines are buffered (written in blocks of
 * 4 KB, and at least every LOG_FLUSH_MS): one write(2) per access-log line cost the hot path more than
 * answering a cached catalogue read. pino flushes synchronously on exit; a SIGKILL may lose < 4 KB.
 */
export function createLogger(level: string): Logger {
  const destination = pino.destination({ dest: 1, sync: false, minLength: 4096 });
  const flusher = setInterval(() => {
    try {
      destination.flush();
    } catch {
      clearInterval(flusher); // destroyed: nothing left to flush
    }
  }, LOG_FLUSH_MS);
  flusher.unref();
  return pino(
    {
      // The same line shape as the services' (packages/nest-common createLogger): level label, service name.
      level,
      base: { service: 'gateway' },
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      redact: { paths: ['req.headers.authorization', 'req.headers.cookie'], remove: true },
    },
    destination,
  );
}

/** Longest a log line waits in the buffer. */
export const LOG_FLUSH_MS = 500;

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
