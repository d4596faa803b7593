import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import compression from 'compression';
import express, { type Express, type NextFunction, type Request, type Response } from 'express';
import type { Redis } from 'ioredis';
import { REQUEST_ID_HEADER } from '@shop/contracts';
// The folder's index by name: an incremental build may still hold the dist/catalog-cache.js it replaced.
import { createCatalogCache, type CatalogCache } from './catalog-cache/index';
import { apiDocs } from './api-docs/index';
import { createGuestCartAdds } from './cart-guest-adds';
import { createGuestCartReads } from './cart-guest-reads';
import { createCartLane } from './cart-lane';
import { cartProductsOfCatalogue } from './cart-products';
import type { GatewayConfig } from './config';
import { MESSAGES, sendError } from './errors';
import { health, ready } from './health';
import { createLogger, type Logger } from './logger';
import { cartsWritten } from './metrics';
import { createProductPages } from './product-page';
import { createServiceProxies } from './proxy';
import { rateLimits } from './rate-limit';
import { closeRedis, createRedis, waitForRedis } from './redis';
import { assignRequestId, logWhenDone, requestContext, requestIdOf } from './request-id';
import { isBackendPath } from './routes';
import { corsPolicy, embeddableImages, securityHeaders, staticSecurityHeaders } from './security';
import { staticSpa } from './static-spa';

export interface Gateway {
  app: Express;
  redis: Redis;
  logger: Logger;
  /** The cache of public catalogue reads; undefined with CATALOG_CACHE=off. */
  catalogCache?: CatalogCache;
  /** Listens on config.port/host (0 = any free port); resolves with the bound address. */
  start(): Promise<{ port: number; url: string }>;
  /** Stops accepting, lets in-flight requests finish (up to graceMs), then drops Redis and upstream sockets. */
  close(graceMs?: number): Promise<void>;
}

export interface GatewayOptions {
  logger?: Logger;
}

/**
 * Builds the gateway. Order matters: request id → security headers → CORS → catalogue cache (hits end
 * here, already gzipped when asked) → compression → own endpoints → rate limits → proxies (no body parser
 * anywhere: bodies stream through) → SPA → JSON 404 / errors.
 */
export function createGateway(config: GatewayConfig, options: GatewayOptions = {}): Gateway {
  const logger = options.logger ?? createLogger(config.logLevel);
  const redis = createRedis(config.redisUrl, logger);
  const catalogCache = config.catalogCache.enabled ? createCatalogCache(config, redis, logger) : undefined;
  const proxies = createServiceProxies(config, logger, { onUpstreamResponse: catalogCache?.onUpstreamResponse });

  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', config.trustProxy);

  const security = securityHeaders(config);
  app.use(requestContext(logger));
  app.use(security);
  app.use(embeddableImages);
  const cors = corsPolicy(config);
  if (cors) app.use(cors);
  // Before compression: a hit is sent as stored (raw, or the gzip variant made once at store time).
  if (catalogCache) app.use(catalogCache.handler);
  const compress = compression();
  app.use(compress);

  app.get('/health', health);
  app.get('/ready', ready(config, redis));
  app.use(apiDocs(logger));

  app.use(rateLimits(config, redis, logger));
  app.use(proxies.handler);

  app.use((req: Request, res: Response, next: NextFunction) => {
    // Anything under /api that the route table does not know.
    if (isBackendPath(req.path)) return sendError(res, 404, MESSAGES.notFound);
    next();
  });
  const productPages = createProductPages({
    webDist: config.webDist,
    catalogUrl: config.upstreams.catalog,
    catalogVersion: () => catalogCache?.stats().version,
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

  /**
   * The fast lane: a cacheable catalogue read (hit or miss) is answered before Express, whose router and
   * per-request helmet cost more than a hit itself, with the same request id, access-log line and security
   * headers (as helmet computed them once at boot). CORS requests (an Origin header with CORS_ORIGINS set) and
   * everything else take the full Express path.
   */
  const securityHeaderList = catalogCache ? staticSecurityHeaders(security)?.flat() : undefined;
  const onRequest =
    catalogCache && securityHeaderList
      ? (req: IncomingMessage, res: ServerResponse): void => {
          const fast = cors && req.headers.origin !== undefined ? undefined : catalogCache.fastLane(req);
          if (fast === undefined) {
            app(req, res);
            return;
          }
          const started = process.hrtime.bigint();
          const requestId = assignRequestId(req);
          logWhenDone(req, res, logger, requestId, started);
          try {
            fast(res, [REQUEST_ID_HEADER, requestId, ...securityHeaderList]);
          } catch (err) {
            logger.error({ requestId, err }, 'unhandled error');
            if (!sendError(res, 500, MESSAGES.internal)) res.destroy();
          }
        }
      : app;

  // The cart lane (cart-lane.ts): a shopper's cart reads and adds forwarded before Express and the catalogue's lane.
  const cartHeaders = staticSecurityHeaders(security);
  // Plain guest cart reads and adds answered from Redis and the catalogue copy (cart-guest-reads.ts,
  // cart-guest-adds.ts), when both are at hand.
  const catalogue = () => catalogCache?.currentCatalogue();
  const cartProducts = cartProductsOfCatalogue();
  const { namespace } = config.cartGuestReads;
  const guestReads =
    catalogCache && config.cartGuestReads.enabled
      ? createGuestCartReads(redis, namespace, catalogue, cartProducts)
      : undefined;
  const guestAdds =
    catalogCache && config.cartGuestAdds.enabled
      ? createGuestCartAdds(
          redis,
          { namespace, ttlSeconds: config.cartGuestAdds.ttlSeconds },
          catalogue,
          cartProducts,
          () => cartsWritten.inc({ owner: 'guest' }),
        )
      : undefined;
  const cartLane =
    cartHeaders &&
    createCartLane(config, logger, {
      securityHeaders: cartHeaders,
      compress,
      guestReads,
      guestAdds,
    });
  const serve = (req: IncomingMessage, res: ServerResponse): void => {
    if (cartLane && !(cors && req.headers.origin !== undefined) && cartLane.handle(req, res)) return;
    onRequest(req, res);
  };

  let server: Server | undefined;

  const start = async (): Promise<{ port: number; url: string }> => {
    // Give Redis a moment so the first logins are counted; without it we start anyway (fail open).
    if (!(await waitForRedis(redis, 2000)))
      logger.warn(
        { redisUrl: config.redisUrl },
        'Redis not reachable yet: starting without rate limits or catalogue cache',
      );
    else if (catalogCache && !(await catalogCache.whenArmed(2000)))
      logger.warn('catalog version not known yet: catalogue reads are proxied until it is');
    return new Promise((resolve, reject) => {
      const listening = createServer(serve);
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
    if (cartLane) await cartLane.close();
    await catalogCache?.close();
    await closeRedis(redis);
  };

  return { app, redis, logger, catalogCache, start, close };
}
