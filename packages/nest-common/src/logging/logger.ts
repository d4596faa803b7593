import type { LoggerService } from '@nestjs/common';
import pino, { type Logger } from 'pino';

/** The service's root pino logger, provided by startServiceApp to every module. */
export const ROOT_LOGGER = Symbol('ROOT_LOGGER');
import { currentRequestId } from './request-context';

/**
 * One JSON line per log entry, each carrying the service name and the id of the request
 * being served (from the gateway's x-request-id, through HTTP and RabbitMQ).
 */
export function createLogger(service: string, level = process.env.LOG_LEVEL ?? 'info', destination?: pino.DestinationStream): Logger {
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
    destination ?? pino.destination(1),
  );
}

/** Lets Nest's own messages (bootstrap, route mapping, errors) go through the same logger. */
export class PinoNestLogger implements LoggerService {
  constructor(private readonly logger: Logger) {}

  log(message: unknown, context?: string) {
    this.logger.info({ context }, String(message));
  }
  error(message: unknown, trace?: string, context?: string) {
    this.logger.error({ context, trace }, String(message));
  }
  warn(message: unknown, context?: string) {
    this.logger.warn({ context }, String(message));
  }
  debug(message: unknown, context?: string) {
    this.logger.debug({ context }, String(message));
  }
  verbose(message: unknown, context?: string) {
    this.logger.trace({ context }, String(message));
  }
}
