import type { LoggerService } from '@nestjs/common';
import pino, { type Logger } from 'pino';

/** The service's root pino logger, provided by startServiceApp to every module. */
export const ROOT_LOGGER = Symbol('ROOT_LOGGER');
import { currentRequestId } from './request-context';

/** Longest a log line waits in the buffer. */
export const LOG_FLUSH_MS = 500;

/**
 * stdout in blocks of 4 KB, and at least every LOG_FLUSH_MS: a write(2) per access-log line was a tenth of a cart
 * request's CPU (profiled). pino flushes synchronously on exit, so a crash still ends with its last lines; only a
 * SIGKILL may lose what is buffered.
 */
function bufferedStdout(): pino.DestinationStream {
  const destination = pino.destination({ dest: 1, sync: false, minLength: 4096 });
  const flusher = setInterval(() => {
    try {
      destination.flush();
    } catch {
      clearInterval(flusher); // destroyed: nothing left to flush
    }
  }, LOG_FLUSH_MS);
  flusher.unref();
  return destination;
}

/**
 * One JSON line per log entry, each carrying the service name and the id of the request
 * being served (from the gateway's x-request-id, through HTTP and RabbitMQ).
 */
export function createLogger(
  service: string,
  level = process.env.LOG_LEVEL ?? 'info',
  destination?: pino.DestinationStream,
): Logger {
  return pino(
    {
      level,
      base: { service },
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      mixin: () => {
        const requestId = currentRequestId();
        return requestId ? { requestId } : {};
      },
    },
    destination ?? bufferedStdout(),
  );
}

type Level = 'info' | 'error' | 'warn' | 'debug' | 'trace';

/** Nest's start-up chatter (one line per module and route): debug, so `info` shows what an operator needs. */
const BOOT_CONTEXTS = new Set(['InstanceLoader', 'RoutesResolver', 'RouterExplorer', 'NestFactory']);

/**
 * Lets Nest's own messages (bootstrap, route mapping, errors) and `new Logger(ctx).log(...)` calls go
 * through the same logger. A string becomes the message; an object's fields go on the line.
 */
export class PinoNestLogger implements LoggerService {
  constructor(private readonly logger: Logger) {}

  /**
   * A Nest `Logger` with a context passes it last (`new Logger('Stock').log({checkoutId}, 'reservation expired')`
   * arrives as `({checkoutId}, 'reservation expired', 'Stock')`): with an object message, a string before the
   * context is the line's text, as in pino's `(fields, msg)`.
   */
  private write(level: Level, message: unknown, params: unknown[], extra: Record<string, unknown> = {}) {
    const context = params.length ? params[params.length - 1] : undefined;
    const fields = { ...extra, context };
    if (message !== null && typeof message === 'object' && !(message instanceof Error)) {
      const { msg, message: text, ...rest } = message as Record<string, unknown>;
      const said = params.length > 1 && typeof params[0] === 'string' ? params[0] : undefined;
      this.logger[level]({ ...fields, ...rest }, String(msg ?? text ?? said ?? ''));
    } else {
      this.logger[level](fields, message instanceof Error ? message.message : String(message));
    }
  }

  log(message: unknown, ...params: unknown[]) {
    const context = params.at(-1);
    this.write(typeof context === 'string' && BOOT_CONTEXTS.has(context) ? 'debug' : 'info', message, params);
  }
  /** `(message, trace?, context?)`; with an object message the string before the context is its text, not a trace. */
  error(message: unknown, ...params: unknown[]) {
    const objectMessage = message !== null && typeof message === 'object' && !(message instanceof Error);
    const trace = !objectMessage && params.length > 1 ? params[0] : undefined;
    this.write('error', message, params, trace === undefined ? {} : { trace });
  }
  warn(message: unknown, ...params: unknown[]) {
    this.write('warn', message, params);
  }
  debug(message: unknown, ...params: unknown[]) {
    this.write('debug', message, params);
  }
  verbose(message: unknown, ...params: unknown[]) {
    this.write('trace', message, params);
  }
}
