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

  private write(level: Level, message: unknown, fields: Record<string, unknown>) {
    if (message !== null && typeof message === 'object' && !(message instanceof Error)) {
      const { msg, message: text, ...rest } = message as Record<string, unknown>;
      this.logger[level]({ ...fields, ...rest }, String(msg ?? text ?? ''));
    } else {
      this.logger[level](fields, message instanceof Error ? message.message : String(message));
    }
  }

  log(message: unknown, context?: string) {
    this.write(context && BOOT_CONTEXTS.has(context) ? 'debug' : 'info', message, { context });
  }
  error(message: unknown, trace?: string, context?: string) {
    this.write('error', message, { context, trace });
  }
  warn(message: unknown, context?: string) {
    this.write('warn', message, { context });
  }
  debug(message: unknown, context?: string) {
    this.write('debug', message, { context });
  }
  verbose(message: unknown, context?: string) {
    this.write('trace', message, { context });
  }
}
