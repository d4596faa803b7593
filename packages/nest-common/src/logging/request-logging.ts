import { REQUEST_ID_HEADER } from '@shop/contracts';
import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { normaliseRequestId, runWithRequestContext } from './request-context';

/** Probes the orchestrator sends every few seconds: logged at debug, not info. */
const PROBES = new Set(['/health', '/ready']);

/**
 * Runs every HTTP request inside its request context (the rest of Fastify's lifecycle, the route handler included,
 * continues from `done`, so it inherits the context), echoes the id, and writes one access line when the response is
 * sent.
 */
export function requestLogging(app: FastifyInstance, logger: Logger): void {
  app.addHook('onRequest', (req, reply, done) => {
    const requestId = normaliseRequestId(req.headers[REQUEST_ID_HEADER]);
    req.headers[REQUEST_ID_HEADER] = requestId;
    void reply.header(REQUEST_ID_HEADER, requestId);
    runWithRequestContext({ requestId }, done);
  });
  app.addHook('onResponse', (req, reply, done) => {
    const path = req.url.split('?', 1)[0];
    const line = { method: req.method, path, status: reply.statusCode, ms: Math.round(reply.elapsedTime * 10) / 10 };
    if (PROBES.has(path)) logger.debug(line, 'request');
    else logger.info(line, 'request');
    done();
  });
}
