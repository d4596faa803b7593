import { once } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import compression from 'compression';
import express, { type NextFunction, type Request, type Response } from 'express';
import type { Logger } from 'pino';
import { createLogger } from '@shop/nest-common/logging';
import { apiDocs } from './api-docs/serve';
import type { GatewayConfig } from './config';
import { MESSAGES, sendError } from './errors';
import { health, ready } from './health';
import { createHttpCache } from './http-cache/index';
import { createProductPages } from './product-page';
import { createServiceProxies, upstreamAgents } from './proxy';
import { rateLimits } from './rate-limit';
import { serviceReplicas } from './replicas';
import { closeRedis, createRedis, waitForRedis } from './redis';
import { beginRequest, notesOf, requestIdOf } from './request-id';
import { matchRoute, pathOf, RATE_LIMITED, ROUTES, type Route } from './routes';
import { corsPolicy, embeddable, securityHeaders } from './security';
import { staticSpa } from './static-spa';

export type Gateway = ReturnType<typeof createGateway>;

/** An Accept-Encoding naming an encoding `compression` can make (it negotiates q-values itself). */
const ENCODINGS = /\b(gzip|deflate|br)\b/i;

/** One step of a route's way to its service, connect-style: it answers, or calls next (with an error to fail). */
type Step = (req: IncomingMessage, res: ServerResponse, next: (err?: unknown) => void) => void;

/**
 * Builds the gateway. Every request gets a request id and its access-log line, the security headers and CORS; then
 * the route table (routes.ts) dispatches it. A request to a route goes straight down that route's own steps — HTTP
 * cache (cached routes; hits end here, already gzipped when asked) → compression (clients that take an encoding) →
 * rate limit (routes holding a limited call) → proxy (no body parser anywhere: bodies stream through) — and never
 * through Express. Anything else is Express's: /health, /ready, /api/docs, the SPA, JSON 404 and errors.
 */
export function createGateway(config: GatewayConfig, options: { logger?: Logger } = {}) {
  const logger = options.logger ?? createLogger('gateway', config.logLevel);
  const redis = createRedis(config.redisUrl, logger);
  const agents = upstreamAgents(config);
  const replicas = serviceReplicas(config.upstreams, logger);
  // in front of the routes marked `cached`; none with CATALOG_CACHE=off
  const httpCache = config.catalogCache.enabled ? createHttpCache(config, redis, logger, agents, replicas) : undefined;
  const proxy = createServiceProxies(config, agents, replicas, logger, httpCache?.onUpstreamResponse);

  const fail = (err: unknown, req: IncomingMessage, res: ServerResponse): void => {
    const status =
      (err as { status?: number; statusCode?: number }).status ?? (err as { statusCode?: number }).statusCode;
    if (status && status >= 400 && status < 500) {
      sendError(res, status, status === 404 ? MESSAGES.notFound : 'Bad request');
      return;
    }
    logger.error({ requestId: requestIdOf(req), err }, 'unhandled error');
    if (!sendError(res, 500, MESSAGES.internal)) res.destroy();
  };

  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', config.trustProxy);
  app.get('/health', health);
  app.get('/ready', ready(config, redis));
  app.use('/api/docs', apiDocs(logger));
  const productPages = createProductPages({
    webDist: config.webDist,
    // The product as any client of the API reads it: through the HTTP cache when there is one.
    readProduct: httpCache?.read,
    catalogUrl: config.upstreams.catalog[0],
    // a page waits at most 2 s for its product, then gets the prerendered frame (the app asks again)
    timeoutMs: Math.min(config.proxyTimeoutMs, 2000),
    logger,
  });
  app.use(staticSpa(config.webDist, { productPages }));
  // an /api or /uploads path no route owns, a missing /assets/ file, another method than GET/HEAD
  app.use((_req: Request, res: Response) => sendError(res, 404, MESSAGES.notFound));
  app.use((err: unknown, req: Request, res: Response, _next: NextFunction) => fail(err, req, res));

  // Each route's steps, put together once.
  const compress = compression();
  const compressWhenAccepted: Step = (req, res, next) =>
    ENCODINGS.test(req.headers['accept-encoding'] ?? '') ? compress(req as Request, res as Response, next) : next();
  const rateLimit = rateLimits(config, redis, logger, app.get('trust proxy fn'));
  const limited = new Set(Object.values(RATE_LIMITED).map(({ path }) => matchRoute(path)));
  const steps = new Map<Route, Step[]>();
  for (const route of ROUTES) {
    steps.set(route, [
      ...(route.cached && httpCache ? [httpCache.handle] : []),
      compressWhenAccepted,
      ...(limited.has(route) ? [rateLimit] : []),
      (req, res, next) => proxy(route, req, res, next),
    ]);
  }

  const headers = securityHeaders(config);
  const cors = corsPolicy(config);
  const dispatch = (req: IncomingMessage, res: ServerResponse): void => {
    const route = matchRoute(pathOf(req.url ?? '/'));
    if (!route) return void app(req, res);
    notesOf(res).route = route.prefix;
    const way = steps.get(route)!;
    let i = 0;
    const next = (err?: unknown): void => {
      if (err !== undefined) fail(err, req, res);
      else way[i++](req, res, next);
    };
    next();
  };
  const listener = (req: IncomingMessage, res: ServerResponse): void => {
    beginRequest(req, res, logger);
    for (const [name, value] of headers) res.setHeader(name, value);
    if (embeddable(req.url ?? '/')) res.setHeader('Cross-Origin-Resource-Policy', 'cross-origin');
    if (cors) cors(req, res, () => dispatch(req, res));
    else dispatch(req, res);
  };

  const server = createServer(listener);
  server.keepAliveTimeout = 65_000; // outlive a load balancer's 60 s idle timeout
  server.headersTimeout = 66_000;

  /** Listens on config.port/host (0 = any free port); resolves with the bound address. */
  const start = async (): Promise<{ port: number; url: string }> => {
    // Give Redis a moment so the first logins are counted; without it we start anyway (fail open).
    if (!(await waitForRedis(redis, 2000)))
      logger.warn({ redisUrl: config.redisUrl }, 'Redis not reachable yet: starting without rate limits or HTTP cache');
    else if (httpCache && !(await httpCache.whenArmed(2000)))
      logger.warn('purge sequence not known yet: cached routes are proxied until it is');
    server.listen(config.port, config.host);
    await once(server, 'listening'); // rejects on 'error' (the port is taken)
    const { port } = server.address() as AddressInfo;
    const host = config.host === '0.0.0.0' || config.host === '::' ? '127.0.0.1' : config.host;
    logger.info({ port, host: config.host, upstreams: config.upstreams, webDist: config.webDist }, 'gateway listening');
    return { port, url: `http://${host}:${port}` };
  };

  /** Stops accepting, lets in-flight requests finish (up to graceMs), then drops Redis and upstream sockets. */
  const close = async (graceMs = 10_000): Promise<void> => {
    if (server.listening) {
      const force = setTimeout(() => server.closeAllConnections(), graceMs);
      await new Promise((resolve) => {
        server.close(resolve);
        server.closeIdleConnections();
      });
      clearTimeout(force);
    }
    Object.values(agents).forEach((agent) => agent.destroy());
    await httpCache?.close();
    await closeRedis(redis);
  };

  return { redis, logger, httpCache, start, close };
}
