import * as http from 'node:http';
import * as https from 'node:https';
import type { ClientRequest, IncomingMessage, ServerResponse } from 'node:http';
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
import { notesOf, requestIdOf } from './request-id';
import { DOT_SEGMENT, matchRoute, normalisePath, type Route } from './routes';

/**
 * Idle sockets to a service are dropped after this long, before the service drops them (nest-common keeps idle
 * connections 65 s): a socket the service closes while idle in the pool races the next request sent on it.
 */
export const UPSTREAM_IDLE_MS = 60_000;
/** At most this many connections to one service at once (more requests wait for one). */
export const UPSTREAM_MAX_SOCKETS = 512;

/**
 * One http-proxy-middleware (v3) instance per service, mounted at the root so the upstream receives the full original
 * path (PITFALLS §2.3), and called only for the requests the route table gives it. Bodies are never parsed here: they
 * stream through, and their size is policed by Content-Length up front and by counting bytes of chunked bodies.
 */
export function createServiceProxies(
  config: GatewayConfig,
  logger: Logger,
  /** Called with every upstream response, before its headers reach the client. */
  onUpstreamResponse?: (req: IncomingMessage, statusCode: number, service: ServiceName) => void,
) {
  const agents = {} as Record<ServiceName, http.Agent>;
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
        // Here, as the body is about to be piped: a listener added any earlier would take chunks from the pipe.
        start: (req, res) => watchBodySize(req, res),
        proxyReq: (proxyReq, req: Counted) => {
          const counting = req[COUNT];
          if (counting?.overflowed) proxyReq.destroy();
          else if (counting) counting.upstream = proxyReq;
        },
        proxyRes: (proxyRes, req) => {
          delete proxyRes.headers['x-powered-by'];
          onUpstreamResponse?.(req, proxyRes.statusCode ?? 0, service);
        },
        error: (err, req, res) => {
          if ((req as Counted)[COUNT]?.overflowed) return; // we cut the upload off ourselves and already answered 413
          const code = (err as NodeJS.ErrnoException).code;
          logger.warn({ requestId: requestIdOf(req), upstream: service, code, err: err.message }, 'upstream failed');
          // (a bare socket only for an upgrade, which no route takes)
          if (!('setHeader' in res) || !sendError(res, 503, unavailableMessage(service))) res.destroy();
        },
      },
    });
  }

  /**
   * Chunked bodies: count bytes as they stream and stop at the limit. A body with a Content-Length was judged by it
   * up front, and Node's parser reads no byte past it (any more are the next request, on which the client waits).
   */
  function watchBodySize(req: Counted, res: ServerResponse): void {
    if (req.headers['transfer-encoding'] === undefined) return;
    const limit = limitFor(matchRoute((req.url ?? '/').split('?')[0]));
    const counting: Counting = (req[COUNT] = { received: 0, overflowed: false });
    req.on('data', (chunk: Buffer) => {
      counting.received += chunk.length;
      if (counting.received <= limit || counting.overflowed) return;
      counting.overflowed = true;
      req.unpipe();
      sendError(res, 413, MESSAGES.tooLarge, { Connection: 'close' });
      counting.upstream?.destroy();
    });
  }

  return {
    /** Proxies a request to the service of its route (next(err) only if the proxy throws). */
    proxy(route: Route, req: IncomingMessage, res: ServerResponse, next: (err?: unknown) => void): void {
      if (DOT_SEGMENT.test(normalisePath((req.url ?? '/').split('?')[0]))) {
        sendError(res, 400, MESSAGES.badPath);
        return;
      }
      notesOf(res).upstream = route.service;
      const declared = Number(req.headers['content-length'] ?? 0);
      if (declared > limitFor(route)) {
        refuseTooLarge(res, declared);
        return;
      }
      void proxies[route.service](req, res, next);
    },
    /** Drops the keep-alive connections to the upstreams. */
    close: () => Object.values(agents).forEach((agent) => agent.destroy()),
  };
}

/** The byte count of a request body on its way (watchBodySize), and its upstream request once there is one. */
interface Counting {
  received: number;
  overflowed: boolean;
  upstream?: ClientRequest;
}
const COUNT = Symbol('body byte count');
type Counted = IncomingMessage & { [COUNT]?: Counting };

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
