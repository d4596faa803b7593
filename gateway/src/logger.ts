import type { Logger } from 'pino';
import { createLogger as createServiceLogger } from '@shop/nest-common/logging';

export type { Logger };

/** The gateway's one logger: nest-common's (JSON lines, buffered stdout), as every service's, named `gateway`. */
export function createLogger(level: string): Logger {
  return createServiceLogger('gateway', level);
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
