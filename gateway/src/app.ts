import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import compression from 'compression';
import express, { type Express, type NextFunction, type Request, type Response } from 'express';
import type { Redis } from 'ioredis';
import { apiDocs } from './api-docs/index';
import type { GatewayConfig } from './config';
import { MESSAGES, sendError } from './errors';
import { health, ready } from './health';
import { createHttpCache, type HttpCache } from './http-cache/index';
import { createLogger, type Logger } from './logger';
import { registry } from './metrics';
import { createProductPages, type ProductRead } from './product-page';
import { createServiceProxies } from './proxy';
import { rateLimits } from './rate-limit';
import { closeRedis, createRedis, waitForRedis } from './redis';
import { requestContext, requestIdOf } from './request-id';
import { isBackendPath } from './routes';
import { corsPolicy, embeddableImages, securityHeaders } from './security';
import { staticSpa } from './static-spa';

export interface Gateway {
  app: Express;
  redis: Redis;
  logger: Logger;
  /** The HTTP cache in front of the routes marked `cached`; undefined with CATALOG_CACHE=off. */
  httpCache?: HttpCache;
  /** Listens on config.port/host (0 = any free port); resolves with the bound address. */
  start(): Promise<{ port: number; url: string }>;
  /** Stops accepting, lets in-flight requests finish (up to graceMs), then drops Redis and upstream sockets. */
  close(graceMs?: number): Promise<void>;
}

/** A GET through the HTTP cache, as the product pages read a product. */
async function readThrough(cache: HttpCache, path: string): Promise<ProductRead> {
  const result = await cache.get(path);
  if ('entry' in result) return { status: 200, etag: result.entry.etag, body: result.entry.raw };
  if ('passed' in result) return { status: result.passed.status, body: result.passed.body };
  throw new Error(result.failed);
}

/** An Accept-Encoding naming an encoding `compression` can make (it negotiates q-values itself). */
const ENCODINGS = /\b(gzip|deflate|br)\b/i;

export interface GatewayOptions {
  logger?: Logger;
}

/**
 * Builds the gateway: one Express pipeline, every request dispatched by the route table (routes.ts). Order matters:
 * request id → security headers → CORS → HTTP cache (hits end here, already gzipped when asked) → compression →
 * own endpoints → rate limits → proxies (no body parser anywhere: bodies stream through) → SPA → JSON 404 / errors.
 */
export function createGateway(config: GatewayConfig, options: GatewayOptions = {}): Gateway {
  const logger = options.logger ?? createLogger(config.logLevel);
  const redis = createRedis(config.redisUrl, logger);
  const httpCache = config.catalogCache.enabled ? createHttpCache(config, redis, logger, registry) : undefined;
  const proxies = createServiceProxies(config, logger, { onUpstreamResponse: httpCache?.onUpstreamResponse });

  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', config.trustProxy);

  app.use(requestContext(logger));
  app.use(securityHeaders(config));
  app.use(embeddableImages);
  const cors = corsPolicy(config);
  if (cors) app.use(cors);
  // Before compression: a hit is sent as kept (raw, or the gzip variant made once).
  if (httpCache) app.use(httpCache.handler);
  // compression wraps every response it sees: only for clients that take some encoding.
  const compress = compression();
  app.use((req: Request, res: Response, next: NextFunction) =>
    ENCODINGS.test(req.headers['accept-encoding'] ?? '') ? compress(req, res, next) : next(),
  );

  app.get('/health', health);
  app.get('/ready', ready(config, redis));
  app.use('/api/docs', apiDocs(logger));

  app.use(rateLimits(config, redis, logger));
  app.use(proxies.handler);

  app.use((req: Request, res: Response, next: NextFunction) => {
    // Anything under /api that the route table does not know.
    if (isBackendPath(req.path)) return sendError(res, 404, MESSAGES.notFound);
    next();
  });
  const productPages = createProductPages({
    webDist: config.webDist,
    // The product as any client of the API reads it: through the HTTP cache when there is one.
    readProduct: httpCache && ((productPath) => readThrough(httpCache, productPath)),
    catalogUrl: config.upstreams.catalog,
    // a page waits at most 2 s for its product, then gets the prerendered frame (the app asks again)
    timeoutMs: Math.min(config.proxyTimeoutMs, 2000),
    logger,
  });
  app.use(staticSpa(config.webDist, { productPages }));

  app.use((_req: Request, res: Response) => {
    sendError(res, 404, MESSAGES.notFound);
  });
  app.use((err: unknown, req: Request, res: Response, _next: NextFunction) => {
    const status =
      (err as { status?: number; statusCode?: number }).status ?? (err as { statusCode?: number }).statusCode;
    if (status && status >= 400 && status < 500) {
      sendError(res, status, status === 404 ? MESSAGES.notFound : 'Bad request');
      return;
    }
    logger.error({ requestId: requestIdOf(req), err }, 'unhandled error');
    if (!sendError(res, 500, MESSAGES.internal)) res.destroy();
  });

  let server: Server | undefined;

  const start = async (): Promise<{ port: number; url: string }> => {
    // Give Redis a moment so the first logins are counted; without it we start anyway (fail open).
    if (!(await waitForRedis(redis, 2000)))
      logger.warn({ redisUrl: config.redisUrl }, 'Redis not reachable yet: starting without rate limits or HTTP cache');
    else if (httpCache && !(await httpCache.whenArmed(2000)))
      logger.warn('purge sequence not known yet: cached routes are proxied until it is');
    return new Promise((resolve, reject) => {
      const listening = createServer(app);
      listening.keepAliveTimeout = 65_000; // outlive a load balancer's 60 s idle timeout
      listening.headersTimeout = 66_000;
      listening.once('error', reject);
      listening.once('listening', () => {
        server = listening;
        const { port } = listening.address() as AddressInfo;
        const host = config.host === '0.0.0.0' || config.host === '::' ? '127.0.0.1' : config.host;
        logger.info(
          { port, host: config.host, upstreams: config.upstreams, webDist: config.webDist },
          'gateway listening',
        );
        resolve({ port, url: `http://${host}:${port}` });
      });
      listening.listen(config.port, config.host);
    });
  };

  const close = async (graceMs = 10_000): Promise<void> => {
    if (server) {
      const closing = server;
      server = undefined;
      await new Promise<void>((resolve) => {
        const force = setTimeout(() => closing.closeAllConnections(), graceMs);
        closing.close(() => {
          clearTimeout(force);
          resolve();
        });
        closing.closeIdleConnections();
      });
    }
    proxies.close();
    await httpCache?.close();
    await closeRedis(redis);
  };

  return { app, redis, logger, httpCache, start, close };
}
