import * as http from 'node:http';
import * as https from 'node:https';
import type { ClientRequest, IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import {
  createProxyMiddleware,
  debugProxyErrorsPlugin,
  proxyEventsPlugin,
  type RequestHandler as ProxyHandler,
} from 'http-proxy-middleware';
import { SERVICES, type ServiceName } from '@shop/contracts';
import type { GatewayConfig } from './config';
import { MESSAGES, sendError, unavailableMessage } from './errors';
import type { Logger } from './logger';
import { requestIdOf } from './request-id';
import { DOT_SEGMENT, matchRoute, normalisePath, type Route } from './routes';

export interface ServiceProxies {
  /** Express middleware: proxies a request whose path is in the route table, else calls next(). */
  handler: RequestHandler;
  /** Drops the keep-alive connections to the upstreams. */
  close(): void;
}

/**
 * Idle sockets to a service are dropped after this long, before the service drops them (nest-common keeps idle
 * connections 65 s): a socket the service closes while idle in the pool races the next request sent on it.
 */
export const UPSTREAM_IDLE_MS = 60_000;
/** At most this many connections to one service at once (more requests wait for one). */
export const UPSTREAM_MAX_SOCKETS = 512;

export interface ProxyHooks {
  /** Called with every upstream response, before its headers reach the client. */
  onUpstreamResponse?: (req: IncomingMessage, statusCode: number, service: ServiceName) => void;
}

/**
 * One http-proxy-middleware (v3) instance per service, mounted at the root so the upstream receives the
 * full original path (PITFALLS §2.3), and called only for the requests the route table gives it. Bodies are never parsed here: they stream through, and their size
 * is policed by Content-Length up front and by counting bytes of chunked bodies on the way.
 */
export function createServiceProxies(config: GatewayConfig, logger: Logger, hooks: ProxyHooks = {}): ServiceProxies {
  const agents = {} as Record<ServiceName, http.Agent>;
  // Requests whose body overflowed before the upstream request existed; and the upstream requests.
  const overflowed = new WeakSet<IncomingMessage>();
  const upstreamRequests = new WeakMap<IncomingMessage, ClientRequest>();
  // The route each request was dispatched by (matched once, in the handler below).
  const routeOf = new WeakMap<IncomingMessage, Route>();

  const limitFor = (route: Route | undefined): number =>
    route?.upload ? config.uploadBodyLimitBytes : config.bodyLimitBytes;

  const proxies = {} as Record<ServiceName, ProxyHandler>;
  for (const service of SERVICES) {
    const target = config.upstreams[service];
    const AgentClass = target.startsWith('https:') ? https.Agent : http.Agent;
    const agent = new AgentClass({
      keepAlive: true,
      maxSockets: UPSTREAM_MAX_SOCKETS,
      maxFreeSockets: 64,
      scheduling: 'lifo',
      timeout: UPSTREAM_IDLE_MS,
    });
    agents[service] = agent;

    proxies[service] = createProxyMiddleware({
      target,
      agent,
      changeOrigin: false,
      xfwd: true,
      proxyTimeout: config.proxyTimeoutMs,
      // The client side may idle a little longer than the upstream, so the 503 below wins the race.
      timeout: config.proxyTimeoutMs + 5_000,
      // Our own error handler instead of the default plain-text 504 (PITFALLS §2.5).
      ejectPlugins: true,
      plugins: [debugProxyErrorsPlugin, proxyEventsPlugin],
      on: {
        start: (req, res) => watchBodySize(req, res, limitFor(routeOf.get(req))),
        proxyReq: (proxyReq, req) => {
          if (overflowed.has(req)) proxyReq.destroy();
          else upstreamRequests.set(req, proxyReq);
        },
        proxyRes: (proxyRes, req) => {
          delete proxyRes.headers['x-powered-by'];
          hooks.onUpstreamResponse?.(req, proxyRes.statusCode ?? 0, service);
        },
        error: (err, req, res) => {
          const code = (err as NodeJS.ErrnoException).code;
          if (overflowed.has(req)) return; // we cut the upload off ourselves and already answered 413
          logger.warn({ requestId: requestIdOf(req), upstream: service, code, err: err.message }, 'upstream failed');
          if (!isServerResponse(res)) {
            res.destroy();
            return;
          }
          if (!sendError(res, 503, unavailableMessage(service))) res.destroy();
        },
      },
    });
  }

  /** Chunked (or lying) bodies: count bytes as they stream and stop at the limit. */
  function watchBodySize(req: IncomingMessage, res: ServerResponse, limit: number): void {
    // Without either header an HTTP/1.1 request has no body (RFC 9112 §6.3).
    if (req.headers['content-length'] === undefined && req.headers['transfer-encoding'] === undefined) return;
    let received = 0;
    req.on('data', (chunk: Buffer) => {
      received += chunk.length;
      if (received <= limit || overflowed.has(req)) return;
      overflowed.add(req);
      req.unpipe();
      sendError(res, 413, MESSAGES.tooLarge, { Connection: 'close' });
      upstreamRequests.get(req)?.destroy();
    });
  }

  const handler: RequestHandler = (req: Request, res: Response, next: NextFunction) => {
    const route = matchRoute(req.path);
    if (!route) return next();
    if (DOT_SEGMENT.test(normalisePath(req.path))) {
      sendError(res, 400, MESSAGES.badPath);
      return;
    }
    res.locals.upstream = route.service;
    routeOf.set(req, route);

    const declared = Number(req.headers['content-length'] ?? 0);
    if (declared > limitFor(route)) {
      refuseTooLarge(res, declared);
      return;
    }
    void proxies[route.service](req, res, next);
  };

  return {
    handler,
    close: () => Object.values(agents).forEach((agent) => agent.destroy()),
  };
}

/** A refused body up to this size is read and dropped after the 413; a larger one is cut off with the connection. */
const LINGER_BYTES = 8 * 1024 * 1024;

/**
 * 413 for a body whose Content-Length is over the limit, answered before any of it is proxied. Closing the
 * connection at once resets a client still sending, which then never reads the answer (what nginx's lingering
 * close avoids): a body of a few megabytes is left to Node, which reads it to its end and drops it, keeping the
 * connection; beyond that the connection closes, so nothing unread is taken as the next request.
 */
function refuseTooLarge(res: ServerResponse, declared: number): void {
  sendError(res, 413, MESSAGES.tooLarge, declared > LINGER_BYTES ? { Connection: 'close' } : {});
}

function isServerResponse(res: ServerResponse | Socket): res is ServerResponse {
  return typeof (res as ServerResponse).setHeader === 'function';
}
